import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import { OPEN_ATTEMPT_STATES } from '../../../../machines/domain/payment-attempt-transitions';
import { PAYMENT_STATUSES_TO_REFUND } from '../../../../machines/domain/payment-transitions';
import { Errors } from '../../../domain/errors';
import type { Db, Tx } from '../../db/client';
import { openIdBindings, orders, paymentAttempts, payments } from '../../db/schema/index';
import type { PaymentMethod } from '../../gateways/payments/types';
import { ApiError } from '../../http/api-error';

/** Reading orders and their payment attempts: the member's own (another member's is not found), and staff lists. */

export type OrderRow = typeof orders.$inferSelect;
export type AttemptRow = typeof paymentAttempts.$inferSelect;

/** The caller's order by number; another member's is not found. */
export async function myOrder(db: Db | Tx, accountId: number, orderNo: string): Promise<OrderRow> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.orderNo, orderNo), eq(orders.accountId, accountId)));
  if (!row) throw new ApiError(Errors.notFound, { field: 'orderNo' });
  return row;
}

/** My orders in `states` (every state when left out), newest first, a page. */
export async function myOrders(
  db: Db,
  accountId: number,
  pagenum: number,
  pagesize: number,
  states?: readonly OrderRow['state'][],
): Promise<{ list: OrderRow[]; total: number }> {
  const mine = states ? and(eq(orders.accountId, accountId), inArray(orders.state, [...states])) : eq(orders.accountId, accountId);
  const list = await db
    .select()
    .from(orders)
    .where(mine)
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(pagesize)
    .offset(pagenum * pagesize);
  const [t] = await db.select({ n: count() }).from(orders).where(mine);
  return { list, total: t?.n ?? 0 };
}

/** The part's open attempt (at most one per part: decision 013; the parts of a split order pay at the same time, decision 058). */
export async function openAttemptOf(db: Db | Tx, partId: number): Promise<AttemptRow | undefined> {
  const [row] = await db
    .select()
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.partId, partId), inArray(paymentAttempts.state, OPEN_ATTEMPT_STATES)))
    .limit(1);
  return row;
}

/** The part's latest attempt: the one whose failure fails the order's payment (an older one's never does). */
export async function latestAttemptOf(tx: Db | Tx, partId: number): Promise<AttemptRow | undefined> {
  const [row] = await tx
    .select()
    .from(paymentAttempts)
    .where(eq(paymentAttempts.partId, partId))
    .orderBy(desc(paymentAttempts.seq))
    .limit(1);
  return row;
}

/**
 * The member's messaging-app open id, the WeChat Pay payer: bound when a phone login carried the silent
 * authorization's ticket (decision 003). A member bound in more than one messaging-app account pays as
 * the most recently bound. Undefined when none is bound (WeChat Pay is then unavailable: 40012).
 */
export async function payerOpenIdOf(db: Db | Tx, accountId: number): Promise<string | undefined> {
  const [row] = await db
    .select({ openId: openIdBindings.openId })
    .from(openIdBindings)
    .where(eq(openIdBindings.accountId, accountId))
    .orderBy(desc(openIdBindings.createdAt))
    .limit(1);
  return row?.openId;
}

/**
 * The provider the member paid with last (decision 038): their own latest paid provider payment (a
 * friend's payment of their order is the friend's, not theirs); undefined when they never paid by one.
 */
export async function lastPaidProviderOf(db: Db | Tx, accountId: number): Promise<PaymentMethod | undefined> {
  const [row] = await db
    .select({ provider: paymentAttempts.provider })
    .from(payments)
    .innerJoin(paymentAttempts, eq(payments.attemptId, paymentAttempts.id))
    .where(and(eq(paymentAttempts.payerAccountId, accountId), eq(payments.status, 'paid')))
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(1);
  return row?.provider;
}

/** Provider payments flagged for a refund (decision 013), newest first: for staff to refund by hand until refunds are built. */
export async function paymentsToRefund(db: Db) {
  return db
    .select({
      paymentId: payments.id,
      orderNo: orders.orderNo,
      accountId: orders.accountId,
      // a payment to refund is a provider's (a balance payment is never recorded so)
      provider: sql<PaymentMethod>`${payments.provider}`,
      outTradeNo: paymentAttempts.outTradeNo,
      providerTxnId: payments.providerTxnId,
      amountCents: payments.amountCents,
      createdAt: payments.createdAt,
    })
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .leftJoin(paymentAttempts, eq(paymentAttempts.id, payments.attemptId))
    .where(inArray(payments.status, PAYMENT_STATUSES_TO_REFUND))
    .orderBy(desc(payments.id))
    .limit(500);
}
