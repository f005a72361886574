import { and, eq } from 'drizzle-orm';
import { nextAttemptState } from '../../../../machines/domain/payment-attempt-transitions';
import { orders, paymentAttempts } from '../../db/schema/index';
import type { Deps } from '../../env';
import { PaymentProviderError } from '../../gateways/payments/types';
import { decide } from '../booking/decide';
import { latestAttempt, type AttemptRow } from './read';
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
    const [current] = await tx.select({ state: paymentAttempts.state }).from(paymentAttempts).where(eq(paymentAttempts.id, attempt.id)).for('update');
    const closed = current && nextAttemptState(current.state, 'attempt.close');
    if (!closed) return;
    const [row] = await tx
      .update(paymentAttempts)
      .set({ state: closed, closedAt: clock.now() })
      .where(and(eq(paymentAttempts.id, attempt.id), eq(paymentAttempts.state, current.state)))
      .returning();
    if (!order || !row || order.state !== 'paying' || (await latestAttempt(tx, order.id))?.id !== row.id) return;
    await tx.update(orders).set({ state: move(order.state, 'payment.failed', 'orderNotPayable') }).where(eq(orders.id, order.id));
  });
}
