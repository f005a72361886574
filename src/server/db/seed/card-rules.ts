import type { CardType } from '../../../domain/catalog';
import type { Tx } from '../client';
import { cardTypeRules } from '../schema/index';

/**
 * What each card type allows beyond booking (decision 024): count and time cards may be extended a
 * few times by up to a month or two; gift, trial, family and benefits cards may not. Decision 030: a
 * started card refunded keeps a 10% handling fee; gift, gifted, family sub and benefits cards are never refunded.
 * Decision 040: a family main card shares its uses and validity with up to two sub-card holders
 * (`familySlots`); an unused gift or gifted (trial, for a friend) card may be given to another member once (`giftable`).
 */
type Rule = { maxExtensions: number; maxExtensionDays: number; refundFeePercent: number | null; familySlots?: number; giftable?: boolean };
export const CARD_TYPE_RULES: Record<CardType, Rule> = {
  count: { refundFeePercent: 10, maxExtensions: 2, maxExtensionDays: 30 },
  'time-based': { refundFeePercent: 10, maxExtensions: 1, maxExtensionDays: 60 },
  'private-lesson': { refundFeePercent: 10, maxExtensions: 1, maxExtensionDays: 30 },
  restricted: { refundFeePercent: 10, maxExtensions: 1, maxExtensionDays: 30 },
  gift: { refundFeePercent: null, maxExtensions: 0, maxExtensionDays: 0, giftable: true },
  gifted: { refundFeePercent: null, maxExtensions: 0, maxExtensionDays: 0, giftable: true },
  'family-main': { refundFeePercent: 10, maxExtensions: 0, maxExtensionDays: 0, familySlots: 2 },
  'family-sub': { refundFeePercent: null, maxExtensions: 0, maxExtensionDays: 0 },
  equity: { refundFeePercent: null, maxExtensions: 0, maxExtensionDays: 0 },
};

export async function seedCardTypeRules(tx: Tx): Promise<void> {
  await tx
    .insert(cardTypeRules)
    .values(Object.entries(CARD_TYPE_RULES).map(([cardType, rule]) => ({ cardType: cardType as CardType, ...rule })));
}
