import { eq } from 'drizzle-orm';
import { cardFactsOf, nextCardStatus } from '../../../../machines/domain/card-transitions';
import { extendedValidUntil, extensionRefusal, type ExtensionRule } from '../../../domain/card-rules';
import type { Clock } from '../../../domain/clock';
import type { CardType } from '../../../domain/catalog';
import { Errors } from '../../../domain/errors';
import { shanghaiDate } from '../../../domain/time';
import type { Db, Tx } from '../../db/client';
import { cardExtensions, cardTypeRules } from '../../db/schema/index';
import { ApiError } from '../../http/api-error';
import { decide } from '../../db/transaction';
import { catchUpCard, lockMyCard, writeCard, type CardRow } from './my-card';
import { statusRefusal } from './operations';
import { transferUnfinished } from './transfer-rules';

/** What a card type allows (card_type_rules, seeded); null when the type has no row (never extended). */
export async function extensionRuleOf(db: Db | Tx, cardType: CardType): Promise<ExtensionRule | null> {
  const [rule] = await db.select().from(cardTypeRules).where(eq(cardTypeRules.cardType, cardType));
  return rule ? { maxExtensions: rule.maxExtensions, maxExtensionDays: rule.maxExtensionDays } : null;
}

/**
 * Extends one of my cards to end on `until` (a Shanghai date; spec §5: in use or expired, later than
 * its end): free, within its type's count and length (decision 024). An expired card is in use again;
 * the card's extension count goes up by one.
 */
export async function extendCard(db: Db, clock: Clock, accountId: number, input: { id: number; until: string }): Promise<CardRow> {
  const now = clock.now();
  await catchUpCard(db, now, input.id);
  return decide(db, async (tx) => {
    const card = await lockMyCard(tx, now, accountId, input.id);
    const status = nextCardStatus(card.status, 'card.extend', cardFactsOf(card));
    if (!status) throw new ApiError(Errors[statusRefusal(card.status)]);
    if (await transferUnfinished(tx, card.id)) throw new ApiError(Errors.cardApplicationPending);
    const why = extensionRefusal(card, await extensionRuleOf(tx, card.cardType), input.until, shanghaiDate(now));
    if (why) throw new ApiError(Errors[why], why === 'extensionNotAllowed' || why === 'extensionLimitReached' ? {} : { field: 'until' });
    const validUntil = extendedValidUntil(input.until);
    const row = await writeCard(tx, card, { status, validUntil, extensionCount: card.extensionCount + 1 });
    // the extension as decided, for the card's timeline (decision 034)
    await tx
      .insert(cardExtensions)
      .values({ cardId: card.id, validUntilBefore: card.validUntil, validUntilAfter: validUntil, createdAt: now });
    return row;
  });
}
