import { createRoute, type z } from '@hono/zod-openapi';
import { inArray } from 'drizzle-orm';
import type { Context } from 'hono';
import type { AppEnv, Caller } from '../env';
import { requireAuth } from '../http/auth';
import { idempotent } from '../http/idempotency';
import { purchaseGate } from '../http/flash-sold-out';
import { createRouter, envelope, ok, refusals } from '../http/router';
import { cancelOrder } from '../services/orders/cancel';
import { createOrder } from '../services/orders/create';
import { payOrder } from '../services/orders/pay';
import { myOrder, myOrders, type OrderRow } from '../services/orders/read';
import { orderMoneyDetail } from '../services/orders/money';
import { moneyBreakdown, moneyBreakdowns } from '../services/orders/breakdown';
import type { MoneyBreakdown } from '../../contracts/orders';
import { splitOrder, unsplitOrder } from '../services/orders/split';
import { offerFacts, offersOf } from '../services/orders/offer-facts';
import type { InvitationRow } from '../services/orders/invitation-rows';
import type { PartRow } from '../services/orders/parts';
import type { GoodsKind } from '../../domain/catalog';
import type { OrderAction } from '../../domain/orders';
import { goods } from '../db/schema/index';
import { loc } from '../services/catalog';
import { paged } from '../../contracts/common';
import {
  CreateBody,
  MyOrdersQuery,
  Order,
  OrderDetail,
  OrderNoBody,
  OrderNoQuery,
  PayAnswer,
  PayBody,
  SplitBody,
} from '../../contracts/orders';
import { ORDER_LIST_STATES } from '../../../machines/domain/order-transitions';

const json = <T extends z.ZodTypeAny>(schema: T, description = 'OK') => ({
  description,
  content: { 'application/json': { schema: envelope(schema) } },
});
const tags = ['orders'];
const orderRefusals = { 400: refusals[400], 401: refusals[401], 404: refusals[404], 409: refusals[409] } as const;

const me = (c: Context<AppEnv>) => (c.var.caller as Caller).accountId;

type GoodsFacts = { name: string; kind: GoodsKind; image: string };

/** The goods name, kind and image of each order (spec §3 order: goods name). */
export async function goodsOf(c: Context<AppEnv>, rows: OrderRow[]): Promise<Map<number, GoodsFacts>> {
  const ids = [...new Set(rows.map((o) => o.goodsId))];
  if (ids.length === 0) return new Map();
  const found = await c.var.deps.db
    .select({ id: goods.id, name: goods.name, nameEn: goods.nameEn, kind: goods.kind, image: goods.image })
    .from(goods)
    .where(inArray(goods.id, ids));
  return new Map(found.map((g) => [g.id, { name: loc(c.var.locale, g.name, g.nameEn), kind: g.kind, image: g.image }]));
}

export async function viewOne(c: Context<AppEnv>, o: OrderRow) {
  const offers = offersOf(await offerFacts(c.var.deps.db, o, c.var.deps.clock.now()));
  return view(o, (await goodsOf(c, [o])).get(o.goodsId), offers.actions, await moneyBreakdown(c.var.deps.db, o));
}

/** An order with its money (parts, sums, refunds) and what it and each share offer, read after the change. */
export async function detailOf(c: Context<AppEnv>, o: OrderRow) {
  const now = await myOrder(c.var.deps.db, o.accountId, o.orderNo);
  const offers = offersOf(await offerFacts(c.var.deps.db, now, c.var.deps.clock.now()));
  const money = await orderMoneyDetail(c.var.deps.db, now.id);
  const parts = money.parts.map((p) => {
    const o = offers.parts.get(p.seq);
    return {
      ...p,
      holder: o?.holder ?? null,
      actions: o?.actions ?? [],
      payFailed: o?.payFailed ?? false,
      withFriend: o?.holder === 'friendLink' || o?.holder === 'friendTrade',
    };
  });
  const breakdown = await moneyBreakdown(c.var.deps.db, now);
  return { ...view(now, (await goodsOf(c, [now])).get(now.goodsId), offers.actions, breakdown), ...money, parts };
}

/** An invitation as its member sees it, with the link the friend opens. */
export function invitationView(c: Context<AppEnv>, o: OrderRow, inv: InvitationRow, part: PartRow) {
  return {
    orderNo: o.orderNo,
    partSeq: part.seq,
    amountCents: part.amountCents,
    state: inv.state,
    token: inv.token,
    link: `${c.var.deps.config.publicUrl}/payfriend?t=${encodeURIComponent(inv.token)}`,
    expiresAt: inv.expiresAt.toISOString(),
  };
}

const view = (o: OrderRow, g: GoodsFacts | undefined, actions: OrderAction[], breakdown: MoneyBreakdown) => ({
  orderNo: o.orderNo,
  goodsId: o.goodsId,
  goodsName: g?.name ?? '',
  goodsKind: g?.kind ?? 'card',
  goodsImage: g?.image ?? '',
  quantity: o.quantity,
  listPriceCents: o.listPriceCents,
  memberPriceCents: o.memberPriceCents,
  priceCents: o.priceCents,
  couponDeductionCents: o.couponDeductionCents,
  balanceUsedCents: o.balanceUsedCents,
  amountToPayCents: o.amountToPayCents,
  state: o.state,
  payMethod: o.payMethod,
  issuedCardId: o.issuedCardId,
  issuedCourseId: o.issuedCourseId,
  issuedCouponId: o.issuedCouponId,
  phaseId: o.phaseId,
  teacherId: o.teacherId,
  couponId: o.couponId,
  expiresAt: o.expiresAt?.toISOString() ?? null,
  actions,
  createdAt: o.createdAt.toISOString(),
  paidAt: o.paidAt?.toISOString() ?? null,
  cancelledAt: o.cancelledAt?.toISOString() ?? null,
  breakdown,
});

/**
 * Orders (mounted at /api/orders): create, read, cancel, pay, split; decisions live in services/orders/ (create, pay, cancel,
 * settle, expiry). Friend pay, payment methods and notifications, balance and the staff's payments to refund have routers of
 * their own (friend-pay.ts, payments.ts, balance.ts, staff-refunds.ts).
 */
export const orderRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'post',
      path: '/create',
      tags,
      summary: 'Create an order for goods, priced on the server (Idempotency-Key accepted)',
      middleware: [purchaseGate, requireAuth, idempotent] as const,
      request: { body: { content: { 'application/json': { schema: CreateBody } }, required: true } },
      responses: { 200: json(Order), ...orderRefusals },
    }),
    async (c) => {
      const { deps } = c.var;
      return ok(c, await viewOne(c, await createOrder(deps.db, deps.clock, me(c), c.req.valid('json'))));
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/detail',
      tags,
      summary: 'One of my orders, with its money: its parts (how each was paid), its sums and its refunds (decision 021)',
      middleware: [requireAuth] as const,
      request: { query: OrderNoQuery },
      responses: { 200: json(OrderDetail), 400: refusals[400], 401: refusals[401], 404: refusals[404] },
    }),
    async (c) => ok(c, await detailOf(c, await myOrder(c.var.deps.db, me(c), c.req.valid('query').orderNo))),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/mine',
      tags,
      summary: 'My orders, newest first (paged), of every state or of one tab of the order list (status, decision 096)',
      middleware: [requireAuth] as const,
      request: { query: MyOrdersQuery },
      responses: { 200: json(paged(Order)), 400: refusals[400], 401: refusals[401] },
    }),
    async (c) => {
      const { pagenum, pagesize, status } = c.req.valid('query');
      const states = status === 'all' ? undefined : ORDER_LIST_STATES[status];
      const { list, total } = await myOrders(c.var.deps.db, me(c), pagenum, pagesize, states);
      const g = await goodsOf(c, list);
      const now = c.var.deps.clock.now();
      const offers = await Promise.all(list.map(async (o) => offersOf(await offerFacts(c.var.deps.db, o, now)).actions));
      const money = await moneyBreakdowns(c.var.deps.db, list);
      return ok(c, { list: list.map((o, i) => view(o, g.get(o.goodsId), offers[i]!, money.get(o.id)!)), total, pagenum, pagesize });
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/cancel',
      tags,
      summary: 'Cancel an unpaid order (the balance used comes back). Idempotency-Key accepted.',
      middleware: [requireAuth, idempotent] as const,
      request: { body: { content: { 'application/json': { schema: OrderNoBody } }, required: true } },
      responses: { 200: json(Order), ...orderRefusals },
    }),
    async (c) => {
      const { deps } = c.var;
      return ok(c, await viewOne(c, await cancelOrder(deps, me(c), c.req.valid('json').orderNo)));
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/pay',
      tags,
      summary: 'Pay an order by balance (at once) or start a WeChat / Alipay payment. Idempotency-Key accepted.',
      middleware: [requireAuth, idempotent] as const,
      request: { body: { content: { 'application/json': { schema: PayBody } }, required: true } },
      responses: { 200: json(PayAnswer), ...orderRefusals, 502: refusals[409] },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const answer = await payOrder(c.var.deps, me(c), body.orderNo, body.method, body.partSeq);
      return ok(c, { order: await viewOne(c, answer.order), payment: answer.payment });
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/split',
      tags,
      summary:
        'Split what is left to pay of an unpaid order into 2-10 parts, each paid on its own (partSeq on /orders/pay). Idempotency-Key accepted.',
      middleware: [requireAuth, idempotent] as const,
      request: { body: { content: { 'application/json': { schema: SplitBody } }, required: true } },
      responses: { 200: json(OrderDetail), ...orderRefusals, 403: refusals[403] },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const o = await splitOrder(c.var.deps, me(c), body.orderNo, body.parts);
      return ok(c, await detailOf(c, o));
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/unsplit',
      tags,
      summary:
        'Undo a split while nothing is being paid: parts already paid are refunded to their payers, the order is one share again. Idempotency-Key accepted.',
      middleware: [requireAuth, idempotent] as const,
      request: { body: { content: { 'application/json': { schema: OrderNoBody } }, required: true } },
      responses: { 200: json(OrderDetail), ...orderRefusals, 403: refusals[403] },
    }),
    async (c) => {
      const o = await unsplitOrder(c.var.deps, me(c), c.req.valid('json').orderNo);
      return ok(c, await detailOf(c, o));
    },
  );
