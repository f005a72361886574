import type { CardType } from '../../../domain/catalog';
import type { Tx } from '../client';
import { cardTypeRules } from '../schema/index';

/**
 * What each card type allows beyond booking (decision 024): count and time cards may be extended a
 * few times by up to a month or two; gift, trial, family and benefits cards may not.
 */
export const CARD_TYPE_RULES: Record<CardType, { maxExtensions: number; maxExtensionDays: number }> = {
  count: { maxExtensions: 2, maxExtensionDays: 30 },
  'time-based': { maxExtensions: 1, maxExtensionDays: 60 },
  'private-lesson': { maxExtensions: 1, maxExtensionDays: 30 },
  restricted: { maxExtensions: 1, maxExtensionDays: 30 },
  gift: { maxExtensions: 0, maxExtensionDays: 0 },
  gifted: { maxExtensions: 0, maxExtensionDays: 0 },
  'family-main': { maxExtensions: 0, maxExtensionDays: 0 },
  'family-sub': { maxExtensions: 0, maxExtensionDays: 0 },
  equity: { maxExtensions: 0, maxExtensionDays: 0 },
};

export async function seedCardTypeRules(tx: Tx): Promise<void> {
  await tx.insert(cardTypeRules).values(Object.entries(CARD_TYPE_RULES).map(([cardType, rule]) => ({ cardType: cardType as CardType, ...rule })));
}
