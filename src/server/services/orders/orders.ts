import { and, asc, count, desc, eq, inArray, isNull, max, sql } from 'drizzle-orm';
import { nextCouponState } from '../../../../machines/domain/coupon-transitions';
import { AWAITING_MONEY_STATES, EXPIRING_STATES, nextOrderState, PAY_WINDOW_STATES } from '../../../../machines/domain/order-transitions';
import { nextAttemptState, OPEN_ATTEMPT_STATES, PAYMENT_ATTEMPT_INITIAL, providerAnswerEvent } from '../../../../machines/domain/payment-attempt-transitions';
import { PAYMENT_STATUSES_TO_REFUND, paymentEventOf, recordedPaymentStatus } from '../../../../machines/domain/payment-transitions';
import type { OrderEvent } from '../../../../machines/domain/order.machine';
import type { Clock } from '../../../domain/clock';
import { Errors } from '../../../domain/errors';
import type { OrderState } from '../../../domain/orders';
import { ORDER_PAY_WITHIN_MS } from '../../../domain/pricing';
import type { Db, Tx } from '../../db/client';
import { accounts, balanceLedger, goods, memberCoupons, openIdBindings, orders, paymentAttempts, payments } from '../../db/schema/index';
import type { Deps } from '../../env';
import { PaymentProviderError, type PaymentMethod, type PaymentResult, type PaymentStart } from '../../gateways/payments/types';
import { ApiError } from '../../http/api-error';
import { enqueueJob } from '../../jobs/queue';
import { decide } from '../booking/decide';
import { checkFlashSale, releaseFlashPlace, takeFlashPlace } from '../flash-sale/flash-sale';
import { priceCheckout, type CheckoutInput } from './checkout';
import { issueGoods } from './issue';

/**
 * Buying (issue 4). Every change of money or stock is one transaction that first locks the buyer's
 * account row (so one member's balance and orders change one at a time), then the goods row (so
 * stock never goes below zero). Order states only move by the chart (machines/domain/order.machine.ts).
 * A unit of stock is reserved when the order is created and given back when it is cancelled.
 */

export type OrderRow = typeof orders.$inferSelect;

/** The job kind of the payment-query fallback, and how long after `paying` it first runs. */
export const PAYMENT_QUERY_JOB = 'payment.query';
export const PAYMENT_QUERY_AFTER_MS = 2 * 60_000;
export const PAYMENT_QUERY_MAX_ATTEMPTS = 10;


/** Lock modes: 'none' only for the race tests' negative control. */
export interface LockOptions {
  lock: 'row' | 'none';
}
const ROW: LockOptions = { lock: 'row' };

function move(state: OrderState, event: OrderEvent['type'], refusal: keyof typeof Errors): OrderState {
  const next = nextOrderState(state, event);
  if (!next) throw new ApiError(Errors[refusal]);
  return next;
}

async function lockAccount(tx: Tx, accountId: number, opts: LockOptions): Promise<void> {
  if (opts.lock === 'row') await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).for('no key update');
}

/** The balance: the sum of the ledger. */
export async function balanceOf(db: Db | Tx, accountId: number): Promise<number> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${balanceLedger.changeCents}), 0)` })
    .from(balanceLedger)
    .where(eq(balanceLedger.accountId, accountId));
  return Number(row?.total ?? 0);
}

/** Adds a ledger row under the account lock the caller holds; refuses to go below zero. */
async function changeBalance(tx: Tx, clock: Clock, accountId: number, changeCents: number, reason: string, orderId: number | null): Promise<void> {
  if (changeCents === 0) return;
  if (changeCents < 0 && (await balanceOf(tx, accountId)) + changeCents < 0) throw new ApiError(Errors.balanceNotEnough);
  await tx.insert(balanceLedger).values({ accountId, changeCents, reason, orderId, createdAt: clock.now() });
}

/** A top-up or grant (staff work and tests). */
export async function creditBalance(db: Db, clock: Clock, accountId: number, cents: number, reason = 'topup'): Promise<void> {
  await decide(db, async (tx) => {
    await lockAccount(tx, accountId, ROW);
    await changeBalance(tx, clock, accountId, cents, reason, null);
  });
}

function newOrderNo(now: Date, id: number): string {
  const d = now.toISOString().replace(/[-:TZ.]/g, '').slice(0, 14);
  return `O${d}${String(id).padStart(8, '0')}`;
}

export type CreateOrderInput = CheckoutInput & {
  /** the member accepted the purchase agreement: required, and its time is kept on the order */
  agreementAccepted?: boolean;
};

/** The job kind that cancels an unpaid order at its expiresAt (decision 008). */
export const ORDER_EXPIRE_JOB = 'order.expire';

/**
 * Creates an order, priced on the server (src/server/services/orders/checkout.ts); reserves one unit
 * of stock, uses the coupon and holds the balance used (a ledger row), and schedules its expiry.
 */
export async function createOrder(db: Db, clock: Clock, accountId: number, input: CreateOrderInput, opts: LockOptions = ROW): Promise<OrderRow> {
  if (!input.goodsId) throw new ApiError(Errors.goodsNotChosen, { field: 'goodsId' });
  if (input.agreementAccepted !== true) throw new ApiError(Errors.invalidField, { field: 'agreementAccepted', values: { field: 'agreementAccepted' } });
  // a sold-out flash sale refuses here, without a transaction (decision 009)
  const flash = await checkFlashSale(db, input.goodsId, clock.now());
  return decide(db, async (tx) => {
    const now = clock.now();
    await lockAccount(tx, accountId, opts);
    await expireDueOrders(tx, clock, accountId);
    const open = await tx
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.accountId, accountId), inArray(orders.state, AWAITING_MONEY_STATES)))
      .limit(1);
    if (open.length > 0) throw new ApiError(Errors.unpaidOrderExists);
    // flash-sale goods have no stock: the sale's row counts them, last (decision 009), so no goods lock here
    const { goods: g, phase, teacherId, coupon, quote } = await priceCheckout(tx, clock, accountId, input, await balanceOf(tx, accountId), { lock: opts.lock === 'row' && !flash });
    // the member confirms what they saw; the server's price stands, so a difference asks them again
    if (input.expectedAmountToPayCents !== undefined && input.expectedAmountToPayCents !== quote.amountToPayCents) throw new ApiError(Errors.priceChanged);
    if (g.stock !== null) {
      await tx
        .update(goods)
        .set({ stock: sql`${goods.stock} - 1`, sold: sql`${goods.sold} + 1` })
        .where(eq(goods.id, g.id));
    } else if (!flash) {
      await tx.update(goods).set({ sold: sql`${goods.sold} + 1` }).where(eq(goods.id, g.id));
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
    await changeBalance(tx, clock, accountId, -quote.balanceUsedCents, 'order', row!.id);
    await enqueueJob(tx, { kind: ORDER_EXPIRE_JOB, payload: { orderNo }, runAt: order!.expiresAt! });
    // the last statements: the sale's row (and the goods' sold count) stay locked only for the commit
    if (flash) await takeFlashPlace(tx, flash, accountId, now);
    return order!;
  });
}

/** The caller's order by number; another member's is not found. */
export async function myOrder(db: Db | Tx, accountId: number, orderNo: string): Promise<OrderRow> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.orderNo, orderNo), eq(orders.accountId, accountId)));
  if (!row) throw new ApiError(Errors.notFound, { field: 'orderNo' });
  return row;
}

async function lockMyOrder(tx: Tx, accountId: number, orderNo: string): Promise<OrderRow> {
  const [row] = await tx
    .select()
    .from(orders)
    .where(and(eq(orders.orderNo, orderNo), eq(orders.accountId, accountId)))
    .for('update');
  if (!row) throw new ApiError(Errors.notFound, { field: 'orderNo' });
  return row;
}

export async function myOrders(db: Db, accountId: number, pagenum: number, pagesize: number): Promise<{ list: OrderRow[]; total: number }> {
  const list = await db
    .select()
    .from(orders)
    .where(eq(orders.accountId, accountId))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(pagesize)
    .offset(pagenum * pagesize);
  const [t] = await db.select({ n: count() }).from(orders).where(eq(orders.accountId, accountId));
  return { list, total: t?.n ?? 0 };
}

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
async function cancelLocked(tx: Tx, clock: Clock, order: OrderRow): Promise<OrderRow> {
  const state = move(order.state, 'order.cancel', 'orderNotCancellable');
  await releaseHolds(tx, clock, order);
  const [row] = await tx.update(orders).set({ state, cancelledAt: clock.now() }).where(eq(orders.id, order.id)).returning();
  return row!;
}

/** Whether an order waits for money past its time: unpaid (or failed), never sent to a provider still deciding. */
export function overdue(order: OrderRow, now: Date): boolean {
  return EXPIRING_STATES.includes(order.state) && order.expiresAt !== null && order.expiresAt.getTime() <= now.getTime();
}

/** Cancels the member's overdue orders (the expiry job may not have run yet); the caller holds the account lock. */
async function expireDueOrders(tx: Tx, clock: Clock, accountId: number): Promise<void> {
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

/** Moves the order to paid and issues what was bought (src/server/services/orders/issue.ts), once. */
async function markPaid(tx: Tx, clock: Clock, order: OrderRow, state: OrderState, method: 'balance' | PaymentMethod): Promise<OrderRow> {
  const issued = await issueGoods(tx, clock, order);
  const [row] = await tx
    .update(orders)
    .set({ state, payMethod: method, paidAt: clock.now(), ...issued })
    .where(eq(orders.id, order.id))
    .returning();
  return row!;
}

export type PayAnswer = { order: OrderRow; payment: PaymentStart | null };

/** The order's open attempt (at most one: decision 013). */
async function openAttempt(db: Db | Tx, orderId: number): Promise<AttemptRow | undefined> {
  const [row] = await db
    .select()
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.orderId, orderId), inArray(paymentAttempts.state, OPEN_ATTEMPT_STATES)))
    .limit(1);
  return row;
}

/**
 * The member's messaging-app open id, the WeChat Pay payer: bound when a phone login carried the silent
 * authorization's ticket (decision 003). A member bound in more than one messaging-app account pays as
 * the most recently bound. Undefined when none is bound (WeChat Pay is then unavailable: 40012).
 */
export async function payerOpenIdOf(db: Db | Tx, accountId: number): Promise<string | undefined> {
  const [row] = await db
    .select({ openId: openIdBindings.openId })
    .from(openIdBindings)
    .where(eq(openIdBindings.accountId, accountId))
    .orderBy(desc(openIdBindings.createdAt))
    .limit(1);
  return row?.openId;
}

/** Past its expiresAt an order still waiting for money cannot be paid (40009), even while paying. */
function pastExpiry(order: OrderRow, now: Date): boolean {
  return PAY_WINDOW_STATES.includes(order.state) && order.expiresAt !== null && order.expiresAt.getTime() <= now.getTime();
}

/**
 * Pays an order: by balance at once, or through a provider (the order goes to paying). One provider at
 * a time (decision 013): while a trade is open, paying again by the same method answers the same start
 * (a second tap, a member coming back); another method first closes that trade at its provider (when
 * the close shows it was paid meanwhile, the order is settled paid and the new payment refused, 40011).
 */
export async function payOrder(deps: Deps, accountId: number, orderNo: string, method: 'balance' | PaymentMethod, opts: LockOptions = ROW): Promise<PayAnswer> {
  const { db, clock } = deps;
  if (method === 'balance') {
    const order = await decide(db, async (tx) => {
      await lockAccount(tx, accountId, opts);
      const o = await lockMyOrder(tx, accountId, orderNo);
      if (overdue(o, clock.now())) throw new ApiError(Errors.orderExpired);
      const state = move(o.state, 'payment.succeeded', 'orderNotPayable');
      // a trade open at a provider (paying, or its prepay under way) could still take the money
      if (o.state === 'paying' || (await openAttempt(tx, o.id))) throw new ApiError(Errors.orderNotPayable);
      await changeBalance(tx, clock, accountId, -o.amountToPayCents, 'order', o.id);
      return markPaid(tx, clock, o, state, 'balance');
    });
    return { order, payment: null };
  }
  const gateway = deps.gateways.payments[method];
  if (!gateway) throw new ApiError(Errors.payMethodUnavailable, { field: 'method' });
  // WeChat Pay (JSAPI) charges a payer known by the open id the messaging app gave this member, bound at login
  const payerOpenId = method === 'wechat' ? await payerOpenIdOf(db, accountId) : undefined;
  if (method === 'wechat' && !payerOpenId) throw new ApiError(Errors.wechatPayNeedsOpenId, { field: 'method' });
  // at most a close and a new attempt; a concurrent request changing the order meanwhile makes another round
  for (let round = 0; round < 4; round++) {
    const current = await myOrder(db, accountId, orderNo);
    if (pastExpiry(current, clock.now())) throw new ApiError(Errors.orderExpired);
    if (current.amountToPayCents <= 0) throw new ApiError(Errors.orderNotPayable);
    const open = await openAttempt(db, current.id);
    if (open && open.provider === method) {
      // the same trade again: what the member got the first time, or the provider asked again with the same out_trade_no
      if (open.start && current.state === 'paying') return { order: current, payment: open.start };
      return startAttempt(deps, current, open, payerOpenId, false);
    }
    if (open) {
      let closed: 'closed' | 'paid';
      try {
        closed = await closeAttempt(deps, open);
      } catch (err) {
        if (!(err instanceof PaymentProviderError)) throw err;
        // the open trade stays open (and payable); never two open trades
        deps.log.error('payment close failed', { orderNo, outTradeNo: open.outTradeNo, error: err.message });
        throw new ApiError(Errors.paymentProviderFailed);
      }
      if (closed === 'paid') throw new ApiError(Errors.orderAlreadyPaid);
      continue;
    }
    move(current.state, 'order.pay', 'orderNotPayable');
    // a new attempt, with its own out_trade_no: a failed or closed trade is final at the provider
    const attempt = await decide(db, async (tx) => {
      const o = await lockMyOrder(tx, accountId, orderNo);
      if (pastExpiry(o, clock.now())) throw new ApiError(Errors.orderExpired);
      // another tap opened a trade since this one read the order: take it from the top (same trade, or a switch)
      if (o.state === 'paying' || (await openAttempt(tx, o.id))) return undefined;
      move(o.state, 'order.pay', 'orderNotPayable');
      const [last] = await tx.select({ seq: max(paymentAttempts.seq) }).from(paymentAttempts).where(eq(paymentAttempts.orderId, o.id));
      const seq = (last?.seq ?? 0) + 1;
      const [row] = await tx
        .insert(paymentAttempts)
        .values({ orderId: o.id, seq, outTradeNo: `${o.orderNo}-${seq}`, provider: method, state: PAYMENT_ATTEMPT_INITIAL, createdAt: clock.now() })
        .onConflictDoNothing()
        .returning();
      return row;
    });
    // another request opened one first (seen under the lock, or the partial unique index): take it from the top
    if (!attempt) continue;
    return startAttempt(deps, current, attempt, payerOpenId, true);
  }
  throw new ApiError(Errors.orderNotPayable);
}

/**
 * Asks the attempt's provider for what the page needs (the same out_trade_no and parameters give the
 * same trade again), then moves the order to paying by the chart and keeps the start on the attempt.
 * When the provider fails, the request that made the attempt ends it (`made`); one that reused it
 * (a concurrent tap) leaves it to the request still asking.
 */
async function startAttempt(deps: Deps, order: OrderRow, attempt: AttemptRow, payerOpenId: string | undefined, made: boolean): Promise<PayAnswer> {
  const { db, clock } = deps;
  const gateway = deps.gateways.payments[attempt.provider];
  if (!gateway) throw new ApiError(Errors.payMethodUnavailable, { field: 'method' });
  const [g] = await db.select({ name: goods.name }).from(goods).where(eq(goods.id, order.goodsId));
  let start: PaymentStart;
  try {
    start = await gateway.createPayment({
      orderNo: attempt.outTradeNo,
      amountCents: order.amountToPayCents,
      description: g?.name ?? order.orderNo,
      payerOpenId,
      notifyUrl: `${deps.config.publicUrl}/api/pay/notify/${attempt.provider}`,
      returnUrl: `${deps.config.publicUrl}/payf?orderNo=${encodeURIComponent(order.orderNo)}`,
      // the provider stops taking the money when the order expires, so the expiry's query and close are final
      expiresAt: order.expiresAt ?? undefined,
    });
  } catch (err) {
    deps.log.error('payment create failed', { orderNo: order.orderNo, outTradeNo: attempt.outTradeNo, error: err instanceof Error ? err.message : String(err) });
    // never handed to the member: the attempt is over (the next one gets the next number)
    const failed = nextAttemptState(attempt.state, 'provider.failed');
    if (made && failed) {
      await db
        .update(paymentAttempts)
        .set({ state: failed, closedAt: clock.now() })
        .where(and(eq(paymentAttempts.id, attempt.id), eq(paymentAttempts.state, attempt.state), isNull(paymentAttempts.start)));
    }
    throw new ApiError(Errors.paymentProviderFailed);
  }
  try {
    return await movedToPaying(deps, order, attempt, start);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    // refused after the provider made the trade (closed by a switch meanwhile, the order cancelled or
    // expired): the member never gets it, and it is closed there too, so no trade is left open
    await gateway.close(attempt.outTradeNo).catch((e: unknown) => deps.log.warn('closing an abandoned trade failed', { outTradeNo: attempt.outTradeNo, error: e instanceof Error ? e.message : String(e) }));
    const closed = nextAttemptState(attempt.state, 'attempt.close');
    if (closed) {
      await db
        .update(paymentAttempts)
        .set({ state: closed, closedAt: clock.now() })
        .where(and(eq(paymentAttempts.id, attempt.id), eq(paymentAttempts.state, attempt.state)));
    }
    throw err;
  }
}

/** The order goes to paying by the chart with this attempt, which keeps its start; the query job is queued. */
async function movedToPaying(deps: Deps, order: OrderRow, attempt: AttemptRow, start: PaymentStart): Promise<PayAnswer> {
  const { db, clock } = deps;
  return decide(db, async (tx) => {
    const o = await lockMyOrder(tx, order.accountId, order.orderNo);
    const [a] = await tx.select().from(paymentAttempts).where(eq(paymentAttempts.id, attempt.id)).for('update');
    if (!a || !OPEN_ATTEMPT_STATES.includes(a.state)) throw new ApiError(a?.state === 'paid' ? Errors.orderAlreadyPaid : Errors.orderNotPayable);
    if (o.state === 'paying') return { order: o, payment: a.start ?? start };
    if (pastExpiry(o, clock.now())) throw new ApiError(Errors.orderExpired);
    const state = move(o.state, 'order.pay', 'orderNotPayable');
    const [row] = await tx.update(orders).set({ state, payMethod: a.provider }).where(eq(orders.id, o.id)).returning();
    await tx.update(paymentAttempts).set({ start }).where(eq(paymentAttempts.id, a.id));
    await enqueueJob(tx, { kind: PAYMENT_QUERY_JOB, payload: { outTradeNo: a.outTradeNo, provider: a.provider, attempt: 1 }, runAt: new Date(clock.now().getTime() + PAYMENT_QUERY_AFTER_MS) });
    return { order: row!, payment: start };
  });
}

export type AttemptRow = typeof paymentAttempts.$inferSelect;

/** The order's latest attempt: the one whose failure fails the order (an older one's never does). */
async function latestAttempt(tx: Db | Tx, orderId: number): Promise<AttemptRow | undefined> {
  const [row] = await tx.select().from(paymentAttempts).where(eq(paymentAttempts.orderId, orderId)).orderBy(desc(paymentAttempts.seq)).limit(1);
  return row;
}

export type SettleOutcome = 'paid' | 'failed' | 'duplicate' | 'unknown_order' | 'amount_mismatch' | 'needs_refund' | 'ignored';

/**
 * Applies a verified provider result (a notification or the query fallback) in one transaction:
 * the attempt found by the out_trade_no the provider names, the payment row by the provider's txn id
 * (a repeat changes nothing), the amount matched to the order, the order moved by the chart, the goods
 * issued once. A failure fails the order only when it is about the order's latest attempt.
 */
export async function settlePayment(db: Db, clock: Clock, result: PaymentResult, source: 'notify' | 'query'): Promise<SettleOutcome> {
  return decide(db, async (tx) => {
    const [attempt] = await tx
      .select()
      .from(paymentAttempts)
      .where(and(eq(paymentAttempts.outTradeNo, result.orderNo), eq(paymentAttempts.provider, result.provider)));
    if (!attempt) return 'unknown_order';
    const [order] = await tx.select().from(orders).where(eq(orders.id, attempt.orderId)).for('update');
    if (!order) return 'unknown_order';
    const latest = await latestAttempt(tx, order.id);
    const amountOk = result.amountCents === order.amountToPayCents;
    const next =
      result.status === 'paid'
        ? nextOrderState(order.state, 'payment.succeeded')
        : latest?.id === attempt.id
          ? nextOrderState(order.state, 'payment.failed')
          : null;
    // money taken for an order already paid (another attempt, balance) or over: kept for a refund by staff
    const status = recordedPaymentStatus(paymentEventOf({ providerStatus: result.status, amountMatches: amountOk, orderAccepts: next !== null }));
    if (!status) return 'ignored';
    const inserted = await tx
      .insert(payments)
      .values({
        orderId: order.id,
        attemptId: attempt.id,
        provider: result.provider,
        providerTxnId: result.providerTxnId,
        amountCents: result.amountCents,
        status,
        source,
        raw: { ...result, paidAt: result.paidAt?.toISOString() ?? null },
        createdAt: clock.now(),
      })
      .onConflictDoNothing()
      .returning({ id: payments.id });
    if (inserted.length === 0) return 'duplicate';
    if (!amountOk) return 'amount_mismatch';
    // what the provider said about this trade, whatever it does to the order
    const attemptNext = nextAttemptState(attempt.state, providerAnswerEvent(result.status));
    if (attemptNext) {
      await tx
        .update(paymentAttempts)
        .set({ state: attemptNext, closedAt: clock.now() })
        .where(and(eq(paymentAttempts.id, attempt.id), eq(paymentAttempts.state, attempt.state)));
    }
    if (!next) return result.status === 'paid' ? 'needs_refund' : 'ignored';
    if (result.status === 'paid') {
      await markPaid(tx, clock, order, next, result.provider);
      return 'paid';
    }
    await tx.update(orders).set({ state: next }).where(eq(orders.id, order.id));
    return 'failed';
  });
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
    const outcome = await settlePayment(deps.db, deps.clock, answer, 'query');
    deps.log.info('payment query settled', { outTradeNo, outcome });
    return;
  }
  const tries = (p.attempt ?? 1) + 1;
  if (tries <= PAYMENT_QUERY_MAX_ATTEMPTS) {
    await enqueueJob(deps.db, { kind: PAYMENT_QUERY_JOB, payload: { outTradeNo, provider: attempt.provider, attempt: tries }, runAt: new Date(deps.clock.now().getTime() + PAYMENT_QUERY_AFTER_MS) });
  }
}

/**
 * Closes an open attempt at its provider so that it can never be paid; `paid` when the close revealed
 * that it was paid meanwhile (then settled paid here, like a notification). A closed attempt that was
 * the order's latest fails the order's payment (`payment.failed` by the chart). Throws while the
 * provider cannot say (a job runs again later; a member's request answers 40006).
 */
async function closeAttempt(deps: Deps, attempt: AttemptRow): Promise<'closed' | 'paid'> {
  const { db, clock } = deps;
  const gateway = deps.gateways.payments[attempt.provider];
  if (!gateway) throw new PaymentProviderError(attempt.provider, 'NOT_CONFIGURED', 'the method is off: its trade cannot be closed');
  const closed = await gateway.close(attempt.outTradeNo);
  if (closed === 'not_closable') {
    // the provider refuses to close: paid (or already closed) meanwhile — only a query tells which
    const answer = await gateway.queryOrder(attempt.outTradeNo);
    if (answer.status !== 'paid' && answer.status !== 'failed') {
      throw new PaymentProviderError(gateway.method, 'CLOSE_REFUSED', `the trade is ${answer.status} but cannot be closed`);
    }
    const outcome = await settlePayment(db, clock, answer, 'query');
    deps.log.info('close refused; the provider was asked', { outTradeNo: attempt.outTradeNo, outcome });
    if (answer.status === 'paid') return 'paid';
  }
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
  return 'closed';
}

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
    const gateway = deps.gateways.payments[attempt.provider];
    if (!gateway) continue;
    const answer = await gateway.queryOrder(attempt.outTradeNo);
    if (answer.status === 'paid' || answer.status === 'failed') {
      const outcome = await settlePayment(db, clock, answer, 'query');
      deps.log.info('order expiry asked the provider', { outTradeNo: attempt.outTradeNo, outcome });
      if (answer.status === 'paid') return;
    } else if ((await closeAttempt(deps, attempt)) === 'paid') {
      return;
    }
  }
  await decide(db, async (tx) => {
    await lockAccount(tx, order.accountId, ROW);
    const [o] = await tx.select().from(orders).where(eq(orders.id, order.id)).for('update');
    // a paying order is left alone: one of its trades could not be closed (its method is off now)
    if (o && overdue(o, clock.now())) await cancelLocked(tx, clock, o);
  });
}

/** Provider payments flagged for a refund (decision 013), newest first: for staff to refund by hand until refunds are built. */
export async function paymentsToRefund(db: Db) {
  return db
    .select({
      paymentId: payments.id,
      orderNo: orders.orderNo,
      accountId: orders.accountId,
      provider: payments.provider,
      outTradeNo: paymentAttempts.outTradeNo,
      providerTxnId: payments.providerTxnId,
      amountCents: payments.amountCents,
      createdAt: payments.createdAt,
    })
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .leftJoin(paymentAttempts, eq(paymentAttempts.id, payments.attemptId))
    .where(inArray(payments.status, PAYMENT_STATUSES_TO_REFUND))
    .orderBy(desc(payments.id))
    .limit(500);
}

export async function balanceHistory(db: Db, accountId: number, pagenum: number, pagesize: number) {
  const list = await db
    .select()
    .from(balanceLedger)
    .where(eq(balanceLedger.accountId, accountId))
    .orderBy(desc(balanceLedger.id))
    .limit(pagesize)
    .offset(pagenum * pagesize);
  const [t] = await db.select({ n: count() }).from(balanceLedger).where(eq(balanceLedger.accountId, accountId));
  return { list, total: t?.n ?? 0 };
}
