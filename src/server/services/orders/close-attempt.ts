import { and, asc, eq, inArray } from 'drizzle-orm';
import { nextAttemptState, OPEN_ATTEMPT_STATES } from '../../../../machines/domain/payment-attempt-transitions';
import { orders, paymentAttempts } from '../../db/schema/index';
import { Errors } from '../../../domain/errors';
import type { Deps } from '../../env';
import { ApiError } from '../../http/api-error';
import { PaymentProviderError } from '../../gateways/payments/types';
import { decide } from '../../db/transaction';
import { latestAttemptOf, type AttemptRow, type OrderRow } from './read';
import { settlePayment } from './settle';
import { move } from './state';

/**
 * Closes an open attempt at its provider so that it can never be paid; `paid` when the close revealed
 * that it was paid meanwhile (then settled paid here, like a notification). A closed attempt that was
 * the order's latest fails the order's payment (`payment.failed` by the chart). Throws while the
 * provider cannot say (a job runs again later; a member's request answers 40006).
 */
export async function closeAttempt(deps: Deps, attempt: AttemptRow): Promise<'closed' | 'paid'> {
  const gateway = deps.gateways.payments[attempt.provider];
  if (!gateway) throw new PaymentProviderError(attempt.provider, 'NOT_CONFIGURED', 'the method is off: its trade cannot be closed');
  const closed = await gateway.close(attempt.outTradeNo);
  if (closed === 'not_closable') {
    // the provider refuses to close: paid (or already closed) meanwhile — only a query tells which
    const answer = await gateway.queryOrder(attempt.outTradeNo);
    if (answer.status !== 'paid' && answer.status !== 'failed') {
      throw new PaymentProviderError(gateway.method, 'CLOSE_REFUSED', `the trade is ${answer.status} but cannot be closed`);
    }
    const outcome = await settlePayment(deps, answer, 'query');
    deps.log.info('close refused; the provider was asked', { outTradeNo: attempt.outTradeNo, outcome });
    if (answer.status === 'paid') return 'paid';
  }
  await markAttemptClosed(deps, attempt);
  return 'closed';
}

/**
 * Records an attempt closed (by the chart, from its state read) and, when it was the order's latest
 * while paying, fails the order's payment. After a close at the provider; or at the expiry when the
 * provider cannot be reached: the trade's time_expire has passed, so it takes nothing more, and what
 * it took before is settled later as money for nothing and refunded (decision 021).
 */
export async function markAttemptClosed(deps: Deps, attempt: AttemptRow): Promise<void> {
  const { db, clock } = deps;
  await decide(db, async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, attempt.orderId)).for('update');
    const [current] = await tx
      .select({ state: paymentAttempts.state })
      .from(paymentAttempts)
      .where(eq(paymentAttempts.id, attempt.id))
      .for('update');
    const closed = current && nextAttemptState(current.state, 'attempt.close');
    if (!closed) return;
    const [row] = await tx
      .update(paymentAttempts)
      .set({ state: closed, closedAt: clock.now() })
      .where(and(eq(paymentAttempts.id, attempt.id), eq(paymentAttempts.state, current.state)))
      .returning();
    if (!order || !row || order.state !== 'paying' || (await latestAttemptOf(tx, row.partId))?.id !== row.id) return;
    await tx
      .update(orders)
      .set({ state: move(order.state, 'payment.failed', 'orderNotPayable') })
      .where(eq(orders.id, order.id));
  });
}

/**
 * Ends the open trades of an order (or of one of its parts) before the order or an invitation ends:
 * each is asked about first, so money the provider took wins (settled like a notification: `paid`);
 * otherwise it is closed there, so it can never be paid afterwards. A provider that cannot say:
 * `unreachable: 'close'` (an expiry: the trade's time_expire has passed, so it takes nothing more, and
 * money it took before is refunded when it tells) records it closed here; `'throw'` (a member's
 * withdrawal before the hour) leaves it open and throws.
 */
export async function endOpenTrades(
  deps: Deps,
  orderId: number,
  opts: { partId?: number; unreachable: 'close' | 'throw' },
): Promise<'paid' | 'ended'> {
  const open = await deps.db
    .select()
    .from(paymentAttempts)
    .where(
      and(
        eq(paymentAttempts.orderId, orderId),
        inArray(paymentAttempts.state, OPEN_ATTEMPT_STATES),
        opts.partId === undefined ? undefined : eq(paymentAttempts.partId, opts.partId),
      ),
    )
    .orderBy(asc(paymentAttempts.seq));
  for (const attempt of open) {
    try {
      const gateway = deps.gateways.payments[attempt.provider];
      if (!gateway)
        throw new PaymentProviderError(attempt.provider, 'NOT_CONFIGURED', 'the method is off: its trade cannot be asked about');
      const answer = await gateway.queryOrder(attempt.outTradeNo);
      if (answer.status === 'paid' || answer.status === 'failed') {
        const outcome = await settlePayment(deps, answer, 'query');
        deps.log.info('an open trade was asked about before its end', { outTradeNo: attempt.outTradeNo, outcome });
        if (outcome === 'paid') return 'paid';
      } else if ((await closeAttempt(deps, attempt)) === 'paid') {
        return 'paid';
      }
    } catch (err) {
      if (!(err instanceof PaymentProviderError) || opts.unreachable === 'throw') throw err;
      deps.log.warn('the provider could not be reached: the trade is closed here', { outTradeNo: attempt.outTradeNo, error: err.message });
      await markAttemptClosed(deps, attempt);
    }
  }
  return 'ended';
}

/**
 * Ends the trades open on an order (or on one part) before the member changes it (a cancel, an
 * unsplit, a withdrawn link): each is asked about first, so money taken meanwhile is applied (and, when
 * the change goes on, given back). 40006 while a provider cannot say; 40018 when a friend's payment
 * went through, 40011 when the member's own did (the order has changed: read it again).
 */
export async function endTradesBeforeChange(deps: Deps, o: OrderRow, partId?: number): Promise<void> {
  const open = await deps.db
    .select({ invitationId: paymentAttempts.invitationId })
    .from(paymentAttempts)
    .where(
      and(
        eq(paymentAttempts.orderId, o.id),
        inArray(paymentAttempts.state, OPEN_ATTEMPT_STATES),
        partId === undefined ? undefined : eq(paymentAttempts.partId, partId),
      ),
    );
  if (open.length === 0) return;
  let ended: 'paid' | 'ended';
  try {
    ended = await endOpenTrades(deps, o.id, { partId, unreachable: 'throw' });
  } catch (err) {
    if (!(err instanceof PaymentProviderError)) throw err;
    throw new ApiError(Errors.paymentProviderFailed);
  }
  if (ended === 'paid') throw new ApiError(open.some((a) => a.invitationId !== null) ? Errors.friendAlreadyActed : Errors.orderAlreadyPaid);
}
