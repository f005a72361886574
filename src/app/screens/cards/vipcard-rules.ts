import { CARD_TYPE_VALUES, type CardType } from '../../../domain/catalog';
import type { CardStatus } from '../../../../machines/domain/card-transitions';

/** The two parts of /vipcard: card products to buy, and the member's own cards. */
export type VipcardTab = 'shop' | 'mine';

/** Statuses in which a card can still be used to book (an inactive card starts on its first booking). */
const USABLE: readonly CardStatus[] = ['in_use', 'inactive'];

/**
 * Which part /vipcard opens on: the one asked for in `?tab=`; else a member with a usable card sees
 * their cards, and a visitor or a member without a usable card sees the products (spec §6 "members
 * with no valid card are pushed to buy one").
 */
export function vipcardTab(asked: string | null, member: boolean, shownStatuses: readonly CardStatus[]): VipcardTab {
  if (asked === 'shop' || asked === 'mine') return asked;
  return member && shownStatuses.some((s) => USABLE.includes(s)) ? 'mine' : 'shop';
}

/** The card type filter of `?type=` (the card-type dictionary's values); anything else is no filter. */
export function cardTypeParam(raw: string | null): CardType | undefined {
  return (CARD_TYPE_VALUES as readonly string[]).includes(raw ?? '') ? (raw as CardType) : undefined;
}

/** The /vipcard URL for a tab and type filter. */
export function vipcardPath(tab: VipcardTab, type?: CardType): string {
  const q = new URLSearchParams({ tab });
  if (type) q.set('type', type);
  return `/vipcard?${q.toString()}`;
}
