import { eq } from 'drizzle-orm';
import type { Clock } from '../../../domain/clock';
import type { OrderState } from '../../../domain/orders';
import { ORDER_PAY_WITHIN_MS } from '../../../domain/pricing';
import type { Tx } from '../../db/client';
import { orders } from '../../db/schema/index';
import { enqueueJob } from '../../jobs/queue';
import type { OrderRow } from './read';

/** The job kind that cancels an unpaid order at its expiresAt (decision 008). */
export const ORDER_EXPIRE_JOB = 'order.expire';

/**
 * The order waits for its member's money again (`state`, by the chart) with a new 15-minute pay window
 * and its expiry job: after its friend-pay invitations ended (decision 021).
 */
export async function openPayWindow(tx: Tx, clock: Clock, o: OrderRow, state: OrderState): Promise<OrderRow> {
  const expiresAt = new Date(clock.now().getTime() + ORDER_PAY_WITHIN_MS);
  const [order] = await tx.update(orders).set({ state, expiresAt }).where(eq(orders.id, o.id)).returning();
  await enqueueJob(tx, { kind: ORDER_EXPIRE_JOB, payload: { orderNo: o.orderNo }, runAt: expiresAt });
  return order!;
}
