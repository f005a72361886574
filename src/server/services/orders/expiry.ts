import { and, asc, eq, inArray } from 'drizzle-orm';
import { PAY_WINDOW_STATES } from '../../../../machines/domain/order-transitions';
import { OPEN_ATTEMPT_STATES } from '../../../../machines/domain/payment-attempt-transitions';
import { orders, paymentAttempts } from '../../db/schema/index';
import type { Deps } from '../../env';
import { PaymentProviderError } from '../../gateways/payments/types';
import { decide } from '../booking/decide';
import { runRefundsNow } from '../refunds/run';
import { cancelLocked } from './cancel';
import { closeAttempt, markAttemptClosed } from './close-attempt';
import { lockAccount, ROW } from './locks';
import { settlePayment } from './settle';
import { overdue } from './state';

/**
 * The order-expiry job (decision 008): an order still waiting for money at its expiresAt is
 * cancelled and gives back its stock, coupon and balance. A trade still open at a provider is asked
 * about first, so a payment the provider took wins over the expiry (settled like a notification);
 * otherwise (the member closed the pay sheet, or never opened the cashier) it is closed there, so it
 * can never be paid after the order is cancelled.
 */
export async function runOrderExpiry(deps: Deps, payload: unknown): Promise<void> {
  const p = payload as { orderNo: string };
  const { db, clock } = deps;
  const [order] = await db.select().from(orders).where(eq(orders.orderNo, p.orderNo));
  if (!order || order.expiresAt === null || order.expiresAt.getTime() > clock.now().getTime()) return;
  if (!PAY_WINDOW_STATES.includes(order.state)) return;
  const open = await db
    .select()
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.orderId, order.id), inArray(paymentAttempts.state, OPEN_ATTEMPT_STATES)))
    .orderBy(asc(paymentAttempts.seq));
  for (const attempt of open) {
    try {
      const gateway = deps.gateways.payments[attempt.provider];
      if (!gateway) throw new PaymentProviderError(attempt.provider, 'NOT_CONFIGURED', 'the method is off: its trade cannot be asked about');
      const answer = await gateway.queryOrder(attempt.outTradeNo);
      if (answer.status === 'paid' || answer.status === 'failed') {
        const outcome = await settlePayment(deps, answer, 'query');
        deps.log.info('order expiry asked the provider', { outTradeNo: attempt.outTradeNo, outcome });
        if (outcome === 'paid') return;
      } else if ((await closeAttempt(deps, attempt)) === 'paid') {
        return;
      }
    } catch (err) {
      if (!(err instanceof PaymentProviderError)) throw err;
      // the provider cannot say: the trade's time_expire (the order's expiry) has passed, so it takes
      // nothing more; the order is not kept paying, and money it took before is refunded when it tells
      deps.log.warn('order expiry could not reach the provider: the trade is closed here', { outTradeNo: attempt.outTradeNo, error: err.message });
      await markAttemptClosed(deps, attempt);
    }
  }
  const refundsToRun: number[] = [];
  await decide(db, async (tx) => {
    refundsToRun.length = 0;
    await lockAccount(tx, order.accountId, ROW);
    const [o] = await tx.select().from(orders).where(eq(orders.id, order.id)).for('update');
    // a paying order here was paid meanwhile, or a trade is still being settled: not cancelled
    if (o && overdue(o, clock.now())) await cancelLocked(tx, clock, o, refundsToRun);
  });
  await runRefundsNow(deps, refundsToRun);
}
