import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { CARD_REFUND_INITIAL, nextCardRefundState } from '../../../../machines/domain/card-refund-transitions';
import { cardFactsOf, nextCardStatus } from '../../../../machines/domain/card-transitions';
import { canApplyOrder } from '../../../../machines/domain/order-transitions';
import { APPLIED_PAYMENT_STATUSES } from '../../../../machines/domain/payment-transitions';
import { ATTENTION_REFUND_STATES } from '../../../../machines/domain/refund-transitions';
import type { Clock } from '../../../domain/clock';
import { refundQuote, shareRefund, type RefundQuote } from '../../../domain/card-refund';
import { Errors, type ErrorName } from '../../../domain/errors';
import type { CardRefundQuote, MyCardRefund } from '../../../contracts/card-refunds';
import type { Db, Tx } from '../../db/client';
import { cardRefunds, cardTypeRules, memberCards, orders, payments, refunds } from '../../db/schema/index';
import { ApiError } from '../../http/api-error';
import { decide } from '../../db/transaction';
import { backLines, moneyBreakdown, paidRows } from '../orders/breakdown';
import { catchUpCard, lockMyCard, refuseNotMine, type CardRow } from './my-card';
import { familyShareCount } from './holders';
import { statusRefusal } from './operations';
import { bookingsAhead, refundUnfinished, transferOpen } from './transfer-rules';

type CardRefundRow = typeof cardRefunds.$inferSelect;
type OrderRow = typeof orders.$inferSelect;

/** A card's refund as the policy sees it now: the order that bought it and the quote; or why it is refused. */
export type RefundCheck = { why: ErrorName } | { why: null; order: OrderRow; quote: RefundQuote };

/** The money an order's applied payments took, less what was already asked back of them. */
async function paidLeft(db: Db | Tx, orderId: number): Promise<number> {
  const [row] = await db
    .select({
      paid: sql<string>`coalesce(sum(${payments.amountCents}), 0)`,
      back: sql<string>`coalesce((select sum(${refunds.amountCents}) from ${refunds} where ${refunds.paymentId} in (select ${payments.id} from ${payments} where ${payments.orderId} = ${orderId})), 0)`,
    })
    .from(payments)
    .where(and(eq(payments.orderId, orderId), inArray(payments.status, APPLIED_PAYMENT_STATUSES)));
  return Number(row?.paid ?? 0) - Number(row?.back ?? 0);
}

/**
 * Decision 030's refund rules on one card, in the order a member would fix them: the card's status by
 * the chart (`card.refund`), bought by this member in an order the chart lets be refunded (30041), a
 * type ever refunded (30040), no unfinished application other than `except` (30004), no booking or
 * queue place ahead (30043), nobody sharing it (30059, decision 040), something to give back (30042).
 */
export async function refundCheck(db: Db | Tx, card: CardRow, now: Date, except?: number): Promise<RefundCheck> {
  if (!nextCardStatus(card.status, 'card.refund', cardFactsOf(card))) return { why: statusRefusal(card.status) };
  const [order] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.issuedCardId, card.id), eq(orders.accountId, card.accountId)));
  if (!order || card.transferredFromCardId !== null || !canApplyOrder(order.state, 'refund.request')) return { why: 'refundNotBought' };
  const [rule] = await db
    .select({ fee: cardTypeRules.refundFeePercent })
    .from(cardTypeRules)
    .where(eq(cardTypeRules.cardType, card.cardType));
  const quote = refundQuote({ ...card, paidCents: await paidLeft(db, order.id), feePercent: rule?.fee ?? null }, now);
  if (!quote) return { why: 'refundNotAllowed' };
  if ((await transferOpen(db, card.id)) || (await refundUnfinished(db, card.id, except))) return { why: 'cardApplicationPending' };
  if (await bookingsAhead(db, card.id, now)) return { why: 'refundBookingsAhead' };
  // a family main card is refunded once nobody shares it (decision 040)
  if ((await familyShareCount(db, card.id)) > 0) return { why: 'familyShared' };
  if (quote.amountCents <= 0) return { why: 'refundNothingLeft' };
  return { why: null, order, quote };
}

/** Throws the refusal as the API answers it. */
function refuse(why: ErrorName): never {
  throw new ApiError(Errors[why]);
}

/** What the policy gives back for one of my cards now (shown before the member confirms); the refusal's code when it is refused. */
export async function quoteCardRefund(db: Db, clock: Clock, accountId: number, cardId: number): Promise<CardRefundQuote> {
  const now = clock.now();
  await catchUpCard(db, now, cardId);
  const [card] = await db
    .select()
    .from(memberCards)
    .where(and(eq(memberCards.id, cardId), eq(memberCards.accountId, accountId)));
  if (!card) return refuseNotMine(db, accountId, cardId, 'cardId');
  const check = await refundCheck(db, card, now);
  if (check.why) refuse(check.why);
  // shared over the payments as the approval shares it (refund-staff.ts), so the quote names each payer's part
  const paid = await paidRows(db, [check.order.id]);
  const shares = shareRefund(
    check.quote.amountCents,
    paid.map((p) => p.amountCents - p.askedCents),
  );
  return { cardId, ...check.quote, money: await moneyBreakdown(db, check.order), back: backLines(paid, shares) };
}

/**
 * Asks for a refund of one of my cards, the policy agreed to (decision 030): every rule is checked
 * under the member's and the card's locks (the booking decisions' order), the quote stored with the
 * request, which waits for staff.
 */
export async function requestCardRefund(db: Db, clock: Clock, accountId: number, cardId: number): Promise<CardRefundRow> {
  const now = clock.now();
  await catchUpCard(db, now, cardId);
  return decide(db, async (tx) => {
    const card = await lockMyCard(tx, now, accountId, cardId);
    const check = await refundCheck(tx, card, now);
    if (check.why) refuse(check.why);
    const [row] = await tx
      .insert(cardRefunds)
      .values({
        cardId: card.id,
        accountId,
        orderId: check.order.id,
        state: CARD_REFUND_INITIAL,
        quotedCents: check.quote.amountCents,
        createdAt: now,
      })
      .returning();
    return row!;
  });
}

/** Cancels my request while it waits (the chart's `cardRefund.cancel`); another member's is 404. */
export async function cancelCardRefund(db: Db, clock: Clock, accountId: number, id: number): Promise<CardRefundRow> {
  return decide(db, async (tx) => {
    const [r] = await tx
      .select()
      .from(cardRefunds)
      .where(and(eq(cardRefunds.id, id), eq(cardRefunds.accountId, accountId)))
      .for('update');
    if (!r) throw new ApiError(Errors.notFound, { field: 'id' });
    const state = nextCardRefundState(r.state, 'cardRefund.cancel');
    if (!state) throw new ApiError(Errors.cardRefundNotInState);
    const [row] = await tx
      .update(cardRefunds)
      .set({ state, decidedBy: accountId, decidedAt: clock.now() })
      .where(and(eq(cardRefunds.id, r.id), eq(cardRefunds.state, r.state)))
      .returning();
    if (!row) throw new ApiError(Errors.cardRefundNotInState);
    return row;
  });
}

/** A request as its member sees it. */
export async function myCardRefundView(db: Db, r: CardRefundRow): Promise<MyCardRefund> {
  const [o] = await db.select().from(orders).where(eq(orders.id, r.orderId));
  // a refund failed at its provider: the provider's words, for the member (decision 031)
  const [failed] =
    o!.state === 'refund_failed'
      ? await db
          .select({ message: refunds.failureMessage, code: refunds.failureCode })
          .from(refunds)
          .innerJoin(payments, eq(payments.id, refunds.paymentId))
          .where(and(eq(payments.orderId, r.orderId), eq(refunds.cause, 'order_refund'), inArray(refunds.state, ATTENTION_REFUND_STATES)))
          .orderBy(desc(refunds.id))
          .limit(1)
      : [];
  return {
    id: r.id,
    cardId: r.cardId,
    state: r.state,
    quotedCents: r.quotedCents,
    amountCents: r.amountCents,
    reason: r.state === 'rejected' ? r.reason : null,
    orderNo: o!.orderNo,
    orderState: o!.state,
    failure: failed ? (failed.message ?? failed.code) : null,
    createdAt: r.createdAt.toISOString(),
    decidedAt: r.decidedAt?.toISOString() ?? null,
    canCancel: nextCardRefundState(r.state, 'cardRefund.cancel') !== null,
    money: await moneyBreakdown(db, o!),
  };
}

/** My latest request on one of my cards; undefined when there is none. Another member's card is 404. */
export async function myCardRefund(db: Db, accountId: number, cardId: number): Promise<MyCardRefund | undefined> {
  const [card] = await db
    .select({ id: memberCards.id })
    .from(memberCards)
    .where(and(eq(memberCards.id, cardId), eq(memberCards.accountId, accountId)));
  if (!card) throw new ApiError(Errors.notFound, { field: 'cardId' });
  const [r] = await db
    .select()
    .from(cardRefunds)
    .where(and(eq(cardRefunds.cardId, cardId), eq(cardRefunds.accountId, accountId)))
    .orderBy(desc(cardRefunds.id))
    .limit(1);
  return r ? myCardRefundView(db, r) : undefined;
}
