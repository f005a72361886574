import type { MemberCard } from '../../../api/booking';
import { cardEnded, type CardOperation, type CardStatus } from '../../../../machines/domain/card-transitions';

/** The card facts these rules read (GET /customers/cards and the card detail share them). */
export type CardFacts = Pick<MemberCard, 'status' | 'usesTotal' | 'usesLeft' | 'validFrom' | 'validUntil' | 'validityDays'>;

/** A card's frequency (spec §3): uses left of the total, or unlimited (time-based cards); none once it ended. */
export type CardFrequency = { kind: 'count'; left: number; total: number } | { kind: 'unlimited' } | { kind: 'ended' };

export function cardFrequency(card: Pick<CardFacts, 'usesTotal' | 'usesLeft'> & { status?: CardStatus }): CardFrequency {
  // a transferred card's uses went with it; a refunded one's were paid back
  if (card.status && cardEnded(card.status)) return { kind: 'ended' };
  if (card.usesTotal === null) return { kind: 'unlimited' };
  return { kind: 'count', left: card.usesLeft ?? 0, total: card.usesTotal };
}

/**
 * A card's validity (spec §3 start and end): the dates once it is activated; before that, how many
 * days it will run from its first booking (spec §8 "inactive card is activated by booking").
 */
export type CardValidity =
  | { kind: 'dates'; from: string | null; until: string | null }
  | { kind: 'from-first-booking'; days: number | null }
  | { kind: 'ended' };

export function cardValidity(card: Pick<CardFacts, 'status' | 'validFrom' | 'validUntil' | 'validityDays'>): CardValidity {
  // a transferred or refunded card has no validity left to tell (never "valid long-term")
  if (cardEnded(card.status)) return { kind: 'ended' };
  if (card.status === 'inactive' && !card.validFrom) return { kind: 'from-first-booking', days: card.validityDays };
  return { kind: 'dates', from: card.validFrom, until: card.validUntil };
}

/**
 * The screens behind the card operations that lead to another page. Activation happens through the
 * first booking (spec §4), so "activate" leads to the schedule; transfer and refund join this table
 * with their pages. Freeze, unfreeze and extend happen on the card page itself (card-freeze.tsx,
 * card-extend.tsx, as the server offers them; decision 024). An operation without a screen shows no button.
 */
export const CARD_OPERATION_PATHS: Partial<Record<CardOperation, (cardId: number) => string>> = {
  activate: () => '/takecourse/bookcourse',
};

export interface CardAction {
  op: CardOperation | 'buy-again';
  to: string;
}

/**
 * The actions a card shows: the operations the server offers for it now (the card chart in its
 * status, less what a waiting application or its type refuses) that have a screen, and "buy again"
 * for a card that can no longer be used (expired, invalid, transferred).
 */
export function cardActions(card: { id: number; status: CardStatus; operations: readonly CardOperation[] }): CardAction[] {
  const ops: CardAction[] = card.operations.flatMap((op) => {
    const path = CARD_OPERATION_PATHS[op];
    return path ? [{ op, to: path(card.id) }] : [];
  });
  if (card.status === 'expired' || card.status === 'invalid' || card.status === 'transferred')
    ops.push({ op: 'buy-again', to: '/vipcard?tab=shop' });
  return ops;
}
