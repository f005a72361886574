import { and, eq } from 'drizzle-orm';
import { nextOrderState } from '../../../../machines/domain/order-transitions';
import { nextAttemptState, OPEN_ATTEMPT_STATES, providerAnswerEvent } from '../../../../machines/domain/payment-attempt-transitions';
import { OUTSTANDING_PART_STATES } from '../../../../machines/domain/payment-part-transitions';
import { PAYMENT_STATUSES_TO_REFUND, paymentEventOf, recordedPaymentStatus } from '../../../../machines/domain/payment-transitions';
import type { Clock } from '../../../domain/clock';
import type { OrderState } from '../../../domain/orders';
import type { Tx } from '../../db/client';
import { orders, paymentAttempts, paymentParts, payments } from '../../db/schema/index';
import type { Deps } from '../../env';
import { PaymentProviderError, type PaymentMethod, type PaymentResult } from '../../gateways/payments/types';
import { enqueueJob } from '../../jobs/queue';
import { decide } from '../../db/transaction';
import { requestRefund } from '../refunds/request';
import { runRefundsNow } from '../refunds/run';
import { issueGoods } from './issue';
import { movePart, partPaidEventOf, type PartRow } from './parts';
import { moveInvitation, openInvitations } from './invitation-rows';
import { noticeFriendPaid } from './friend-notices';
import { openPayWindow } from './pay-window';
import { latestAttemptOf, type AttemptRow, type OrderRow } from './read';

/** Settling a payment: a provider's verified result (notification or query) or the balance moves the order to paid. */

/** The job kind of the payment-query fallback, and how long after `paying` it first runs. */
export const PAYMENT_QUERY_JOB = 'payment.query';
export const PAYMENT_QUERY_AFTER_MS = 2 * 60_000;
export const PAYMENT_QUERY_MAX_ATTEMPTS = 10;

/** Moves the order to paid and issues what was bought (src/server/services/orders/issue.ts), once. */
export async function markPaid(
  tx: Tx,
  clock: Clock,
  order: OrderRow,
  state: OrderState,
  method: 'balance' | PaymentMethod | null,
): Promise<OrderRow> {
  const issued = await issueGoods(tx, clock, order);
  const [row] = await tx
    .update(orders)
    .set({ state, payMethod: method, paidAt: clock.now(), ...issued })
    .where(eq(orders.id, order.id))
    .returning();
  return row!;
}

export type SettleOutcome =
  | 'paid'
  | 'failed'
  | 'duplicate'
  | 'unknown_order'
  | 'amount_mismatch'
  | 'needs_refund'
  | 'ignored'
  | 'ask_later';

type Answer = PaymentResult & { source: 'notify' | 'query' };

/**
 * Applies a verified provider result (a notification or a query answer): every answer ends applied
 * to its part or recorded and refunded to its payer (decision 021). A notification whose amount is not
 * its part's records nothing: the provider is asked at once and its answer settled instead (it cannot
 * answer: `ask_later`, the notification is refused so it is sent again, and the query job asks).
 * Provider refunds the settlement asked for run after its commit.
 */
export async function settlePayment(deps: Deps, result: PaymentResult, source: 'notify' | 'query'): Promise<SettleOutcome> {
  const refundsToRun: number[] = [];
  const outcome = await decide(deps.db, async (tx) => {
    refundsToRun.length = 0;
    return settleLocked(tx, deps.clock, { ...result, source }, refundsToRun);
  });
  await runRefundsNow(deps, refundsToRun);
  if (outcome !== 'ask_later') return outcome;
  const gateway = deps.gateways.payments[result.provider];
  const later = () =>
    enqueueJob(deps.db, {
      kind: PAYMENT_QUERY_JOB,
      payload: { outTradeNo: result.orderNo, provider: result.provider, attempt: 1 },
      runAt: new Date(deps.clock.now().getTime() + PAYMENT_QUERY_AFTER_MS),
    });
  try {
    const answer = gateway ? await gateway.queryOrder(result.orderNo) : undefined;
    if (answer && (answer.status === 'paid' || answer.status === 'failed')) return settlePayment(deps, answer, 'query');
  } catch (err) {
    if (!(err instanceof PaymentProviderError)) throw err;
    deps.log.warn('a notification with another amount: the provider cannot be asked now', {
      outTradeNo: result.orderNo,
      error: err.message,
    });
  }
  await later();
  return 'ask_later';
}

/**
 * One provider answer in one transaction: the attempt by the out_trade_no, the order locked, then
 * the part. A transaction already recorded records nothing, yet an attempt still open moves by it
 * and the order settles (no trade stays open). Otherwise the payment is recorded by the payment
 * chart: applied to an unpaid part of an order that takes it (the goods issued once), or, for a wrong
 * amount (a query's) or money the part or order cannot take, recorded and refunded in full.
 */
async function settleLocked(tx: Tx, clock: Clock, result: Answer, refundsToRun: number[]): Promise<SettleOutcome> {
  const [attempt] = await tx
    .select()
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.outTradeNo, result.orderNo), eq(paymentAttempts.provider, result.provider)));
  if (!attempt) return 'unknown_order';
  const [order] = await tx.select().from(orders).where(eq(orders.id, attempt.orderId)).for('update');
  if (!order) return 'unknown_order';
  const [part] = await tx.select().from(paymentParts).where(eq(paymentParts.id, attempt.partId)).for('update');
  if (!part) return 'unknown_order';
  const [a] = await tx.select().from(paymentAttempts).where(eq(paymentAttempts.id, attempt.id)).for('update');
  const latest = await latestAttemptOf(tx, part.id);
  const isLatest = latest?.id === a!.id;
  const amountOk = result.amountCents === part.amountCents;
  if (!amountOk && result.source === 'notify') return 'ask_later';
  const recorded =
    result.providerTxnId === null
      ? []
      : await tx
          .select({ id: payments.id })
          .from(payments)
          .where(and(eq(payments.provider, result.provider), eq(payments.providerTxnId, result.providerTxnId)));
  if (recorded.length > 0) {
    await endOpenAttempt(tx, clock, order, part, a!, result.status, isLatest);
    return 'duplicate';
  }
  // a friend's trade (an open id, no account of ours) pays its part only while the part's invitation is open
  const byFriend = a!.invitationId !== null;
  const invitation = byFriend ? (await openInvitations(tx, order.id)).find((i) => i.id === a!.invitationId) : undefined;
  // the order chart's event if this pays the part: more to pay, the last part (a friend's, a split order's), or the whole order
  const paidEvent = await partPaidEventOf(tx, order.id, part, byFriend);
  const takes =
    OUTSTANDING_PART_STATES.includes(part.state) &&
    (!byFriend || invitation !== undefined) &&
    nextOrderState(order.state, paidEvent) !== null;
  const orderAccepts = result.status === 'paid' ? takes : isLatest && nextOrderState(order.state, 'payment.failed') !== null;
  const status = recordedPaymentStatus(paymentEventOf({ providerStatus: result.status, amountMatches: amountOk, orderAccepts }));
  if (!status) return 'ignored';
  const { source, ...raw } = result;
  const [payment] = await tx
    .insert(payments)
    .values({
      orderId: order.id,
      partId: part.id,
      attemptId: a!.id,
      provider: result.provider,
      providerTxnId: result.providerTxnId,
      amountCents: result.amountCents,
      status,
      source,
      raw: { ...raw, paidAt: result.paidAt?.toISOString() ?? null },
      createdAt: clock.now(),
    })
    .onConflictDoNothing()
    .returning();
  if (!payment) return 'duplicate';
  // what the provider said about this trade, whatever it does to the order
  const attemptNext = nextAttemptState(a!.state, providerAnswerEvent(result.status));
  if (attemptNext) {
    await tx
      .update(paymentAttempts)
      .set({ state: attemptNext, closedAt: clock.now() })
      .where(and(eq(paymentAttempts.id, a!.id), eq(paymentAttempts.state, a!.state)));
  }
  if (PAYMENT_STATUSES_TO_REFUND.includes(status)) {
    if (payment.amountCents > 0) {
      const { refund, runAfterCommit } = await requestRefund(
        tx,
        clock,
        payment,
        payment.amountCents,
        status === 'mismatch' ? 'amount_mismatch' : 'unwanted_payment',
        `unwanted:${payment.id}`,
      );
      if (runAfterCommit) refundsToRun.push(refund.id);
    }
    // a wrong amount ends its trade: the order waiting on it may be paid again (and its expiry can end it)
    if (status === 'mismatch') await failIfWaitingOn(tx, order, part, isLatest);
    return status === 'mismatch' ? 'amount_mismatch' : 'needs_refund';
  }
  if (status === 'paid') {
    await movePart(tx, clock, part, 'part.paid');
    if (invitation) {
      await moveInvitation(tx, clock, invitation, 'invitation.paid');
      // the member hears it once: a repeated notification is a duplicate above, and the move is guarded
      await noticeFriendPaid(tx, order.accountId, clock.now(), {
        goodsId: order.goodsId,
        orderNo: order.orderNo,
        amountCents: part.amountCents,
        friendName: a!.payerNickname,
      });
    }
    const next = nextOrderState(order.state, paidEvent)!;
    if (paidEvent !== 'part.paid') await markPaid(tx, clock, order, next, paidEvent === 'payment.succeeded' ? result.provider : null);
    // a friend paid the last open invitation's part and more is owed: the order waits for its member again
    else if (next === 'friend_paying' && (await openInvitations(tx, order.id)).length === 0)
      await openPayWindow(tx, clock, order, nextOrderState(next, 'invitation.ended')!);
    else await tx.update(orders).set({ state: next }).where(eq(orders.id, order.id));
    return 'paid';
  }
  if (!orderAccepts) return 'ignored';
  await tx
    .update(orders)
    .set({ state: nextOrderState(order.state, 'payment.failed')! })
    .where(eq(orders.id, order.id));
  return 'failed';
}

/** The order waits on this trade (paying, its latest attempt, the part unpaid): its payment failed, so it is payable again. */
async function failIfWaitingOn(tx: Tx, order: OrderRow, part: PartRow, isLatest: boolean): Promise<void> {
  const failed = nextOrderState(order.state, 'payment.failed');
  if (!failed || !isLatest || order.state !== 'paying' || !OUTSTANDING_PART_STATES.includes(part.state)) return;
  await tx
    .update(orders)
    .set({ state: failed })
    .where(and(eq(orders.id, order.id), eq(orders.state, order.state)));
}

/** A repeat of a recorded transaction: an attempt still open moves by it (the trade is final) and the order settles. */
async function endOpenAttempt(
  tx: Tx,
  clock: Clock,
  order: OrderRow,
  part: PartRow,
  attempt: AttemptRow,
  status: 'paid' | 'failed',
  isLatest: boolean,
): Promise<void> {
  if (!OPEN_ATTEMPT_STATES.includes(attempt.state)) return;
  const next = nextAttemptState(attempt.state, providerAnswerEvent(status));
  if (!next) return;
  await tx
    .update(paymentAttempts)
    .set({ state: next, closedAt: clock.now() })
    .where(and(eq(paymentAttempts.id, attempt.id), eq(paymentAttempts.state, attempt.state)));
  await failIfWaitingOn(tx, order, part, isLatest);
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
    const outcome = await settlePayment(deps, answer, 'query');
    deps.log.info('payment query settled', { outTradeNo, outcome });
    return;
  }
  const tries = (p.attempt ?? 1) + 1;
  if (tries <= PAYMENT_QUERY_MAX_ATTEMPTS) {
    await enqueueJob(deps.db, {
      kind: PAYMENT_QUERY_JOB,
      payload: { outTradeNo, provider: attempt.provider, attempt: tries },
      runAt: new Date(deps.clock.now().getTime() + PAYMENT_QUERY_AFTER_MS),
    });
  }
}
