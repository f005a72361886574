import { FRIEND_INVITATION_RULE, FRIEND_RULE, NOTIFY_RULE, rateLimit } from '../http/rate-limit';
import { createRoute, z } from '@hono/zod-openapi';
import { inArray } from 'drizzle-orm';
import type { Context } from 'hono';
import type { AppEnv, Caller } from '../env';
import { optionalAuth, requireAuth } from '../http/auth';
import { idempotent } from '../http/idempotency';
import { purchaseGate } from '../http/flash-sold-out';
import { createRouter, envelope, ok, refusals } from '../http/router';
import { NotificationRefused, PaymentProviderError, type PaymentMethod } from '../gateways/payments/types';
import { balanceOf } from '../services/orders/balance';
import { myBalanceHistory } from '../services/balance-history';
import { cancelOrder } from '../services/orders/cancel';
import { createOrder } from '../services/orders/create';
import { payOrder } from '../services/orders/pay';
import { myOrder, myOrders, lastPaidProviderOf, payerOpenIdOf, paymentsToRefund, type OrderRow } from '../services/orders/read';
import { orderMoneyDetail } from '../services/orders/money';
import { settlePayment } from '../services/orders/settle';
import { splitOrder, unsplitOrder } from '../services/orders/split';
import { offerFacts, offersOf } from '../services/orders/offer-facts';
import { invitationForFriend, inviteFriend, withdrawInvitation } from '../services/orders/invitations';
import { payAsFriend } from '../services/orders/friend-pay';
import { friendPayer } from '../services/auth/openid-tickets';
import { FRIEND_TICKET_COOKIE } from '../http/session-cookies';
import { ApiError } from '../http/api-error';
import { getCookie } from 'hono/cookie';
import type { InvitationRow } from '../services/orders/invitation-rows';
import type { PartRow } from '../services/orders/parts';
import { refundNoticed, refundNotified } from '../services/refunds/run';
import type { GoodsKind } from '../../domain/catalog';
import { Errors } from '../../domain/errors';
import type { OrderAction, PAY_METHODS } from '../../domain/orders';
import { translate } from '../i18n';
import { goods } from '../db/schema/index';
import { loc } from '../services/catalog';
import { paged, pagingQuery } from '../../contracts/common';
import { BalanceLedgerRow } from '../../contracts/wallet';
import {
  Balance,
  CreateBody,
  FriendInvitationView,
  FriendPayAnswer,
  FriendPayBody,
  InvitationTokenQuery,
  InviteAnswer,
  InviteBody,
  Order,
  OrderDetail,
  OrderNoBody,
  OrderNoQuery,
  PayAnswer,
  PayBody,
  PayMethods,
  PaymentToRefund,
  SplitBody,
  WithdrawBody,
} from '../../contracts/orders';
import { staffOnly } from './staff-guard';

const json = <T extends z.ZodTypeAny>(schema: T, description = 'OK') => ({
  description,
  content: { 'application/json': { schema: envelope(schema) } },
});
const tags = ['orders'];
const orderRefusals = { 400: refusals[400], 401: refusals[401], 404: refusals[404], 409: refusals[409] } as const;

const me = (c: Context<AppEnv>) => (c.var.caller as Caller).accountId;

type GoodsFacts = { name: string; kind: GoodsKind; image: string };

/** The goods name, kind and image of each order (spec §3 order: goods name). */
async function goodsOf(c: Context<AppEnv>, rows: OrderRow[]): Promise<Map<number, GoodsFacts>> {
  const ids = [...new Set(rows.map((o) => o.goodsId))];
  if (ids.length === 0) return new Map();
  const found = await c.var.deps.db
    .select({ id: goods.id, name: goods.name, nameEn: goods.nameEn, kind: goods.kind, image: goods.image })
    .from(goods)
    .where(inArray(goods.id, ids));
  return new Map(found.map((g) => [g.id, { name: loc(c.var.locale, g.name, g.nameEn), kind: g.kind, image: g.image }]));
}

async function viewOne(c: Context<AppEnv>, o: OrderRow) {
  const offers = offersOf(await offerFacts(c.var.deps.db, o, c.var.deps.clock.now()));
  return view(o, (await goodsOf(c, [o])).get(o.goodsId), offers.actions);
}

/** An order with its money (parts, sums, refunds) and what it and each share offer, read after the change. */
async function detailOf(c: Context<AppEnv>, o: OrderRow) {
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
  return { ...view(now, (await goodsOf(c, [now])).get(now.goodsId), offers.actions), ...money, parts };
}

/** An invitation as its member sees it, with the link the friend opens. */
function invitationView(c: Context<AppEnv>, o: OrderRow, inv: InvitationRow, part: PartRow) {
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

const view = (o: OrderRow, g: GoodsFacts | undefined, actions: OrderAction[]) => ({
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
});

/** Orders, payment and balance (issue 4); decisions live in services/orders/ (create, pay, cancel, settle, expiry). */
export const orderRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'post',
      path: '/orders/create',
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
      path: '/orders/detail',
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
      path: '/orders/mine',
      tags,
      summary: 'My orders, newest first (paged)',
      middleware: [requireAuth] as const,
      request: { query: z.object(pagingQuery(10)) },
      responses: { 200: json(paged(Order)), 400: refusals[400], 401: refusals[401] },
    }),
    async (c) => {
      const { pagenum, pagesize } = c.req.valid('query');
      const { list, total } = await myOrders(c.var.deps.db, me(c), pagenum, pagesize);
      const g = await goodsOf(c, list);
      const now = c.var.deps.clock.now();
      const offers = await Promise.all(list.map(async (o) => offersOf(await offerFacts(c.var.deps.db, o, now)).actions));
      return ok(c, { list: list.map((o, i) => view(o, g.get(o.goodsId), offers[i]!)), total, pagenum, pagesize });
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/orders/cancel',
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
      path: '/orders/pay',
      tags,
      summary: 'Pay an order by balance (at once) or start a WeChat / Alipay payment. Idempotency-Key accepted.',
      middleware: [requireAuth, idempotent] as const,
      request: { body: { content: { 'application/json': { schema: PayBody } }, required: true } },
      responses: { 200: json(PayAnswer), ...orderRefusals, 502: refusals[409] },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const answer = await payOrder(c.var.deps, me(c), body.orderNo, body.method, undefined, body.partSeq);
      return ok(c, { order: await viewOne(c, answer.order), payment: answer.payment });
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/orders/split',
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
      path: '/orders/unsplit',
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
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/orders/friend/invite',
      tags,
      summary:
        "Invite a friend to pay one unpaid share (a split order's part, or the whole order): a link open for an hour; asked again, the same link. Idempotency-Key accepted.",
      middleware: [requireAuth, idempotent] as const,
      request: { body: { content: { 'application/json': { schema: InviteBody } }, required: true } },
      responses: { 200: json(InviteAnswer), ...orderRefusals },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const { order, invitation, part } = await inviteFriend(c.var.deps, me(c), body.orderNo, body.partSeqs);
      return ok(c, { order: await viewOne(c, order), invitation: invitationView(c, order, invitation, part) });
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/orders/friend/withdraw',
      tags,
      summary:
        'Withdraw the open friend-pay invitation of a part (partSeq, or the only open one): the friend can no longer pay it. Idempotency-Key accepted.',
      middleware: [requireAuth, idempotent] as const,
      request: { body: { content: { 'application/json': { schema: WithdrawBody } }, required: true } },
      responses: { 200: json(OrderDetail), ...orderRefusals },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const o = await withdrawInvitation(c.var.deps, me(c), body.orderNo, body.partSeq);
      return ok(c, await detailOf(c, o));
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/friend/pay',
      tags,
      middleware: [rateLimit(FRIEND_RULE)] as const,
      summary:
        "The friend pays an invitation's part by WeChat Pay (JSAPI) with the open id of their user-info authorization (the wxFriend cookie; without it 40019): the same friend again gets the same trade; another friend's trade open or the part paid: 40018; the invitation over: 40022",
      request: { body: { content: { 'application/json': { schema: FriendPayBody } }, required: true } },
      responses: {
        200: json(FriendPayAnswer),
        400: refusals[400],
        403: refusals[403],
        404: refusals[404],
        409: refusals[409],
        429: refusals[429],
        502: refusals[409],
      },
    }),
    async (c) => {
      const payer = await friendPayer(c.var.deps.db, c.var.deps.clock, getCookie(c, FRIEND_TICKET_COOKIE));
      if (!payer) throw new ApiError(Errors.friendPayNeedsAuthorization);
      return ok(c, await payAsFriend(c.var.deps, c.req.valid('json').t, payer));
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/friend/invitation',
      tags,
      middleware: [rateLimit(FRIEND_RULE, FRIEND_INVITATION_RULE)] as const,
      summary:
        'What a friend-pay invitation asks of the friend (no login): the goods, the amount, until when, and whether it can still be paid',
      request: { query: InvitationTokenQuery },
      responses: { 200: json(FriendInvitationView), 404: refusals[404], 429: refusals[429] },
    }),
    async (c) => {
      const found = await invitationForFriend(c.var.deps, c.req.valid('query').t);
      const g = (await goodsOf(c, [{ goodsId: found.goodsId } as OrderRow])).get(found.goodsId);
      return ok(c, {
        state: found.state,
        goodsName: g?.name ?? '',
        amountCents: found.amountCents,
        expiresAt: found.inv.expiresAt.toISOString(),
      });
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/pay/methods',
      tags,
      summary:
        'The payment methods this server offers (balance always; WeChat / Alipay when configured, or their stand-ins in demo mode); for a member, those they can use now (the provider they paid with last first after the balance), and why the others cannot',
      middleware: [optionalAuth] as const,
      responses: {
        200: json(PayMethods),
      },
    }),
    async (c) => {
      const { payments } = c.var.deps.gateways;
      const offered = ['balance' as const, ...payments.available()];
      const unavailable: { method: (typeof PAY_METHODS)[number]; code: number; message: string }[] = [];
      const caller = c.var.caller;
      if (caller && offered.includes('wechat') && !(await payerOpenIdOf(c.var.deps.db, caller.accountId))) {
        unavailable.push({
          method: 'wechat',
          code: Errors.wechatPayNeedsOpenId.code,
          message: translate(c.var.locale, Errors.wechatPayNeedsOpenId.message),
        });
      }
      // the provider the member paid with last comes first among the providers, so it is preselected (decision 038)
      const last = caller ? await lastPaidProviderOf(c.var.deps.db, caller.accountId) : undefined;
      const usable = offered.filter((m) => !unavailable.some((u) => u.method === m));
      const methods =
        last && usable.includes(last) ? ['balance' as const, last, ...usable.filter((m) => m !== 'balance' && m !== last)] : usable;
      return ok(c, { methods, standIn: payments.standIn !== undefined, unavailable });
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/staff/payments/needs-refund',
      tags,
      summary: 'Staff: provider payments taken for an order already paid or over, to refund (decision 013)',
      middleware: [requireAuth, staffOnly()] as const,
      responses: {
        200: json(z.array(PaymentToRefund)),
        401: refusals[401],
        403: refusals[403],
      },
    }),
    async (c) =>
      ok(
        c,
        (await paymentsToRefund(c.var.deps.db)).map((p) => ({ ...p, createdAt: p.createdAt.toISOString() })),
      ),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/customers/balance',
      tags,
      summary: 'My balance in cents (the sum of my ledger)',
      middleware: [requireAuth] as const,
      responses: { 200: json(Balance), 401: refusals[401] },
    }),
    async (c) => ok(c, { balanceCents: await balanceOf(c.var.deps.db, me(c)) }),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/customers/balance/history',
      tags,
      summary:
        'My balance history (/mine/balanceHistory): my ledger newest first (paged), each change with why, its order and goods, and my balance after it',
      middleware: [requireAuth] as const,
      request: { query: z.object(pagingQuery(20)) },
      responses: { 200: json(paged(BalanceLedgerRow)), 400: refusals[400], 401: refusals[401] },
    }),
    async (c) => {
      const { pagenum, pagesize } = c.req.valid('query');
      return ok(c, await myBalanceHistory(c.var.deps.db, me(c), c.var.locale, pagenum, pagesize));
    },
  );

/** Provider notifications: raw body verified by the gateway, applied once, answered as the provider expects. */
for (const provider of ['wechat', 'alipay'] as const satisfies readonly PaymentMethod[]) {
  orderRoutes.openapi(
    createRoute({
      method: 'post',
      path: `/pay/notify/${provider}`,
      tags,
      middleware: [rateLimit(NOTIFY_RULE)] as const,
      summary: `${provider === 'wechat' ? 'WeChat Pay' : 'Alipay'} payment notification (raw signed body; answered in the provider's format)`,
      responses: {
        200: { description: "The provider's expected answer" },
        204: { description: 'Accepted (WeChat Pay)' },
        404: { description: 'The method is not configured' },
      },
    }),
    async (c) => {
      const { deps } = c.var;
      const gateway = deps.gateways.payments[provider];
      if (!gateway) return c.body(null, 404);
      const raw = await c.req.text();
      let accepted = true;
      try {
        const result = gateway.parseNotification(raw, c.req.raw.headers);
        if (result.status === 'pending') {
          // verified, but nothing to settle yet (Alipay WAIT_BUYER_PAY): acknowledged, the order unchanged
          deps.log.info('payment notification pending', { provider, orderNo: result.orderNo });
        } else if (result.status === 'refund') {
          // Alipay's trade notification after a refund: never a payment (decision 021); our refund is asked how
          // it ended (one we never asked for is acknowledged and logged); the provider unreachable: sent again later
          const known = await refundNoticed(deps, result.outRefundNo).catch((err: unknown) => {
            if (!(err instanceof PaymentProviderError)) throw err;
            deps.log.warn('refund notification: the provider cannot be asked now', {
              provider,
              outRefundNo: result.outRefundNo,
              error: err.message,
            });
            accepted = false;
            return null;
          });
          deps.log.info('refund notification', { provider, orderNo: result.orderNo, outRefundNo: result.outRefundNo, known });
        } else {
          const outcome = await settlePayment(deps, result, 'notify');
          if (outcome === 'needs_refund')
            deps.log.warn('payment for an order already paid or over: needs a refund', { provider, outTradeNo: result.orderNo });
          else deps.log.info('payment notification', { provider, orderNo: result.orderNo, outcome });
          // unknown, or another amount the provider could not be asked about now: refused, so it is sent again
          if (outcome === 'unknown_order' || outcome === 'ask_later') accepted = false;
        }
      } catch (err) {
        if (!(err instanceof NotificationRefused)) throw err;
        deps.log.warn('payment notification refused', { provider, reason: err.reason });
        accepted = false;
      }
      const answer = gateway.notificationAnswer(accepted);
      return new Response(answer.body === '' ? null : answer.body, {
        status: answer.status,
        headers: answer.contentType ? { 'content-type': answer.contentType } : {},
      });
    },
  );
}

/** WeChat Pay's refund notifications (REFUND.SUCCESS / ABNORMAL / CLOSED), verified and decrypted, applied to the refund by its out_refund_no, once. */
orderRoutes.openapi(
  createRoute({
    method: 'post',
    path: '/pay/refund-notify/wechat',
    tags,
    middleware: [rateLimit(NOTIFY_RULE)] as const,
    summary: "WeChat Pay refund notification (raw signed, encrypted body; answered in WeChat Pay's format)",
    responses: {
      204: { description: 'Accepted' },
      404: { description: 'WeChat Pay is not configured' },
      500: { description: 'Refused (unverified, or a refund we do not know): WeChat Pay sends it again' },
    },
  }),
  async (c) => {
    const { deps } = c.var;
    const gateway = deps.gateways.payments.wechat;
    if (!gateway) return c.body(null, 404);
    let accepted = false;
    try {
      const result = gateway.parseRefundNotification(await c.req.text(), c.req.raw.headers);
      accepted = await refundNotified(deps, result);
      deps.log.info('refund notification', { provider: 'wechat', outRefundNo: result.outRefundNo, status: result.status, accepted });
    } catch (err) {
      if (!(err instanceof NotificationRefused)) throw err;
      deps.log.warn('refund notification refused', { provider: 'wechat', reason: err.reason });
    }
    const answer = gateway.notificationAnswer(accepted);
    return new Response(answer.body === '' ? null : answer.body, {
      status: answer.status,
      headers: answer.contentType ? { 'content-type': answer.contentType } : {},
    });
  },
);
