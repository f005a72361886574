import { and, eq } from 'drizzle-orm';
import { CARD_ENDED_STATUSES, cardFactsOf } from '../../../../machines/domain/card-transitions';
import { MAX_FREEZE_DAYS } from '../../../domain/card-rules';
import type { CardDetail } from '../../../contracts/cards';
import type { Db } from '../../db/client';
import { memberCards } from '../../db/schema/index';
import type { Locale } from '../../i18n';
import { myCardDetail } from '../orders/mine';
import { extensionRuleOf } from './extend';
import type { ErrorName } from '../../../domain/errors';
import { offersOf, operationRefusals, statusRefusal, type ManagedOperation } from './operations';
import { familySlotsOf } from './family';
import { giftableType, giftRefusal } from './gift';
import { heldBy } from './holders';
import { adviserOfCard } from './adviser';
import { pendingApplications } from './applications';
import { refundCheck } from './refund';
import { transferRefusal } from './transfer-rules';

/**
 * One of my cards as its page shows it (spec §3 card): the stored card with its history's facts,
 * its freeze (planned or running), and the card-management operations offered now, each with the
 * reason when not (decisions 024, 026: transfer only when an application would be accepted now, its
 * recipient aside; decision 030: refund when a request would be accepted now); the operations list is what is offered. Another member's card is undefined (404).
 */
export async function cardDetail(db: Db, accountId: number, cardId: number, locale: Locale, now: Date): Promise<CardDetail | undefined> {
  const base = await myCardDetail(db, accountId, cardId, locale);
  if (!base) return undefined;
  const [row] = await db
    .select()
    .from(memberCards)
    .where(and(eq(memberCards.id, cardId), heldBy(accountId)));
  const shared = {
    frozenFrom: row!.frozenFrom,
    frozenUntil: row!.frozenUntil,
    freezeMaxDays: MAX_FREEZE_DAYS,
    adviser: await adviserOfCard(db, row!.adviserId, locale),
  };
  if (row!.accountId !== accountId) {
    // a family sub-card holder sees the main card and books with it; only its owner manages it (spec §8 "not owner", decision 040)
    const notOwner = Object.fromEntries(
      (['freeze', 'extend', 'transfer', 'refund', 'changeAdviser'] as const).map((op) => [op, 'cardNotOwner' as const]),
    );
    return { ...base, ...shared, operations: [], offers: offersOf(notOwner, locale), extension: null, application: null };
  }
  const rule = await extensionRuleOf(db, row!.cardType);
  const transfer = await transferRefusal(db, row!, now);
  const refund = await refundCheck(db, row!, now);
  const application = (await pendingApplications(db, [cardId])).get(cardId) ?? null;
  const refusals: Partial<Record<ManagedOperation, ErrorName | null>> = {
    ...operationRefusals(row!, cardFactsOf(row!), rule),
    transfer: transfer?.why ?? null,
    refund: refund.why,
  };
  // an unfinished transfer application: the card is neither frozen nor extended meanwhile (spec §8)
  if (transfer?.why === 'cardApplicationPending')
    for (const op of ['freeze', 'extend', 'changeAdviser'] as const) if (refusals[op] === null) refusals[op] = 'cardApplicationPending';
  // decision 040: a family main card's sharing (its type's data), a giftable card's gift
  if ((await familySlotsOf(db, row!.cardType)) > 0)
    refusals.family = CARD_ENDED_STATUSES.includes(row!.status) ? statusRefusal(row!.status) : null;
  if (await giftableType(db, row!)) refusals.gift = await giftRefusal(db, row!, now);
  return {
    ...base,
    ...shared,
    // while an application waits the card is not activated either: its first booking would be refused
    operations: base.operations.filter(
      (op) => (op !== 'activate' || application === null) && (!(op in refusals) || refusals[op as keyof typeof refusals] === null),
    ),
    application,
    offers: offersOf(refusals, locale, transfer?.values ? { transfer: transfer.values } : {}),
    extension: rule && rule.maxExtensions > 0 ? rule : null,
  };
}
