import { createRoute, z } from '@hono/zod-openapi';
import { and, eq } from 'drizzle-orm';
import type { Context } from 'hono';
import { payStandInOrders } from '../../db/schema/index';
import type { AppEnv } from '../../env';
import { createRouter, envelope, ok } from '../../http/router';
import { alipayTimestamp, centsToYuan, yuanToCents } from './alipay-rsa2';
import { rawAnswer, type StandInOrder } from './standin-common';
import type { AlipayStandInKeys } from './standin-keys';
import {
  arrangeRefund,
  askRefund,
  findRefund,
  refundedCents,
  settleStandInRefund,
  type RefundArrangement,
  type StandInRefund,
} from './standin-refunds';

/**
 * The Alipay stand-in's refunds (demo mode and tests only): `alipay.trade.refund` and
 * `alipay.trade.fastpay.refund.query` through its gateway.do, and the trade notification Alipay posts to
 * the trade's notify_url once a refund is done (with `out_biz_no`, `refund_fee`, `gmt_refund`). A refund
 * succeeds at once unless a test arranged otherwise (`/refunds/arrange`: processing, refused, notified
 * 0-5 times or spoilt); `/refunds/simulate` finishes a processing refund, or notifies a done one again.
 */
const STATES = { success: 'REFUND_SUCCESS', processing: 'PROCESSING' } as const;
/** Alipay's refusals a test may arrange (ACQ.SYSTEM_ERROR: "call again with the same parameters"). */
const REFUSALS = {
  'ACQ.SELLER_BALANCE_NOT_ENOUGH': '卖家余额不足',
  'ACQ.TRADE_NOT_ALLOW_REFUND': '当前交易不允许退款',
  'ACQ.SYSTEM_ERROR': '系统错误',
} as const;
/** How a test may spoil a refund notification (as a payment's). */
export const ALIPAY_REFUND_TAMPERS = ['body', 'signature', 'appid'] as const;

/** What the gateway.do route needs to answer a refund method: the `<method>_response` object it signs. */
export interface AlipayRefundAnswer {
  key: string;
  value: Record<string, unknown>;
}

/** The refund fields of the trade notification sent after a refund (the rest is the trade's notification). */
export interface AlipayRefundFields {
  out_biz_no: string;
  /** the trade's refunded total so far, yuan (Alipay's "总退款金额") */
  refund_fee: string;
  gmt_refund: string;
}

/** Sends the trade's notification with a refund's fields `deliveries` times; the answers it got. */
export type NotifyRefund = (
  c: Context<AppEnv>,
  trade: StandInOrder,
  fields: AlipayRefundFields,
  opts: RefundArrangement,
) => Promise<{ status: number; body: string }[]>;

const business = (sub_code: string, sub_msg: string) => ({ code: '40004', msg: 'Business Failed', sub_code, sub_msg });

async function tradeOf(c: Context<AppEnv>, keys: AlipayStandInKeys, biz: Record<string, unknown>): Promise<StandInOrder | undefined> {
  // trade_no first, as Alipay
  const by =
    typeof biz.trade_no === 'string'
      ? eq(payStandInOrders.providerTxnId, biz.trade_no)
      : eq(payStandInOrders.outTradeNo, typeof biz.out_trade_no === 'string' ? biz.out_trade_no : '');
  const [row] = await c.var.deps.db
    .select()
    .from(payStandInOrders)
    .where(and(eq(payStandInOrders.provider, 'alipay'), eq(payStandInOrders.merchantId, keys.sellerId), by))
    .limit(1);
  return row;
}

/** Once a refund is done: the trade closes when all it took is back (TRADE_CLOSED), and Alipay notifies. */
async function refundDone(c: Context<AppEnv>, row: StandInRefund, trade: StandInOrder, notify: NotifyRefund, opts: RefundArrangement) {
  const { db, clock } = c.var.deps;
  const refunded = await refundedCents(db, trade, [STATES.success]);
  let now = trade;
  if (refunded >= trade.amountCents) {
    [now = trade] = await db.update(payStandInOrders).set({ state: 'TRADE_CLOSED' }).where(eq(payStandInOrders.id, trade.id)).returning();
  }
  const at = row.succeededAt ?? clock.now();
  const fields = {
    out_biz_no: row.outRefundNo,
    refund_fee: centsToYuan(refunded),
    gmt_refund: `${alipayTimestamp(at)}.${String(at.getUTCMilliseconds()).padStart(3, '0')}`,
  };
  return notify(c, now, fields, opts);
}

/** alipay.trade.refund and alipay.trade.fastpay.refund.query, once gateway.do has checked the app's signature. */
export async function alipayRefundCall(
  c: Context<AppEnv>,
  keys: AlipayStandInKeys,
  method: string,
  biz: Record<string, unknown>,
  notify: NotifyRefund,
): Promise<AlipayRefundAnswer> {
  const key = `${method.replace(/\./g, '_')}_response`;
  const trade = await tradeOf(c, keys, biz);
  if (!trade) return { key, value: business('ACQ.TRADE_NOT_EXIST', '交易不存在') };
  const { db, clock } = c.var.deps;
  // without out_request_no, Alipay takes the out_trade_no as the refund's number
  const outRequestNo = typeof biz.out_request_no === 'string' && biz.out_request_no ? biz.out_request_no : trade.outTradeNo;
  const refundFee = async () => centsToYuan(await refundedCents(db, trade, [STATES.success]));
  const about = { trade_no: trade.providerTxnId, out_trade_no: trade.outTradeNo };

  if (method === 'alipay.trade.fastpay.refund.query') {
    const row = await findRefund(db, 'alipay', keys.sellerId, outRequestNo);
    // no refund data: "not received, or failed"; a processing one has no refund_status yet
    if (!row || row.outTradeNo !== trade.outTradeNo) return { key, value: { code: '10000', msg: 'Success' } };
    return {
      key,
      value: {
        code: '10000',
        msg: 'Success',
        ...about,
        out_request_no: row.outRefundNo,
        total_amount: centsToYuan(row.totalCents),
        refund_amount: centsToYuan(row.amountCents),
        ...(row.state === STATES.success ? { refund_status: STATES.success } : {}),
      },
    };
  }

  const amountCents = yuanToCents(typeof biz.refund_amount === 'string' ? biz.refund_amount : undefined);
  if (amountCents === undefined || amountCents <= 0)
    return { key, value: { code: '40002', msg: 'Invalid Arguments', sub_code: 'isv.invalid-parameter', sub_msg: 'refund_amount' } };
  const answer = async (row: StandInRefund, fundChange: 'Y' | 'N') => ({
    key,
    value: {
      code: '10000',
      msg: 'Success',
      ...about,
      buyer_logon_id: 'buy***@example.com',
      fund_change: fundChange,
      refund_fee: await refundFee(),
      ...(row.succeededAt ? { gmt_refund_pay: alipayTimestamp(row.succeededAt) } : {}),
    },
  });
  const before = await findRefund(db, 'alipay', keys.sellerId, outRequestNo);
  // a trade never paid (or closed unpaid) cannot be refunded; a number asked before still answers its refund
  if (!before && trade.state !== 'TRADE_SUCCESS') return { key, value: business('ACQ.TRADE_STATUS_ERROR', '交易状态不合法') };
  const reason = typeof biz.refund_reason === 'string' ? biz.refund_reason : undefined;
  const asked = await askRefund(
    db,
    clock,
    trade,
    { outRefundNo: outRequestNo, amountCents, reason, refundId: '' },
    { initial: (a) => (a.status === 'processing' ? STATES.processing : STATES.success), success: STATES.success, uncounted: [] },
  );
  if (asked.kind === 'existing') {
    if (asked.row.outTradeNo !== trade.outTradeNo || asked.row.amountCents !== amountCents)
      return { key, value: business('ACQ.DISCORDANT_REPEAT_REQUEST', '请求信息不一致') };
    // asked again: no money moves this time
    return answer(asked.row, 'N');
  }
  if (asked.kind === 'over') return { key, value: business('ACQ.REFUND_AMT_NOT_EQUAL_TOTAL', '退款金额超限') };
  if (asked.kind === 'refused') return { key, value: business(asked.code, REFUSALS[asked.code as keyof typeof REFUSALS] ?? asked.code) };
  if (asked.row.state !== STATES.success) return answer(asked.row, 'N');
  await refundDone(c, asked.row, trade, notify, asked.arrangement);
  return answer(asked.row, 'Y');
}

const Failure = z.object({ code: z.string(), message: z.string() });
const Delivery = z.object({ status: z.number().int(), body: z.string() });
const deliveriesField = z
  .number()
  .int()
  .min(0)
  .max(5)
  .optional()
  .openapi({ description: 'notifications to send (default 1); 0 finishes silently' });

const ArrangeBody = z.object({
  outTradeNo: z.string().min(1).max(64),
  status: z
    .enum(['success', 'processing'])
    .optional()
    .openapi({ description: 'done at once (default), or processing (fund_change N) until /refunds/simulate' }),
  refuse: z
    .enum(Object.keys(REFUSALS) as [keyof typeof REFUSALS, ...(keyof typeof REFUSALS)[]])
    .optional()
    .openapi({ description: 'refuse the request with this sub_code (nothing recorded)' }),
  deliveries: deliveriesField,
  tamper: z.enum(ALIPAY_REFUND_TAMPERS).optional(),
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
  outRefundNo: z.string().min(1).max(64),
  deliveries: deliveriesField,
  tamper: z.enum(ALIPAY_REFUND_TAMPERS).optional(),
});
const simulate = createRoute({
  method: 'post',
  path: '/refunds/simulate',
  tags: ['dev'],
  summary: "Stand-in: a processing refund is done, or a done one's notification is sent again (the trade's notification with out_biz_no)",
  request: { body: { content: { 'application/json': { schema: SimulateBody } }, required: true } },
  responses: {
    200: {
      description: "The refund's state and each delivery's answer",
      content: {
        'application/json': { schema: envelope(z.object({ outRefundNo: z.string(), state: z.string(), deliveries: z.array(Delivery) })) },
      },
    },
    404: { description: 'Unknown refund', content: { 'application/json': { schema: Failure } } },
  },
});

/** The stand-in's refund test routes; mounted beside its gateway.do under /alipay. */
export function alipayRefundStandIn(keys: AlipayStandInKeys, notify: NotifyRefund) {
  return createRouter()
    .openapi(arrange, async (c) => {
      const { outTradeNo, ...arrangement } = c.req.valid('json');
      await arrangeRefund(c.var.deps.db, c.var.deps.clock, { provider: 'alipay', merchantId: keys.sellerId, outTradeNo }, arrangement);
      return ok(c, { outTradeNo });
    })
    .openapi(simulate, async (c) => {
      const { outRefundNo, ...opts } = c.req.valid('json');
      const { db, clock } = c.var.deps;
      let row = await findRefund(db, 'alipay', keys.sellerId, outRefundNo);
      const trade = row ? await tradeOf(c, keys, { out_trade_no: row.outTradeNo }) : undefined;
      if (!row || !trade) return rawAnswer(Response.json({ code: 'ACQ.TRADE_NOT_EXIST', message: 'no such refund' }, { status: 404 }));
      if (row.state !== STATES.success)
        row = (await settleStandInRefund(db, clock, row.id, [STATES.processing], STATES.success, STATES.success)) ?? row;
      return ok(c, { outRefundNo, state: row.state, deliveries: await refundDone(c, row, trade, notify, opts) });
    });
}
