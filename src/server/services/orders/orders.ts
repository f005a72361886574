import { and, count, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import { nextOrderState } from '../../../../machines/domain/order-transitions';
import type { OrderEvent } from '../../../../machines/domain/order.machine';
import { CLASS_TYPES, type ClassTypeKey } from '../../../domain/catalog';
import type { Clock } from '../../../domain/clock';
import { Errors } from '../../../domain/errors';
import type { OrderState } from '../../../domain/orders';
import type { Db, Tx } from '../../db/client';
import { accounts, balanceLedger, goods, memberCards, orders, payments } from '../../db/schema/index';
import type { Deps } from '../../env';
import type { PaymentMethod, PaymentResult, PaymentStart } from '../../gateways/payments/types';
import { ApiError } from '../../http/api-error';
import { enqueueJob } from '../../jobs/queue';
import { decide } from '../booking/decide';

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

/** States in which an order still waits for its money (a second order is refused meanwhile). */
const OPEN_STATES: OrderState[] = ['unpaid', 'paying', 'payment_failed', 'friend_paying'];

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

export interface CreateOrderInput {
  goodsId?: number | undefined;
  useBalance?: boolean | undefined;
}

/** Creates an order, priced on the server; reserves one unit of stock and the balance used. */
export async function createOrder(db: Db, clock: Clock, accountId: number, input: CreateOrderInput, opts: LockOptions = ROW): Promise<OrderRow> {
  if (!input.goodsId) throw new ApiError(Errors.goodsNotChosen, { field: 'goodsId' });
  const goodsId = input.goodsId;
  return decide(db, async (tx) => {
    const now = clock.now();
    await lockAccount(tx, accountId, opts);
    const open = await tx
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.accountId, accountId), inArray(orders.state, OPEN_STATES)))
      .limit(1);
    if (open.length > 0) throw new ApiError(Errors.unpaidOrderExists);
    const q = tx.select().from(goods).where(eq(goods.id, goodsId));
    const [g] = opts.lock === 'row' ? await q.for('update') : await q;
    if (!g) throw new ApiError(Errors.notFound, { field: 'goodsId' });
    if (!g.onShelf) throw new ApiError(Errors.goodsOffShelf);
    if (g.stock !== null && g.stock <= 0) throw new ApiError(Errors.goodsSoldOut);
    if (g.newCustomersOnly && !(await isNewCustomer(tx, accountId))) throw new ApiError(Errors.goodsNewCustomersOnly);
    if (g.perPersonLimit !== null) {
      const [bought] = await tx
        .select({ n: count() })
        .from(orders)
        .where(and(eq(orders.accountId, accountId), eq(orders.goodsId, g.id), ne(orders.state, 'cancelled')));
      if ((bought?.n ?? 0) >= g.perPersonLimit) throw new ApiError(Errors.goodsLimitPerPerson);
    }
    if (g.stock !== null) {
      await tx
        .update(goods)
        .set({ stock: sql`${goods.stock} - 1`, sold: sql`${goods.sold} + 1` })
        .where(eq(goods.id, g.id));
    } else {
      await tx.update(goods).set({ sold: sql`${goods.sold} + 1` }).where(eq(goods.id, g.id));
    }
    // a logged-in buyer is a member: the member price (spec: member discounts after login)
    const price = g.memberPriceCents;
    const balanceUsed = input.useBalance ? Math.min(await balanceOf(tx, accountId), price) : 0;
    const [row] = await tx
      .insert(orders)
      .values({
        orderNo: `TMP${accountId}-${now.getTime()}-${Math.random().toString(36).slice(2)}`,
        accountId,
        goodsId: g.id,
        quantity: 1,
        listPriceCents: g.listPriceCents,
        memberPriceCents: g.memberPriceCents,
        priceCents: price,
        couponDeductionCents: 0,
        balanceUsedCents: balanceUsed,
        amountToPayCents: price - balanceUsed,
        state: 'unpaid',
        createdAt: now,
      })
      .returning();
    const orderNo = newOrderNo(now, row!.id);
    const [order] = await tx.update(orders).set({ orderNo }).where(eq(orders.id, row!.id)).returning();
    await changeBalance(tx, clock, accountId, -balanceUsed, 'order', row!.id);
    return order!;
  });
}

/** Never bought anything and holds no card. */
async function isNewCustomer(tx: Tx, accountId: number): Promise<boolean> {
  const [o] = await tx
    .select({ n: count() })
    .from(orders)
    .where(and(eq(orders.accountId, accountId), inArray(orders.state, ['paid', 'fully_paid', 'refunding', 'refund_failed'])));
  const [c] = await tx.select({ n: count() }).from(memberCards).where(eq(memberCards.accountId, accountId));
  return (o?.n ?? 0) === 0 && (c?.n ?? 0) === 0;
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

/** Cancels an unpaid (or failed) order: the balance used and the reserved unit come back. */
export async function cancelOrder(db: Db, clock: Clock, accountId: number, orderNo: string): Promise<OrderRow> {
  return decide(db, async (tx) => {
    await lockAccount(tx, accountId, ROW);
    const order = await lockMyOrder(tx, accountId, orderNo);
    const state = move(order.state, 'order.cancel', 'orderNotCancellable');
    await changeBalance(tx, clock, accountId, order.balanceUsedCents, 'cancel', order.id);
    await tx.update(goods).set({ stock: sql`case when ${goods.stock} is null then null else ${goods.stock} + 1 end`, sold: sql`${goods.sold} - 1` }).where(eq(goods.id, order.goodsId));
    const [row] = await tx.update(orders).set({ state, cancelledAt: clock.now() }).where(eq(orders.id, order.id)).returning();
    return row!;
  });
}

/** Issues what was bought, once (the caller moved the order to paid in the same transaction). */
async function issueGoods(tx: Tx, clock: Clock, order: OrderRow): Promise<number | null> {
  const [g] = await tx.select().from(goods).where(eq(goods.id, order.goodsId));
  if (!g || g.kind !== 'card') return null;
  const [card] = await tx
    .insert(memberCards)
    .values({
      accountId: order.accountId,
      goodsId: g.id,
      cardType: g.cardType ?? 'count',
      name: g.name,
      nameEn: g.nameEn,
      number: `C${order.orderNo.slice(1)}`,
      clubId: g.clubId,
      status: 'inactive',
      usesTotal: g.uses,
      usesLeft: g.uses,
      validityDays: g.validityDays,
      buyerAccountId: order.accountId,
      allowedClassTypes: CLASS_TYPES.map((t) => t.value) as ClassTypeKey[],
      createdAt: clock.now(),
    })
    .returning({ id: memberCards.id });
  return card!.id;
}

async function markPaid(tx: Tx, clock: Clock, order: OrderRow, state: OrderState, method: 'balance' | PaymentMethod): Promise<OrderRow> {
  const cardId = await issueGoods(tx, clock, order);
  const [row] = await tx.update(orders).set({ state, payMethod: method, paidAt: clock.now(), issuedCardId: cardId }).where(eq(orders.id, order.id)).returning();
  return row!;
}

export type PayAnswer = { order: OrderRow; payment: PaymentStart | null };

/** Pays an order: by balance at once, or starts an outside payment (the order goes to paying). */
export async function payOrder(deps: Deps, accountId: number, orderNo: string, method: 'balance' | PaymentMethod, opts: LockOptions = ROW): Promise<PayAnswer> {
  const { db, clock } = deps;
  if (method === 'balance') {
    const order = await decide(db, async (tx) => {
      await lockAccount(tx, accountId, opts);
      const o = await lockMyOrder(tx, accountId, orderNo);
      const state = move(o.state, 'payment.succeeded', 'orderNotPayable');
      if (o.state === 'paying') throw new ApiError(Errors.orderNotPayable);
      await changeBalance(tx, clock, accountId, -o.amountToPayCents, 'order', o.id);
      return markPaid(tx, clock, o, state, 'balance');
    });
    return { order, payment: null };
  }
  const gateway = deps.gateways.payments[method];
  if (!gateway) throw new ApiError(Errors.payMethodUnavailable, { field: 'method' });
  const current = await myOrder(db, accountId, orderNo);
  move(current.state, 'order.pay', 'orderNotPayable');
  if (current.amountToPayCents <= 0) throw new ApiError(Errors.orderNotPayable);
  const [g] = await db.select({ name: goods.name }).from(goods).where(eq(goods.id, current.goodsId));
  let start: PaymentStart;
  try {
    start = await gateway.createPayment({
      orderNo,
      amountCents: current.amountToPayCents,
      description: g?.name ?? orderNo,
      payerOpenId: `member-${accountId}`,
      notifyUrl: `${deps.config.publicUrl}/api/pay/notify/${method}`,
      returnUrl: `${deps.config.publicUrl}/payf?orderNo=${encodeURIComponent(orderNo)}`,
    });
  } catch (err) {
    deps.log.error('payment create failed', { orderNo, method, error: err instanceof Error ? err.message : String(err) });
    throw new ApiError(Errors.paymentProviderFailed);
  }
  const order = await decide(db, async (tx) => {
    const o = await lockMyOrder(tx, accountId, orderNo);
    const state = move(o.state, 'order.pay', 'orderNotPayable');
    const [row] = await tx.update(orders).set({ state, payMethod: method }).where(eq(orders.id, o.id)).returning();
    await enqueueJob(tx, { kind: PAYMENT_QUERY_JOB, payload: { orderNo, provider: method, attempt: 1 }, runAt: new Date(clock.now().getTime() + PAYMENT_QUERY_AFTER_MS) });
    return row!;
  });
  return { order, payment: start };
}

export type SettleOutcome = 'paid' | 'failed' | 'duplicate' | 'unknown_order' | 'amount_mismatch' | 'late' | 'ignored';

/**
 * Applies a verified provider result (a notification or the query fallback) in one transaction:
 * the payment row by the provider's txn id (a repeat changes nothing), the amount matched to the
 * order, the order moved by the chart, the goods issued once.
 */
export async function settlePayment(db: Db, clock: Clock, result: PaymentResult, source: 'notify' | 'query'): Promise<SettleOutcome> {
  return decide(db, async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.orderNo, result.orderNo)).for('update');
    if (!order) return 'unknown_order';
    const amountOk = result.amountCents === order.amountToPayCents;
    const next = result.status === 'paid' ? nextOrderState(order.state, 'payment.succeeded') : nextOrderState(order.state, 'payment.failed');
    let status: string = result.status;
    if (!amountOk) status = 'mismatch';
    else if (result.status === 'paid' && !next) status = 'late';
    const inserted = await tx
      .insert(payments)
      .values({
        orderId: order.id,
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
    if (!next) return result.status === 'paid' ? 'late' : 'ignored';
    if (result.status === 'paid') {
      await markPaid(tx, clock, order, next, result.provider);
      return 'paid';
    }
    await tx.update(orders).set({ state: next }).where(eq(orders.id, order.id));
    return 'failed';
  });
}

/** The payment-query fallback (a job): asks the provider and settles like a notification. */
export async function runPaymentQuery(deps: Deps, payload: unknown): Promise<void> {
  const p = payload as { orderNo: string; provider: PaymentMethod; attempt?: number };
  const [order] = await deps.db.select().from(orders).where(eq(orders.orderNo, p.orderNo));
  if (!order || order.state !== 'paying') return;
  const gateway = deps.gateways.payments[p.provider];
  if (!gateway) return;
  const answer = await gateway.queryOrder(p.orderNo);
  if (answer.status === 'paid' || answer.status === 'failed') {
    const outcome = await settlePayment(deps.db, deps.clock, answer as PaymentResult, 'query');
    deps.log.info('payment query settled', { orderNo: p.orderNo, outcome });
    return;
  }
  const attempt = (p.attempt ?? 1) + 1;
  if (attempt <= PAYMENT_QUERY_MAX_ATTEMPTS) {
    await enqueueJob(deps.db, { kind: PAYMENT_QUERY_JOB, payload: { ...p, attempt }, runAt: new Date(deps.clock.now().getTime() + PAYMENT_QUERY_AFTER_MS) });
  }
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
