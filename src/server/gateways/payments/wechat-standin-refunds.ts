import { createRoute, z } from '@hono/zod-openapi';
import { and, eq } from 'drizzle-orm';
import type { Context } from 'hono';
import { payStandInOrders } from '../../db/schema/index';
import type { AppEnv } from '../../env';
import { createRouter, envelope, ok } from '../../http/router';
import type { FetchLike } from '../sms';
import { beijingIso, deliverNotification, digits, type StandInOrder } from './standin-common';
import type { PaymentStandIns, WechatStandInKeys } from './standin-keys';
import {
  arrangeRefund,
  askRefund,
  findRefund,
  latestRefundNo,
  settleStandInRefund,
  type RefundArrangement,
  type StandInRefund,
} from './standin-refunds';
import { encryptedNotification, fail, refuseSignature, signedJson } from './wechat-standin';

/**
 * The WeChat Pay stand-in's refunds (API v3, demo mode and tests only), under /api/dev/pay/wechat:
 * `POST /v3/refund/domestic/refunds` and `GET /v3/refund/domestic/refunds/{out_refund_no}`, signed both
 * ways like its payment calls, and the signed, AEAD_AES_256_GCM-encrypted `REFUND.*` notifications sent to
 * the refund's notify_url. A refund succeeds at once unless a test arranged otherwise (`/refunds/arrange`:
 * processing, abnormal, closed, refused, notified 0-5 times, late or spoilt); `/refunds/simulate` settles
 * a processing refund later, or delivers a settled one's notification again.
 */
const STATES = { success: 'SUCCESS', processing: 'PROCESSING', closed: 'CLOSED', abnormal: 'ABNORMAL' } as const;
/** A trade that took money (REFUND: WeChat Pay's trade state once a refund was asked for). */
const PAID = ['SUCCESS', 'REFUND'];

/** How a test may spoil a refund notification (each must be refused, except `amount`, which the refund code must catch). */
export const WECHAT_REFUND_TAMPERS = ['body', 'signature', 'serial', 'ciphertext', 'key', 'mchid', 'amount'] as const;
export type WechatRefundTamper = (typeof WECHAT_REFUND_TAMPERS)[number];
/** The refusals a test may arrange, with WeChat Pay's HTTP status for each. */
const REFUSALS = { SYSTEM_ERROR: 500, FREQUENCY_LIMITED: 429, NOT_ENOUGH: 403, USER_ACCOUNT_ABNORMAL: 403, NO_AUTH: 403 } as const;

const Failure = z.object({ code: z.string(), message: z.string() });
const Refund = z.object({}).passthrough().openapi('WechatPayRefund');
const Delivery = z.object({ status: z.number().int(), body: z.string() });
const deliveriesField = z
  .number()
  .int()
  .min(0)
  .max(5)
  .optional()
  .openapi({ description: 'notifications to send (default 1); 0 settles silently (notified late, or never)' });
const ageField = z
  .number()
  .int()
  .min(0)
  .max(86_400)
  .optional()
  .openapi({ description: 'date the notification this far back (a late replay)' });

const create = createRoute({
  method: 'post',
  path: '/v3/refund/domestic/refunds',
  tags: ['dev'],
  summary: 'Stand-in: refund a paid transaction (signed request, signed answer; the same out_refund_no is the same refund)',
  responses: {
    200: { description: 'The refund', content: { 'application/json': { schema: Refund } } },
    400: {
      description: 'PARAM_ERROR or INVALID_REQUEST (unpaid trade, more than is left, another total, the number reused)',
      content: { 'application/json': { schema: Failure } },
    },
    401: { description: 'Signature refused', content: { 'application/json': { schema: Failure } } },
    403: { description: 'An arranged NOT_ENOUGH, USER_ACCOUNT_ABNORMAL or NO_AUTH', content: { 'application/json': { schema: Failure } } },
    404: { description: 'RESOURCE_NOT_EXISTS: no such transaction', content: { 'application/json': { schema: Failure } } },
    429: { description: 'An arranged FREQUENCY_LIMITED', content: { 'application/json': { schema: Failure } } },
    500: { description: 'An arranged SYSTEM_ERROR', content: { 'application/json': { schema: Failure } } },
  },
});

const query = createRoute({
  method: 'get',
  path: '/v3/refund/domestic/refunds/{out_refund_no}',
  tags: ['dev'],
  summary: 'Stand-in: query a refund by our refund number (signed request, signed answer)',
  request: { params: z.object({ out_refund_no: z.string() }) },
  responses: {
    200: { description: 'The refund', content: { 'application/json': { schema: Refund } } },
    401: { description: 'Signature refused', content: { 'application/json': { schema: Failure } } },
    404: { description: 'RESOURCE_NOT_EXISTS', content: { 'application/json': { schema: Failure } } },
  },
});

const ArrangeBody = z.object({
  outTradeNo: z.string().min(1).max(64),
  status: z
    .enum(['success', 'processing', 'abnormal', 'closed'])
    .optional()
    .openapi({ description: 'the state the refund takes at once (default success); processing waits for /refunds/simulate' }),
  refuse: z
    .enum(Object.keys(REFUSALS) as [keyof typeof REFUSALS, ...(keyof typeof REFUSALS)[]])
    .optional()
    .openapi({ description: 'refuse the request with this code (nothing recorded)' }),
  deliveries: deliveriesField,
  tamper: z.enum(WECHAT_REFUND_TAMPERS).optional(),
  ageSeconds: ageField,
});
const arrange = createRoute({
  method: 'post',
  path: '/refunds/arrange',
  tags: ['dev'],
  summary: "Stand-in: what the trade's next new refund does (taken by that refund)",
  request: { body: { content: { 'application/json': { schema: ArrangeBody } }, required: true } },
  responses: {
    200: { description: 'Arranged', content: { 'application/json': { schema: envelope(z.object({ outTradeNo: z.string() })) } } },
  },
});

const SimulateBody = z.object({
  outRefundNo: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .openapi({ description: "the refund; or give outTradeNo for the trade's latest refund" }),
  outTradeNo: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .openapi({ description: 'the trade whose latest refund is meant (a browser test knows the trade, not our refund number)' }),
  outcome: z
    .enum(['success', 'abnormal', 'closed'])
    .optional()
    .openapi({ description: 'settle a processing refund so (an abnormal one may still succeed); absent: deliver its notification again' }),
  deliveries: deliveriesField,
  tamper: z.enum(WECHAT_REFUND_TAMPERS).optional(),
  ageSeconds: ageField,
});
const simulate = createRoute({
  method: 'post',
  path: '/refunds/simulate',
  tags: ['dev'],
  summary: 'Stand-in: settle a processing refund, or notify a settled one again; the signed, encrypted REFUND.* notification is sent',
  request: { body: { content: { 'application/json': { schema: SimulateBody } }, required: true } },
  responses: {
    200: {
      description: "The refund's state and each delivery's answer",
      content: {
        'application/json': { schema: envelope(z.object({ outRefundNo: z.string(), state: z.string(), deliveries: z.array(Delivery) })) },
      },
    },
    404: { description: 'Unknown refund', content: { 'application/json': { schema: Failure } } },
    409: { description: 'Not settled yet (no outcome), or settled the other way', content: { 'application/json': { schema: Failure } } },
  },
});

/** The refund object WeChat Pay answers (and queries). */
export function wechatRefundObject(row: StandInRefund, trade: StandInOrder) {
  return {
    refund_id: row.refundId,
    out_refund_no: row.outRefundNo,
    transaction_id: trade.providerTxnId ?? '',
    out_trade_no: row.outTradeNo,
    channel: 'ORIGINAL',
    user_received_account: '支付用户零钱',
    ...(row.succeededAt ? { success_time: beijingIso(row.succeededAt) } : {}),
    create_time: beijingIso(row.createdAt),
    status: row.state,
    funds_account: 'AVAILABLE',
    amount: {
      total: row.totalCents,
      refund: row.amountCents,
      payer_total: row.totalCents,
      payer_refund: row.amountCents,
      settlement_refund: row.amountCents,
      settlement_total: row.totalCents,
      discount_refund: 0,
      currency: 'CNY',
    },
  };
}

/** One REFUND.SUCCESS / ABNORMAL / CLOSED notification for a settled refund, spoilt as asked. */
export function wechatRefundNotification(
  row: StandInRefund,
  trade: StandInOrder,
  keys: WechatStandInKeys,
  nowSeconds: number,
  opts: { tamper?: string; ageSeconds?: number } = {},
) {
  const resource = {
    mchid: opts.tamper === 'mchid' ? '1900000000' : row.merchantId,
    out_trade_no: row.outTradeNo,
    transaction_id: trade.providerTxnId ?? '',
    out_refund_no: row.outRefundNo,
    refund_id: row.refundId,
    refund_status: row.state,
    ...(row.succeededAt ? { success_time: beijingIso(row.succeededAt) } : {}),
    user_received_account: '支付用户零钱',
    amount: {
      total: row.totalCents,
      refund: row.amountCents + (opts.tamper === 'amount' ? 1 : 0),
      payer_total: row.totalCents,
      payer_refund: row.amountCents,
    },
  };
  const summary = row.state === STATES.success ? '退款成功' : row.state === STATES.abnormal ? '退款异常' : '退款关闭';
  return encryptedNotification(resource, { eventType: `REFUND.${row.state}`, summary, originalType: 'refund' }, keys, nowSeconds, opts);
}

const json = (raw: string): unknown => {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
};

/** The stand-in's refund routes; mounted beside its payment routes under /wechat. */
export function wechatRefundStandIn(standIns: PaymentStandIns, deliver: FetchLike) {
  const keys = standIns.wechat;

  async function tradeOf(c: Context<AppEnv>, by: { transaction_id?: string; out_trade_no?: string }): Promise<StandInOrder | undefined> {
    const [row] = await c.var.deps.db
      .select()
      .from(payStandInOrders)
      .where(
        and(
          eq(payStandInOrders.provider, 'wechat'),
          eq(payStandInOrders.merchantId, keys.mchId),
          // the transaction id first, as WeChat Pay
          by.transaction_id
            ? eq(payStandInOrders.providerTxnId, by.transaction_id)
            : eq(payStandInOrders.outTradeNo, by.out_trade_no ?? ''),
        ),
      )
      .limit(1);
    return row;
  }

  /** Sends a settled refund's notification `deliveries` times to its notify_url (none without one). */
  async function notify(c: Context<AppEnv>, row: StandInRefund, trade: StandInOrder, opts: RefundArrangement) {
    const out: { status: number; body: string }[] = [];
    if (!row.notifyUrl || row.state === STATES.processing) return out;
    const send = standIns.notifyFetch ?? deliver;
    for (let i = 0; i < (opts.deliveries ?? 1); i++) {
      const note = wechatRefundNotification(row, trade, keys, Math.floor(c.var.deps.clock.now().getTime() / 1000), opts);
      out.push(await deliverNotification(send, row.notifyUrl, { headers: note.headers, body: note.body }));
    }
    return out;
  }

  return createRouter()
    .openapi(create, async (c) => {
      const raw = await c.req.text();
      const refused = refuseSignature(c, keys, raw);
      if (refused) return fail(401, 'SIGN_ERROR', refused);
      const { db, clock } = c.var.deps;
      const parsed = z
        .object({
          transaction_id: z.string().min(1).max(32).optional(),
          out_trade_no: z.string().min(1).max(32).optional(),
          out_refund_no: z.string().regex(/^[A-Za-z0-9_|*@-]{1,64}$/),
          reason: z.string().max(80).optional(),
          notify_url: z.string().url().optional(),
          funds_account: z.string().optional(),
          amount: z.object({ refund: z.number().int().positive(), total: z.number().int().positive(), currency: z.literal('CNY') }),
        })
        .refine((b) => b.transaction_id !== undefined || b.out_trade_no !== undefined, { path: ['out_trade_no'] })
        .safeParse(json(raw));
      if (!parsed.success) return fail(400, 'PARAM_ERROR', parsed.error.issues[0]?.path.join('.') || 'body');
      const b = parsed.data;
      const trade = await tradeOf(c, b);
      if (!trade) return fail(404, 'RESOURCE_NOT_EXISTS', '订单不存在');
      if (!PAID.includes(trade.state)) return fail(400, 'INVALID_REQUEST', '订单未支付');
      if (b.amount.total !== trade.amountCents) return fail(400, 'INVALID_REQUEST', '订单金额或退款金额与之前请求不一致，请核实后再试');
      const asked = await askRefund(
        db,
        clock,
        trade,
        {
          outRefundNo: b.out_refund_no,
          amountCents: b.amount.refund,
          reason: b.reason,
          notifyUrl: b.notify_url,
          refundId: digits('50', 30),
        },
        {
          initial: (a) => STATES[(a.status as keyof typeof STATES | undefined) ?? 'success'],
          success: STATES.success,
          uncounted: [STATES.closed],
        },
      );
      if (asked.kind === 'existing') {
        // the same number again is the same refund; with other parameters it is refused
        if (asked.row.outTradeNo !== trade.outTradeNo || asked.row.amountCents !== b.amount.refund)
          return fail(400, 'INVALID_REQUEST', '订单金额或退款金额与之前请求不一致，请核实后再试');
        return signedJson(c, keys, wechatRefundObject(asked.row, trade));
      }
      if (asked.kind === 'over') return fail(400, 'INVALID_REQUEST', '申请退款金额超过订单可退金额');
      if (asked.kind === 'refused') {
        const code = asked.code as keyof typeof REFUSALS;
        return fail(
          REFUSALS[code] ?? 500,
          code,
          code === 'NOT_ENOUGH' ? '基本账户余额不足，请充值后重新发起' : code === 'SYSTEM_ERROR' ? '系统超时' : code,
        );
      }
      // WeChat Pay's trade reads REFUND once a refund was asked for
      await db
        .update(payStandInOrders)
        .set({ state: 'REFUND' })
        .where(and(eq(payStandInOrders.id, trade.id), eq(payStandInOrders.state, 'SUCCESS')));
      // the notification may reach the merchant before this answer does, as it can from WeChat Pay
      await notify(c, asked.row, trade, asked.arrangement);
      return signedJson(c, keys, wechatRefundObject(asked.row, trade));
    })
    .openapi(query, async (c) => {
      const refused = refuseSignature(c, keys, '');
      if (refused) return fail(401, 'SIGN_ERROR', refused);
      const row = await findRefund(c.var.deps.db, 'wechat', keys.mchId, c.req.valid('param').out_refund_no);
      const trade = row ? await tradeOf(c, { out_trade_no: row.outTradeNo }) : undefined;
      if (!row || !trade) return fail(404, 'RESOURCE_NOT_EXISTS', '退款单不存在');
      return signedJson(c, keys, wechatRefundObject(row, trade));
    })
    .openapi(arrange, async (c) => {
      const { outTradeNo, ...arrangement } = c.req.valid('json');
      await arrangeRefund(c.var.deps.db, c.var.deps.clock, { provider: 'wechat', merchantId: keys.mchId, outTradeNo }, arrangement);
      return ok(c, { outTradeNo });
    })
    .openapi(simulate, async (c) => {
      const { outRefundNo: given, outTradeNo, outcome, ...opts } = c.req.valid('json');
      const { db, clock } = c.var.deps;
      const outRefundNo = given ?? (outTradeNo ? await latestRefundNo(db, 'wechat', keys.mchId, outTradeNo) : undefined);
      let row = outRefundNo ? await findRefund(db, 'wechat', keys.mchId, outRefundNo) : undefined;
      const trade = row ? await tradeOf(c, { out_trade_no: row.outTradeNo }) : undefined;
      if (!row || !trade) return fail(404, 'RESOURCE_NOT_EXISTS', '退款单不存在');
      const target = outcome ? STATES[outcome] : row.state;
      if (target === STATES.processing) return fail(409, 'REFUND_PROCESSING', 'the refund is not settled yet: give an outcome');
      if (row.state !== target) {
        // processing settles any way; an abnormal refund may still be paid by the abnormal-refund process
        const from = target === STATES.success ? [STATES.processing, STATES.abnormal] : [STATES.processing];
        row = await settleStandInRefund(db, clock, row.id, from, target, STATES.success);
        if (!row) return fail(409, 'REFUND_SETTLED', 'the refund was settled the other way');
      }
      return ok(c, { outRefundNo: row.outRefundNo, state: row.state, deliveries: await notify(c, row, trade, opts) });
    });
}
