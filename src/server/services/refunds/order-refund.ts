import { eq, inArray } from 'drizzle-orm';
import { nextOrderState, type OrderState } from '../../../../machines/domain/order-transitions';
import type { OrderEvent } from '../../../../machines/domain/order.machine';
import { ATTENTION_REFUND_STATES, IN_FLIGHT_REFUND_STATES, RETURNED_REFUND_STATES } from '../../../../machines/domain/refund-transitions';
import type { Tx } from '../../db/client';
import { orders, payments, refunds } from '../../db/schema/index';
import { voidInvoicesOfOrder } from '../invoices/invoices';

/** The order states whose money is on its way back to the payers, by an order refund (a card refund, decision 030). */
const REFUNDING: readonly OrderState[] = ['refunding', 'refund_failed'];

/** The way by the order chart from the refunding states to where the refunds say the order is. */
const PATH: Record<string, OrderEvent['type'][]> = {
  'refunding>refunded': ['refund.succeeded'],
  'refunding>refund_failed': ['refund.failed'],
  'refund_failed>refunding': ['refund.request'],
  'refund_failed>refunded': ['refund.request', 'refund.succeeded'],
};

/**
 * Moves an order being refunded (a card refund: cause `order_refund`) by its chart to where its
 * refunds are (decision 030): all returned → refunded (refund done); any failed at its provider, and
 * none still on its way → refund failed (listed for staff with the reason); otherwise refunding (a
 * failed one tried again, or another still coming back).
 * Refunded, its issued invoice is voided in the same transaction (decision 044).
 * The caller holds the order's lock; a move of a refund calls it in the same transaction. Returns the
 * order's state after.
 */
export async function syncOrderRefund(tx: Tx, now: Date, orderId: number): Promise<OrderState | null> {
  const [order] = await tx.select({ state: orders.state }).from(orders).where(eq(orders.id, orderId));
  if (!order || !REFUNDING.includes(order.state)) return order?.state ?? null;
  const rows = await tx
    .select({ state: refunds.state, cause: refunds.cause })
    .from(refunds)
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .where(eq(payments.orderId, orderId));
  const mine = rows.filter((r) => r.cause === 'order_refund');
  if (mine.length === 0) return order.state;
  // a failure counts only once no other refund of the order is still on its way (it may yet come back)
  const target: OrderState = mine.every((r) => RETURNED_REFUND_STATES.includes(r.state))
    ? 'refunded'
    : mine.some((r) => ATTENTION_REFUND_STATES.includes(r.state)) && !mine.some((r) => IN_FLIGHT_REFUND_STATES.includes(r.state))
      ? 'refund_failed'
      : 'refunding';
  let state = order.state;
  for (const event of PATH[`${state}>${target}`] ?? []) state = nextOrderState(state, event) ?? state;
  if (state !== order.state) await tx.update(orders).set({ state }).where(eq(orders.id, orderId));
  if (state === 'refunded' && order.state !== 'refunded') await voidInvoicesOfOrder(tx, now, orderId);
  return state;
}

/** The orders of some refunds (to sync after they moved). */
export async function ordersOfRefunds(tx: Tx, refundIds: readonly number[]): Promise<number[]> {
  if (refundIds.length === 0) return [];
  const rows = await tx
    .select({ orderId: payments.orderId })
    .from(refunds)
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .where(inArray(refunds.id, [...refundIds]));
  return [...new Set(rows.map((r) => r.orderId))];
}
