import { and, eq } from 'drizzle-orm';
import { nextOrderState } from '../../../../machines/domain/order-transitions';
import { nextAttemptState, OPEN_ATTEMPT_STATES, providerAnswerEvent } from '../../../../machines/domain/payment-attempt-transitions';
import { paymentEventOf, recordedPaymentStatus } from '../../../../machines/domain/payment-transitions';
import type { Clock } from '../../../domain/clock';
import type { OrderState } from '../../../domain/orders';
import type { Db, Tx } from '../../db/client';
import { orders, paymentAttempts, paymentParts, payments } from '../../db/schema/index';
import type { Deps } from '../../env';
import type { PaymentMethod, PaymentResult } from '../../gateways/payments/types';
import { enqueueJob } from '../../jobs/queue';
import { decide } from '../booking/decide';
import { issueGoods } from './issue';
import { movePart } from './parts';
import { latestAttempt, type OrderRow } from './read';

/** Settling a payment: a provider's verified result (notification or query) or the balance moves the order to paid. */

/** The job kind of the payment-query fallback, and how long after `paying` it first runs. */
export const PAYMENT_QUERY_JOB = 'payment.query';
export const PAYMENT_QUERY_AFTER_MS = 2 * 60_000;
export const PAYMENT_QUERY_MAX_ATTEMPTS = 10;

/** Moves the order to paid and issues what was bought (src/server/services/orders/issue.ts), once. */
export async function markPaid(tx: Tx, clock: Clock, order: OrderRow, state: OrderState, method: 'balance' | PaymentMethod): Promise<OrderRow> {
  const issued = await issueGoods(tx, clock, order);
  const [row] = await tx
    .update(orders)
    .set({ state, payMethod: method, paidAt: clock.now(), ...issued })
    .where(eq(orders.id, order.id))
    .returning();
  return row!;
}

export type SettleOutcome = 'paid' | 'failed' | 'duplicate' | 'unknown_order' | 'amount_mismatch' | 'needs_refund' | 'ignored';

/**
 * Applies a verified provider result (a notification or the query fallback) in one transaction:
 * the attempt found by the out_trade_no the provider names, the payment row by the provider's txn id
 * (a repeat changes nothing), the amount matched to the order, the order moved by the chart, the goods
 * issued once. A failure fails the order only when it is about the order's latest attempt.
 */
export async function settlePayment(db: Db, clock: Clock, result: PaymentResult, source: 'notify' | 'query'): Promise<SettleOutcome> {
  return decide(db, async (tx) => {
    const [attempt] = await tx
      .select()
      .from(paymentAttempts)
      .where(and(eq(paymentAttempts.outTradeNo, result.orderNo), eq(paymentAttempts.provider, result.provider)));
    if (!attempt) return 'unknown_order';
    const [order] = await tx.select().from(orders).where(eq(orders.id, attempt.orderId)).for('update');
    if (!order) return 'unknown_order';
    const [part] = await tx.select().from(paymentParts).where(eq(paymentParts.id, attempt.partId)).for('update');
    if (!part) return 'unknown_order';
    const latest = await latestAttempt(tx, order.id);
    const amountOk = result.amountCents === part.amountCents;
    const next =
      result.status === 'paid'
        ? nextOrderState(order.state, 'payment.succeeded')
        : latest?.id === attempt.id
          ? nextOrderState(order.state, 'payment.failed')
          : null;
    // money taken for an order already paid (another attempt, balance) or over: kept for a refund by staff
    const status = recordedPaymentStatus(paymentEventOf({ providerStatus: result.status, amountMatches: amountOk, orderAccepts: next !== null }));
    if (!status) return 'ignored';
    const inserted = await tx
      .insert(payments)
      .values({
        orderId: order.id,
        partId: part.id,
        attemptId: attempt.id,
        provider: result.provider,
        providerTxnId: result.providerTxnId,
        amountCents: result.amountCents,
        status,
        source,
        raw: { ...result, paidAt: result.paidAt?.toISOString() ?? null },
        createdAt: clock.now(),
      })
      .onConflictDoNothing()
      .returning({ id: payments.id });
    if (inserted.length === 0) return 'duplicate';
    if (!amountOk) return 'amount_mismatch';
    // what the provider said about this trade, whatever it does to the order
    const attemptNext = nextAttemptState(attempt.state, providerAnswerEvent(result.status));
    if (attemptNext) {
      await tx
        .update(paymentAttempts)
        .set({ state: attemptNext, closedAt: clock.now() })
        .where(and(eq(paymentAttempts.id, attempt.id), eq(paymentAttempts.state, attempt.state)));
    }
    if (!next) return result.status === 'paid' ? 'needs_refund' : 'ignored';
    if (result.status === 'paid') {
      await movePart(tx, clock, part, 'part.paid');
      await markPaid(tx, clock, order, next, result.provider);
      return 'paid';
    }
    await tx.update(orders).set({ state: next }).where(eq(orders.id, order.id));
    return 'failed';
  });
}

/** The payment-query fallback (a job): asks the provider about an open attempt and settles like a notification. */
export async function runPaymentQuery(deps: Deps, payload: unknown): Promise<void> {
  // jobs queued before attempts existed name the order number, which was then the out_trade_no
  const p = payload as { outTradeNo?: string; orderNo?: string; provider: PaymentMethod; attempt?: number };
  const outTradeNo = p.outTradeNo ?? p.orderNo ?? '';
  const [attempt] = await deps.db.select().from(paymentAttempts).where(eq(paymentAttempts.outTradeNo, outTradeNo));
  if (!attempt || !OPEN_ATTEMPT_STATES.includes(attempt.state)) return;
  const gateway = deps.gateways.payments[attempt.provider];
  if (!gateway) return;
  const answer = await gateway.queryOrder(outTradeNo);
  if (answer.status === 'paid' || answer.status === 'failed') {
    const outcome = await settlePayment(deps.db, deps.clock, answer, 'query');
    deps.log.info('payment query settled', { outTradeNo, outcome });
    return;
  }
  const tries = (p.attempt ?? 1) + 1;
  if (tries <= PAYMENT_QUERY_MAX_ATTEMPTS) {
    await enqueueJob(deps.db, { kind: PAYMENT_QUERY_JOB, payload: { outTradeNo, provider: attempt.provider, attempt: tries }, runAt: new Date(deps.clock.now().getTime() + PAYMENT_QUERY_AFTER_MS) });
  }
}
