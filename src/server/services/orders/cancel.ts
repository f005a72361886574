import { and, eq, inArray, sql } from 'drizzle-orm';
import { nextCouponState } from '../../../../machines/domain/coupon-transitions';
import { EXPIRING_STATES } from '../../../../machines/domain/order-transitions';
import { nextPartState } from '../../../../machines/domain/payment-part-transitions';
import { APPLIED_PAYMENT_STATUSES } from '../../../../machines/domain/payment-transitions';
import { ATTENTION_REFUND_STATES } from '../../../../machines/domain/refund-transitions';
import type { Clock } from '../../../domain/clock';
import { Errors } from '../../../domain/errors';
import { ApiError } from '../../http/api-error';
import type { Tx } from '../../db/client';
import { goods, memberCoupons, orders, payments, refunds } from '../../db/schema/index';
import type { Deps } from '../../env';
import { decide } from '../../db/transaction';
import { requestRefund } from '../refunds/request';
import { runRefundsNow } from '../refunds/run';
import { releaseFlashPlace } from '../flash-sale/flash-sale';
import { lockAccount, lockMyOrder } from './locks';
import { refundedInvitation, withdrawAllInvitations } from './invitation-rows';
import { movePart, partsOf } from './parts';
import { myOrder, type OrderRow } from './read';
import { endTradesBeforeChange } from './close-attempt';
import { mustOffer, offerFacts } from './offer-facts';
import { move, overdue } from './state';

/**
 * Ends an order's parts (decision 021): unpaid ones are dropped; paid ones (the balance deduction
 * among them) are given back, each applied payment refunded to its payer (cause `order_cancelled`,
 * key `cancel:<orderId>`: asked twice, one refund). Provider refunds to run after the commit are
 * added to `refundsToRun`.
 */
async function endParts(tx: Tx, clock: Clock, order: OrderRow, refundsToRun: number[]): Promise<void> {
  for (const part of await partsOf(tx, order.id)) {
    if (!nextPartState(part.state, 'part.end')) continue; // ended already (dropped by a split, given back by an un-split)
    if ((await movePart(tx, clock, part, 'part.end')) !== 'given_back') continue;
    const paid = await tx
      .select()
      .from(payments)
      .where(and(eq(payments.partId, part.id), inArray(payments.status, APPLIED_PAYMENT_STATUSES)));
    for (const payment of paid) {
      const { refund, runAfterCommit } = await requestRefund(
        tx,
        clock,
        payment,
        payment.amountCents,
        'order_cancelled',
        `cancel:${order.id}`,
      );
      if (runAfterCommit) refundsToRun.push(refund.id);
    }
    await refundedInvitation(tx, clock, part.id);
  }
}

/** Gives back what an unpaid order holds: the reserved unit, the coupon (its money comes back by endParts). */
async function releaseHolds(tx: Tx, order: OrderRow): Promise<void> {
  // the sale's row before the goods row, in the order creation takes them (decision 009)
  await releaseFlashPlace(tx, order.goodsId, order.accountId);
  await tx
    .update(goods)
    .set({ stock: sql`case when ${goods.stock} is null then null else ${goods.stock} + 1 end`, sold: sql`${goods.sold} - 1` })
    .where(eq(goods.id, order.goodsId));
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

/**
 * Cancels an order the chart lets be cancelled, under the account and order locks the caller holds:
 * its parts end and its money is refunded (provider refunds to run after the commit are added to
 * `refundsToRun`), its stock, flash-sale place and coupon come back.
 */
export async function cancelLocked(tx: Tx, clock: Clock, order: OrderRow, refundsToRun: number[] = []): Promise<OrderRow> {
  const state = move(order.state, 'order.cancel', 'orderNotCancellable');
  // no friend can pay it any more
  await withdrawAllInvitations(tx, clock, order.id);
  await endParts(tx, clock, order, refundsToRun);
  await releaseHolds(tx, order);
  const [row] = await tx.update(orders).set({ state, cancelledAt: clock.now() }).where(eq(orders.id, order.id)).returning();
  return row!;
}

/** Cancels the member's overdue orders (the expiry job may not have run yet); the caller holds the account lock. */
export async function expireDueOrders(tx: Tx, clock: Clock, accountId: number, refundsToRun: number[] = []): Promise<void> {
  const due = await tx
    .select()
    .from(orders)
    .where(and(eq(orders.accountId, accountId), inArray(orders.state, EXPIRING_STATES)))
    .for('update');
  for (const o of due) if (overdue(o, clock.now())) await cancelLocked(tx, clock, o, refundsToRun);
}

/** Cancels an unpaid (or failed) order: its money is refunded (the balance used at once), the reserved unit and the coupon come back. */
export async function cancelOrder(deps: Deps, accountId: number, orderNo: string): Promise<OrderRow> {
  const current = await myOrder(deps.db, accountId, orderNo);
  // cancelled already, and a refund of it failed at the provider: say so (spec §8; staff retry or settle it)
  if (current.state === 'cancelled' && (await refundFailed(deps, current.id))) throw new ApiError(Errors.refundFailedAfterCancel);
  // what the order offers
  mustOffer(await offerFacts(deps.db, current, deps.clock.now()), 'cancel');
  // a trade open (the whole order's, a part's, a friend's): asked about and closed first (paid meanwhile: refused, read it again)
  await endTradesBeforeChange(deps, current);
  const refundsToRun: number[] = [];
  const order = await decide(deps.db, async (tx) => {
    refundsToRun.length = 0;
    await lockAccount(tx, accountId);
    return cancelLocked(tx, deps.clock, await lockMyOrder(tx, accountId, orderNo), refundsToRun);
  });
  await runRefundsNow(deps, refundsToRun);
  return order;
}

/** Whether a refund of the order's money waits for staff (failed at the provider, or held). */
async function refundFailed(deps: Deps, orderId: number): Promise<boolean> {
  const rows = await deps.db
    .select({ id: refunds.id })
    .from(refunds)
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .where(and(eq(payments.orderId, orderId), inArray(refunds.state, ATTENTION_REFUND_STATES)))
    .limit(1);
  return rows.length > 0;
}
