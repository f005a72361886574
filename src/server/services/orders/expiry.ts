import { eq } from 'drizzle-orm';
import { PAY_WINDOW_STATES } from '../../../../machines/domain/order-transitions';
import { orders } from '../../db/schema/index';
import type { Deps } from '../../env';
import { decide } from '../../db/transaction';
import { runRefundsNow } from '../refunds/run';
import { cancelLocked } from './cancel';
import { endOpenTrades } from './close-attempt';
import { lockAccount } from './locks';
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
  if ((await endOpenTrades(deps, order.id, { unreachable: 'close' })) === 'paid') return;
  const refundsToRun: number[] = [];
  await decide(db, async (tx) => {
    refundsToRun.length = 0;
    await lockAccount(tx, order.accountId);
    const [o] = await tx.select().from(orders).where(eq(orders.id, order.id)).for('update');
    // a paying order here was paid meanwhile, or a trade is still being settled: not cancelled
    if (o && overdue(o, clock.now())) await cancelLocked(tx, clock, o, refundsToRun);
  });
  await runRefundsNow(deps, refundsToRun);
}
