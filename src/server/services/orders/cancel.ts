import { and, eq, inArray, sql } from 'drizzle-orm';
import { nextCouponState } from '../../../../machines/domain/coupon-transitions';
import { EXPIRING_STATES } from '../../../../machines/domain/order-transitions';
import type { Clock } from '../../../domain/clock';
import type { Db, Tx } from '../../db/client';
import { goods, memberCoupons, orders } from '../../db/schema/index';
import { decide } from '../booking/decide';
import { releaseFlashPlace } from '../flash-sale/flash-sale';
import { changeBalance } from './balance';
import { lockAccount, lockMyOrder, ROW } from './locks';
import type { OrderRow } from './read';
import { move, overdue } from './state';

/** Gives back what an unpaid order holds: the balance used, the reserved unit, the coupon. */
async function releaseHolds(tx: Tx, clock: Clock, order: OrderRow): Promise<void> {
  await changeBalance(tx, clock, order.accountId, order.balanceUsedCents, 'cancel', order.id);
  // the sale's row before the goods row, in the order creation takes them (decision 009)
  await releaseFlashPlace(tx, order.goodsId, order.accountId);
  await tx.update(goods).set({ stock: sql`case when ${goods.stock} is null then null else ${goods.stock} + 1 end`, sold: sql`${goods.sold} - 1` }).where(eq(goods.id, order.goodsId));
  if (order.couponId !== null) {
    const [coupon] = await tx
      .select({ state: memberCoupons.state })
      .from(memberCoupons)
      .where(and(eq(memberCoupons.id, order.couponId), eq(memberCoupons.usedOrderId, order.id)))
      .for('update');
    const released = coupon && nextCouponState(coupon.state, 'coupon.release');
    if (released) {
      await tx
        .update(memberCoupons)
        .set({ state: released, usedOrderId: null, usedAt: null })
        .where(and(eq(memberCoupons.id, order.couponId), eq(memberCoupons.usedOrderId, order.id)));
    }
  }
}

/** Cancels an order the chart lets be cancelled, under the account lock the caller holds. */
export async function cancelLocked(tx: Tx, clock: Clock, order: OrderRow): Promise<OrderRow> {
  const state = move(order.state, 'order.cancel', 'orderNotCancellable');
  await releaseHolds(tx, clock, order);
  const [row] = await tx.update(orders).set({ state, cancelledAt: clock.now() }).where(eq(orders.id, order.id)).returning();
  return row!;
}

/** Cancels the member's overdue orders (the expiry job may not have run yet); the caller holds the account lock. */
export async function expireDueOrders(tx: Tx, clock: Clock, accountId: number): Promise<void> {
  const due = await tx
    .select()
    .from(orders)
    .where(and(eq(orders.accountId, accountId), inArray(orders.state, EXPIRING_STATES)))
    .for('update');
  for (const o of due) if (overdue(o, clock.now())) await cancelLocked(tx, clock, o);
}

/** Cancels an unpaid (or failed) order: the balance used, the reserved unit and the coupon come back. */
export async function cancelOrder(db: Db, clock: Clock, accountId: number, orderNo: string): Promise<OrderRow> {
  return decide(db, async (tx) => {
    await lockAccount(tx, accountId, ROW);
    return cancelLocked(tx, clock, await lockMyOrder(tx, accountId, orderNo));
  });
}
