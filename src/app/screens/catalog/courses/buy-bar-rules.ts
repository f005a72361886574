import type { GoodsDetail } from '../../../../api/catalog-goods';
import { choiceMade, requiredChoice, type GoodsChoice, type GoodsChoiceKind } from '../../../../domain/goods-choice';
import { loginPath } from '../../../session/request-session';

/** What the buy bar shows and where Buy leads. */
export type BuyBarState =
  /** cannot be bought now (off shelf, sold out): the server's message */
  | { step: 'unavailable'; message: string | null }
  /** Buy is disabled until a phase or teacher is chosen */
  | { step: 'choose'; need: GoodsChoiceKind }
  /** a visitor: Buy goes to log in first, then on to the agreement */
  | { step: 'login'; to: string }
  /** a member: Buy opens the agreement (the checkout's entry point) */
  | { step: 'buy'; to: string };

/** The checkout's entry point (spec §2 /agreement/payagreement, query id, phaseId, teacherId). */
export function payAgreementPath(goodsId: number, choice: GoodsChoice): string {
  const q = new URLSearchParams({ id: String(goodsId) });
  if (choice.phaseId !== undefined) q.set('phaseId', String(choice.phaseId));
  if (choice.teacherId !== undefined) q.set('teacherId', String(choice.teacherId));
  return `/agreement/payagreement?${q.toString()}`;
}

/**
 * The buy bar's rules (spec §5 "before buying: phase or teacher chosen and user logged in"): goods
 * that cannot be bought say why; the choice comes first; then a visitor logs in and comes back to the
 * agreement with the choice kept; a member goes straight on. Only the choice the goods need is sent.
 */
export function buyBarState(
  g: Pick<GoodsDetail, 'id' | 'kind' | 'isUable' | 'message' | 'phases' | 'teachers'>,
  choice: GoodsChoice,
  member: boolean,
): BuyBarState {
  if (!g.isUable) return { step: 'unavailable', message: g.message };
  const need = requiredChoice(g);
  if (need && !choiceMade(g, choice)) return { step: 'choose', need };
  const sent: GoodsChoice = need === 'phase' ? { phaseId: choice.phaseId } : need === 'teacher' ? { teacherId: choice.teacherId } : {};
  const to = payAgreementPath(g.id, sent);
  return member ? { step: 'buy', to } : { step: 'login', to: loginPath(to) };
}

/**
 * The price to show for the goods with this choice: a chosen phase's own price where it has one.
 * The member price stays absent for a visitor (the server sends none).
 */
export function priceFor(
  g: Pick<GoodsDetail, 'listPriceCents' | 'memberPriceCents' | 'phases'>,
  choice: GoodsChoice,
): { listPriceCents: number; memberPriceCents?: number } {
  const phase = choice.phaseId === undefined ? undefined : g.phases?.find((p) => p.id === choice.phaseId);
  const listPriceCents = phase?.listPriceCents ?? g.listPriceCents;
  if (g.memberPriceCents === undefined) return { listPriceCents };
  return { listPriceCents, memberPriceCents: phase?.memberPriceCents ?? g.memberPriceCents };
}
