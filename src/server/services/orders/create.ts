import { and, eq, inArray, sql } from 'drizzle-orm';
import { nextCouponState } from '../../../../machines/domain/coupon-transitions';
import { AWAITING_MONEY_STATES } from '../../../../machines/domain/order-transitions';
import type { Clock } from '../../../domain/clock';
import { Errors } from '../../../domain/errors';
import { ORDER_PAY_WITHIN_MS } from '../../../domain/pricing';
import type { Db } from '../../db/client';
import { goods, memberCoupons, orders } from '../../db/schema/index';
import { ApiError } from '../../http/api-error';
import { enqueueJob } from '../../jobs/queue';
import { decide } from '../../db/transaction';
import { checkFlashSale, saleFilledUp, takeFlashPlace } from '../flash-sale/flash-sale';
import { balanceOf, payPartByBalance } from './balance';
import { expireDueOrders } from './cancel';
import { priceCheckout, type CheckoutInput } from './checkout';
import { ORDER_EXPIRE_JOB } from './pay-window';
import { lockAccount } from './locks';
import { insertPart } from './parts';
import type { OrderRow } from './read';

function newOrderNo(now: Date, id: number): string {
  const d = now
    .toISOString()
    .replace(/[-:TZ.]/g, '')
    .slice(0, 14);
  return `O${d}${String(id).padStart(8, '0')}`;
}

export type CreateOrderInput = CheckoutInput & {
  /** the member accepted the purchase agreement: required, and its time is kept on the order */
  agreementAccepted?: boolean;
};

/**
 * Creates an order, priced on the server (src/server/services/orders/checkout.ts); reserves one unit
 * of stock, uses the coupon, pays the balance used as the order's deduction part (a ledger row and
 * its payment), makes the one share left to pay, and schedules its expiry.
 */
export async function createOrder(db: Db, clock: Clock, accountId: number, input: CreateOrderInput): Promise<OrderRow> {
  if (!input.goodsId) throw new ApiError(Errors.goodsNotChosen, { field: 'goodsId' });
  if (input.agreementAccepted !== true)
    throw new ApiError(Errors.invalidField, { field: 'agreementAccepted', values: { field: 'agreementAccepted' } });
  // a sold-out flash sale refuses here, without a transaction (decision 009)
  const flash = await checkFlashSale(db, input.goodsId, clock.now());
  let filled = false;
  const order = await decide(db, async (tx) => {
    filled = false;
    const now = clock.now();
    await lockAccount(tx, accountId);
    await expireDueOrders(tx, clock, accountId);
    const open = await tx
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.accountId, accountId), inArray(orders.state, AWAITING_MONEY_STATES)))
      .limit(1);
    if (open.length > 0) throw new ApiError(Errors.unpaidOrderExists);
    // flash-sale goods have no stock: the sale's row counts them, last (decision 009), so no goods lock here
    const {
      goods: g,
      phase,
      teacherId,
      coupon,
      quote,
    } = await priceCheckout(tx, clock, accountId, input, await balanceOf(tx, accountId), { lock: !flash });
    // the member confirms what they saw; the server's price stands, so a difference asks them again
    if (input.expectedAmountToPayCents !== undefined && input.expectedAmountToPayCents !== quote.amountToPayCents)
      throw new ApiError(Errors.priceChanged);
    if (g.stock !== null) {
      await tx
        .update(goods)
        .set({ stock: sql`${goods.stock} - 1`, sold: sql`${goods.sold} + 1` })
        .where(eq(goods.id, g.id));
    } else if (!flash) {
      await tx
        .update(goods)
        .set({ sold: sql`${goods.sold} + 1` })
        .where(eq(goods.id, g.id));
    }
    const [row] = await tx
      .insert(orders)
      .values({
        orderNo: `TMP${accountId}-${now.getTime()}-${Math.random().toString(36).slice(2)}`,
        accountId,
        goodsId: g.id,
        quantity: 1,
        listPriceCents: quote.listPriceCents,
        memberPriceCents: quote.memberPriceCents,
        priceCents: quote.priceCents,
        couponDeductionCents: quote.couponDeductionCents,
        balanceUsedCents: quote.balanceUsedCents,
        amountToPayCents: quote.amountToPayCents,
        phaseId: phase?.id ?? null,
        teacherId,
        couponId: coupon?.id ?? null,
        state: 'unpaid',
        createdAt: now,
        expiresAt: new Date(now.getTime() + ORDER_PAY_WITHIN_MS),
        agreementAcceptedAt: now,
      })
      .returning();
    const orderNo = newOrderNo(now, row!.id);
    const [order] = await tx.update(orders).set({ orderNo }).where(eq(orders.id, row!.id)).returning();
    if (coupon) {
      const used = nextCouponState(coupon.state, 'coupon.use');
      if (!used) throw new ApiError(Errors.couponNotUsable, { field: 'couponId' });
      const [taken] = await tx
        .update(memberCoupons)
        .set({ state: used, usedOrderId: row!.id, usedAt: now })
        .where(and(eq(memberCoupons.id, coupon.id), eq(memberCoupons.state, coupon.state)))
        .returning({ id: memberCoupons.id });
      if (!taken) throw new ApiError(Errors.couponNotUsable, { field: 'couponId' });
    }
    // the money's parts (decision 021): the balance used is paid at once, the rest is one share to pay
    if (quote.balanceUsedCents > 0)
      await payPartByBalance(tx, clock, accountId, await insertPart(tx, clock, row!.id, 'deduction', quote.balanceUsedCents), 'order');
    if (quote.amountToPayCents > 0) await insertPart(tx, clock, row!.id, 'share', quote.amountToPayCents);
    await enqueueJob(tx, { kind: ORDER_EXPIRE_JOB, payload: { orderNo }, runAt: order!.expiresAt! });
    // the last statements: the sale's row (and the goods' sold count) stay locked only for the commit
    if (flash) filled = (await takeFlashPlace(tx, flash, accountId, now)).last;
    return order!;
  }).catch((err: unknown) => {
    // lost the last place: the database said the sale is sold out, so this process remembers it (decision 049)
    if (flash && err instanceof ApiError && err.def === Errors.flashSaleTooSlow) saleFilledUp(db, flash);
    throw err;
  });
  // took the last place, committed: the crowd behind is refused from memory
  if (flash && filled) saleFilledUp(db, flash);
  return order;
}
