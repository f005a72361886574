import { createRoute, z } from '@hono/zod-openapi';
import { and, eq } from 'drizzle-orm';
import type { Context } from 'hono';
import { html } from 'hono/html';
import { payStandInOrders } from '../../db/schema/index';
import type { AppEnv } from '../../env';
import { createRouter, envelope, ok } from '../../http/router';
import type { FetchLike } from '../sms';
import {
  alipayTimestamp,
  centsToYuan,
  notifySignContent,
  parseAlipayTimestamp,
  requestSignContent,
  rsa2Sign,
  rsa2Verify,
  yuanToCents,
} from './alipay-rsa2';
import { alipayRefundCall, alipayRefundStandIn, type AlipayRefundFields, type NotifyRefund } from './alipay-standin-refunds';
import {
  closeStandInOrder,
  deliverNotification,
  digits,
  formFields,
  rawAnswer,
  settleStandInOrder,
  type StandInOrder,
} from './standin-common';
import { forgerKey, type AlipayStandInKeys, type PaymentStandIns } from './standin-keys';

/**
 * A local stand-in for Alipay's OpenAPI gateway (demo mode and tests only), mounted under
 * /api/dev/pay/alipay: gateway.do checks the app's RSA2 signature, opens a cashier page for
 * alipay.trade.wap.pay (refused after its time_expire) and answers alipay.trade.query and
 * alipay.trade.close signed with its own key; paying or failing sends
 * a signed form-urlencoded notification (TRADE_SUCCESS or TRADE_CLOSED) to the notify_url. Refunds
 * (alipay.trade.refund, alipay.trade.fastpay.refund.query) are alipay-standin-refunds.ts's.
 */
const STATES = { waiting: 'WAIT_BUYER_PAY', paid: 'TRADE_SUCCESS', failed: 'TRADE_CLOSED' };

/** How a test may spoil a notification (`amount` is validly signed: the order code must catch it). */
export const ALIPAY_TAMPERS = ['body', 'signature', 'appid', 'amount'] as const;
export type AlipayTamper = (typeof ALIPAY_TAMPERS)[number];

const gatewayGet = createRoute({
  method: 'get',
  path: '/gateway.do',
  tags: ['dev'],
  summary: 'Stand-in: alipay.trade.wap.pay opened in the browser (RSA2-signed query) shows the cashier',
  responses: { 200: { description: 'The cashier page, or an error page', content: { 'text/html': { schema: z.string() } } } },
});

const gatewayPost = createRoute({
  method: 'post',
  path: '/gateway.do',
  tags: ['dev'],
  summary:
    'Stand-in: OpenAPI gateway (form-urlencoded, RSA2-signed): alipay.trade.query, .close, .refund, .fastpay.refund.query, or the wap.pay form',
  responses: {
    200: {
      description: 'The signed answer {<method>_response, sign}, or the cashier page',
      content: { 'application/json': { schema: z.object({}).passthrough() } },
    },
  },
});

const cashier = createRoute({
  method: 'post',
  path: '/cashier',
  tags: ['dev'],
  summary: "Stand-in: the cashier page's buttons (form: out_trade_no, outcome); back to return_url",
  responses: {
    200: { description: 'Done (no return_url)', content: { 'text/html': { schema: z.string() } } },
    302: { description: "Back to the merchant's return_url" },
  },
});

const SimulateBody = z.object({
  outTradeNo: z.string().min(1).max(64),
  outcome: z.enum(['pay', 'fail']),
  deliveries: z.number().int().min(0).max(5).optional().openapi({ description: 'notifications to send (default 1); 0 settles silently' }),
  tamper: z.enum(ALIPAY_TAMPERS).optional(),
});
const Delivery = z.object({ status: z.number().int(), body: z.string() });
const Failure = z.object({ code: z.string(), message: z.string() });
const simulate = createRoute({
  method: 'post',
  path: '/simulate',
  tags: ['dev'],
  summary: 'Stand-in: the buyer pays or the trade closes; a signed notification is sent',
  request: { body: { content: { 'application/json': { schema: SimulateBody } }, required: true } },
  responses: {
    200: {
      description: "The trade state and each delivery's answer",
      content: {
        'application/json': { schema: envelope(z.object({ outTradeNo: z.string(), state: z.string(), deliveries: z.array(Delivery) })) },
      },
    },
    404: { description: 'Unknown trade (the cashier was never opened)', content: { 'application/json': { schema: Failure } } },
    409: { description: 'Already settled the other way', content: { 'application/json': { schema: Failure } } },
  },
});

type Params = Record<string, string>;
/** The OpenAPI methods gateway.do answers (wap.pay opens the cashier instead). */
const METHODS = ['alipay.trade.query', 'alipay.trade.close', 'alipay.trade.refund', 'alipay.trade.fastpay.refund.query'];

const errorPage = (c: Context<AppEnv>, message: string) =>
  c.html(html`<!doctype html><title>Alipay stand-in</title><p>${message}</p>`, 400);

/** The app's RSA2 signature over the request (everything but `sign`), and app id. */
function refuse(params: Params, keys: AlipayStandInKeys): string | undefined {
  if (params.app_id !== keys.appId) return 'isv.invalid-app-id';
  if (params.sign_type !== 'RSA2' || !params.sign) return 'isv.invalid-signature-type';
  return rsa2Verify(requestSignContent(params), params.sign, keys.app.publicKey) ? undefined : 'isv.invalid-signature';
}

function bizContent(params: Params): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(params.biz_content ?? '') as unknown;
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

async function findTrade(c: Context<AppEnv>, keys: AlipayStandInKeys, outTradeNo: string): Promise<StandInOrder | undefined> {
  const [row] = await c.var.deps.db
    .select()
    .from(payStandInOrders)
    .where(
      and(
        eq(payStandInOrders.provider, 'alipay'),
        eq(payStandInOrders.merchantId, keys.sellerId),
        eq(payStandInOrders.outTradeNo, outTradeNo),
      ),
    )
    .limit(1);
  return row;
}

/** alipay.trade.wap.pay: the trade is created when the buyer opens the cashier, as at Alipay. */
async function openCashier(c: Context<AppEnv>, keys: AlipayStandInKeys, params: Params) {
  const refused = refuse(params, keys);
  if (refused) return errorPage(c, refused);
  const biz = bizContent(params);
  const outTradeNo = typeof biz?.out_trade_no === 'string' ? biz.out_trade_no : '';
  const amountCents = yuanToCents(typeof biz?.total_amount === 'string' ? biz.total_amount : undefined);
  const subject = typeof biz?.subject === 'string' ? biz.subject : '';
  if (!outTradeNo || amountCents === undefined || amountCents <= 0 || !subject || !params.notify_url)
    return errorPage(c, 'isv.missing-parameters');
  const expiresAt = typeof biz?.time_expire === 'string' ? parseAlipayTimestamp(biz.time_expire) : undefined;
  if (biz?.time_expire !== undefined && !expiresAt) return errorPage(c, 'isv.invalid-parameter: time_expire');
  let row = await findTrade(c, keys, outTradeNo);
  if (row && row.amountCents !== amountCents) return errorPage(c, 'ACQ.CONTEXT_INCONSISTENT');
  // past the merchant's time_expire the trade is closed: never created, never paid
  if (expiresAt && expiresAt.getTime() <= c.var.deps.clock.now().getTime()) return errorPage(c, 'ACQ.TRADE_HAS_CLOSE');
  if (!row) {
    [row] = await c.var.deps.db
      .insert(payStandInOrders)
      .values({
        provider: 'alipay',
        merchantId: keys.sellerId,
        appId: keys.appId,
        outTradeNo,
        providerTxnId: digits('2026', 24),
        amountCents,
        description: subject,
        notifyUrl: params.notify_url,
        state: STATES.waiting,
        expiresAt: expiresAt ?? null,
        createdAt: c.var.deps.clock.now(),
      })
      .onConflictDoNothing()
      .returning();
    row ??= await findTrade(c, keys, outTradeNo);
  }
  if (!row) return errorPage(c, 'ACQ.SYSTEM_ERROR');
  const back = params.return_url ?? '';
  return c.html(html`<!doctype html>
    <meta name="viewport" content="width=device-width,initial-scale=1" />
    <title>Alipay stand-in cashier</title>
    <h1>Alipay stand-in</h1>
    <p>${row.description}</p>
    <p>¥${centsToYuan(row.amountCents)} (${row.state})</p>
    <form method="post" action="cashier">
      <input type="hidden" name="out_trade_no" value="${row.outTradeNo}" /><input type="hidden" name="return_url" value="${back}" />
      <button name="outcome" value="pay">Pay</button> <button name="outcome" value="fail">Fail</button>
    </form>`);
}

/**
 * The notification Alipay posts (form-urlencoded), signed over everything but sign and sign_type; after a
 * refund, the trade's notification with the refund's fields (out_biz_no, refund_fee, gmt_refund).
 */
export function alipayNotification(
  row: StandInOrder,
  keys: AlipayStandInKeys,
  now: Date,
  tamper?: AlipayTamper,
  refund?: AlipayRefundFields,
): string {
  const amount = centsToYuan(row.amountCents + (tamper === 'amount' ? 1 : 0));
  const params: Params = {
    notify_time: alipayTimestamp(now),
    notify_type: 'trade_status_sync',
    notify_id: digits('', 32),
    charset: 'utf-8',
    version: '1.0',
    sign_type: 'RSA2',
    app_id: tamper === 'appid' ? '2021000000000999' : keys.appId,
    trade_no: row.providerTxnId ?? '',
    out_trade_no: row.outTradeNo,
    trade_status: row.state,
    total_amount: amount,
    receipt_amount: amount,
    buyer_pay_amount: amount,
    seller_id: keys.sellerId,
    buyer_id: '2088102177846880',
    subject: row.description,
    gmt_create: alipayTimestamp(row.createdAt),
    ...(row.paidAt ? { gmt_payment: alipayTimestamp(row.paidAt) } : { gmt_close: alipayTimestamp(now) }),
    ...refund,
  };
  params.sign = rsa2Sign(notifySignContent(params), tamper === 'signature' ? forgerKey() : keys.alipay.privateKey);
  if (tamper === 'body') params.total_amount = centsToYuan(row.amountCents + 100);
  return new URLSearchParams(params).toString();
}

async function settleAndNotify(
  c: Context<AppEnv>,
  standIns: PaymentStandIns,
  deliver: FetchLike,
  row: StandInOrder,
  outcome: 'pay' | 'fail',
  opts: { deliveries?: number; tamper?: AlipayTamper } = {},
) {
  const { db, clock } = c.var.deps;
  const settled = await settleStandInOrder(db, clock, row.id, STATES, outcome);
  if (typeof settled === 'string') return settled;
  const send = standIns.notifyFetch ?? deliver;
  const deliveries: { status: number; body: string }[] = [];
  for (let i = 0; i < (opts.deliveries ?? 1); i++) {
    const body = alipayNotification(settled, standIns.alipay, clock.now(), opts.tamper);
    deliveries.push(
      await deliverNotification(send, settled.notifyUrl, {
        headers: { 'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8' },
        body,
      }),
    );
  }
  return { settled, deliveries };
}

const formParams = async (c: Context<AppEnv>): Promise<Params> => {
  const out: Params = {};
  for (const [k, v] of new URL(c.req.url).searchParams) out[k] = v;
  return { ...out, ...(await formFields(c)) };
};

/** The stand-in's routes; `deliver` carries notifications to the merchant (a test may override it on standIns). */
export function alipayStandIn(standIns: PaymentStandIns, deliver: FetchLike) {
  const keys = standIns.alipay;
  const notifyRefund: NotifyRefund = async (c, trade, fields, opts) => {
    const send = standIns.notifyFetch ?? deliver;
    const out: { status: number; body: string }[] = [];
    for (let i = 0; i < (opts.deliveries ?? 1); i++) {
      const body = alipayNotification(trade, keys, c.var.deps.clock.now(), opts.tamper as AlipayTamper | undefined, fields);
      out.push(
        await deliverNotification(send, trade.notifyUrl, {
          headers: { 'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8' },
          body,
        }),
      );
    }
    return out;
  };
  return createRouter()
    .route('/', alipayRefundStandIn(keys, notifyRefund))
    .openapi(gatewayGet, async (c) => {
      const params = await formParams(c);
      if (params.method !== 'alipay.trade.wap.pay') return errorPage(c, 'isv.invalid-method');
      return openCashier(c, keys, params);
    })
    .openapi(gatewayPost, async (c) => {
      const params = await formParams(c);
      if (params.method === 'alipay.trade.wap.pay') return rawAnswer(await openCashier(c, keys, params));
      const answer = (key: string, value: Record<string, unknown>) => {
        const part = JSON.stringify(value);
        const body = `{"${key}":${part},"sign":"${rsa2Sign(part, keys.alipay.privateKey)}"}`;
        return rawAnswer(new Response(body, { status: 200, headers: { 'Content-Type': 'application/json;charset=utf-8' } }));
      };
      if (!METHODS.includes(params.method ?? '')) {
        return answer('error_response', {
          code: '40002',
          msg: 'Invalid Arguments',
          sub_code: 'isv.invalid-method',
          sub_msg: 'unknown method',
        });
      }
      const key = `${params.method!.replace(/\./g, '_')}_response`;
      const refused = refuse(params, keys);
      if (refused) return answer(key, { code: '40002', msg: 'Invalid Arguments', sub_code: refused, sub_msg: refused });
      if (params.method === 'alipay.trade.refund' || params.method === 'alipay.trade.fastpay.refund.query') {
        const r = await alipayRefundCall(c, keys, params.method, bizContent(params) ?? {}, notifyRefund);
        return answer(r.key, r.value);
      }
      const outTradeNo = bizContent(params)?.out_trade_no;
      const row = typeof outTradeNo === 'string' ? await findTrade(c, keys, outTradeNo) : undefined;
      if (!row) return answer(key, { code: '40004', msg: 'Business Failed', sub_code: 'ACQ.TRADE_NOT_EXIST', sub_msg: '交易不存在' });
      if (params.method === 'alipay.trade.close') {
        // only a trade waiting for the buyer can be closed (paid, finished or closed: TRADE_STATUS_ERROR)
        const closed = await closeStandInOrder(c.var.deps.db, row.id, [STATES.waiting], STATES.failed);
        if (closed !== 'closed')
          return answer(key, { code: '40004', msg: 'Business Failed', sub_code: 'ACQ.TRADE_STATUS_ERROR', sub_msg: '交易状态不合法' });
        return answer(key, { code: '10000', msg: 'Success', trade_no: row.providerTxnId, out_trade_no: row.outTradeNo });
      }
      return answer('alipay_trade_query_response', {
        code: '10000',
        msg: 'Success',
        trade_no: row.providerTxnId,
        out_trade_no: row.outTradeNo,
        buyer_logon_id: 'buy***@example.com',
        trade_status: row.state,
        total_amount: centsToYuan(row.amountCents),
        ...(row.paidAt ? { send_pay_date: alipayTimestamp(row.paidAt) } : {}),
        buyer_pay_amount: row.state === STATES.paid ? centsToYuan(row.amountCents) : '0.00',
      });
    })
    .openapi(cashier, async (c) => {
      const form = await formParams(c);
      const row = form.out_trade_no ? await findTrade(c, keys, form.out_trade_no) : undefined;
      if (!row || (form.outcome !== 'pay' && form.outcome !== 'fail')) return errorPage(c, 'ACQ.TRADE_NOT_EXIST');
      const done = await settleAndNotify(c, standIns, deliver, row, form.outcome);
      if (typeof done === 'string') return errorPage(c, 'ACQ.TRADE_HAS_CLOSE');
      let back: URL | undefined;
      try {
        back = form.return_url ? new URL(form.return_url) : undefined;
      } catch {
        back = undefined;
      }
      // only back to our own app: this page is a stand-in, never an open redirect
      if (back && back.origin === new URL(c.var.deps.config.publicUrl).origin) {
        back.searchParams.set('out_trade_no', row.outTradeNo);
        return c.redirect(back.toString(), 302);
      }
      return c.html(html`<!doctype html><title>Alipay stand-in</title><p>${done.settled.state}</p>`, 200);
    })
    .openapi(simulate, async (c) => {
      const b = c.req.valid('json');
      const row = await findTrade(c, keys, b.outTradeNo);
      if (!row)
        return rawAnswer(
          Response.json({ code: 'ACQ.TRADE_NOT_EXIST', message: 'the cashier was never opened for this order' }, { status: 404 }),
        );
      const done = await settleAndNotify(c, standIns, deliver, row, b.outcome, b);
      if (typeof done === 'string')
        return rawAnswer(
          Response.json(
            { code: 'ACQ.TRADE_HAS_CLOSE', message: done === 'expired' ? 'past time_expire' : 'already settled the other way' },
            { status: 409 },
          ),
        );
      return ok(c, { outTradeNo: row.outTradeNo, state: done.settled.state, deliveries: done.deliveries });
    });
}
