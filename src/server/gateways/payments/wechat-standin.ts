import { randomUUID } from 'node:crypto';
import { createRoute, z } from '@hono/zod-openapi';
import { and, eq } from 'drizzle-orm';
import type { Context } from 'hono';
import { html } from 'hono/html';
import { payStandInOrders, wechatStandInOpenIds } from '../../db/schema/index';
import type { AppEnv } from '../../env';
import { createRouter, envelope, ok } from '../../http/router';
import type { FetchLike } from '../sms';
import {
  beijingIso,
  closeStandInOrder,
  deliverNotification,
  digits,
  formFields,
  rawAnswer,
  sameOrigin,
  settleStandInOrder,
  type StandInOrder,
} from './standin-common';
import { forgerKey, type PaymentStandIns, type WechatStandInKeys } from './standin-keys';
import {
  aesGcmEncrypt,
  newNonce,
  parseAuthorization,
  parseRfc3339,
  paySignMessage,
  requestMessage,
  rsaSign,
  rsaVerify,
  signedHeaders,
  WECHATPAY_MAX_SKEW_SECONDS,
} from './wechatpay-v3';

/**
 * A local stand-in for WeChat Pay API v3 (demo mode and tests only), mounted under /api/dev/pay/wechat.
 * It checks the merchant's request signatures, signs its answers with its own platform key, and sends
 * signed, AEAD_AES_256_GCM-encrypted notifications, so our real adapter runs against it unchanged.
 * WeChat Pay notifies successes only: a failed payment is learnt from the order query. The payer's
 * open id must be one the messaging app's OAuth stand-in issued for the same appid.
 */
const STATES = { waiting: 'NOTPAY', paid: 'SUCCESS', failed: 'PAYERROR' };
/** The merchant's close moves an unpaid (or failed) trade to CLOSED; it can never be paid after. */
const CLOSED = 'CLOSED';

/** How a test may spoil a notification (each must be refused, except `amount`, which the order code must catch). */
export const WECHAT_TAMPERS = ['body', 'signature', 'serial', 'ciphertext', 'key', 'mchid', 'appid', 'amount'] as const;
export type WechatTamper = (typeof WECHAT_TAMPERS)[number];

const Failure = z.object({ code: z.string(), message: z.string() });
const Transaction = z.object({}).passthrough().openapi('WechatPayTransaction');

const jsapi = createRoute({
  method: 'post',
  path: '/v3/pay/transactions/jsapi',
  tags: ['dev'],
  summary: 'Stand-in: JSAPI prepay (WECHATPAY2-SHA256-RSA2048 signed JSON body, answer signed)',
  responses: {
    200: { description: 'The prepay id', content: { 'application/json': { schema: z.object({ prepay_id: z.string() }) } } },
    400: { description: 'Bad request', content: { 'application/json': { schema: Failure } } },
    401: { description: 'Signature refused', content: { 'application/json': { schema: Failure } } },
  },
});

const query = createRoute({
  method: 'get',
  path: '/v3/pay/transactions/out-trade-no/{out_trade_no}',
  tags: ['dev'],
  summary: 'Stand-in: query a transaction by our order number (signed request, signed answer)',
  request: { params: z.object({ out_trade_no: z.string() }), query: z.object({ mchid: z.string().optional() }) },
  responses: {
    200: { description: 'The transaction', content: { 'application/json': { schema: Transaction } } },
    401: { description: 'Signature refused', content: { 'application/json': { schema: Failure } } },
    404: { description: 'ORDER_NOT_EXIST', content: { 'application/json': { schema: Failure } } },
  },
});

const close = createRoute({
  method: 'post',
  path: '/v3/pay/transactions/out-trade-no/{out_trade_no}/close',
  tags: ['dev'],
  summary: 'Stand-in: close an unpaid transaction (signed request with {mchid}; 204 with a signed empty answer)',
  request: { params: z.object({ out_trade_no: z.string() }) },
  responses: {
    204: { description: 'Closed (or already closed)' },
    400: { description: 'ORDERPAID or PARAM_ERROR', content: { 'application/json': { schema: Failure } } },
    401: { description: 'Signature refused', content: { 'application/json': { schema: Failure } } },
    404: { description: 'ORDER_NOT_EXIST', content: { 'application/json': { schema: Failure } } },
  },
});

const SimulateBody = z.object({
  prepayId: z.string().min(1).max(64),
  outcome: z.enum(['pay', 'fail']),
  deliveries: z.number().int().min(0).max(5).optional().openapi({ description: 'notifications to send (default 1); 0 settles silently' }),
  tamper: z.enum(WECHAT_TAMPERS).optional(),
  ageSeconds: z
    .number()
    .int()
    .min(0)
    .max(86_400)
    .optional()
    .openapi({ description: 'date the notification this far back (a late replay)' }),
});

const Delivery = z.object({ status: z.number().int(), body: z.string() });
const simulate = createRoute({
  method: 'post',
  path: '/simulate',
  tags: ['dev'],
  summary: 'Stand-in: the payer pays or fails a prepaid order; a signed, encrypted notification is sent on success',
  request: { body: { content: { 'application/json': { schema: SimulateBody } }, required: true } },
  responses: {
    200: {
      description: "The order state and each delivery's answer",
      content: {
        'application/json': { schema: envelope(z.object({ outTradeNo: z.string(), state: z.string(), deliveries: z.array(Delivery) })) },
      },
    },
    404: { description: 'Unknown prepay id', content: { 'application/json': { schema: Failure } } },
    409: { description: 'Already settled the other way', content: { 'application/json': { schema: Failure } } },
  },
});

const cashierPage = createRoute({
  method: 'get',
  path: '/cashier',
  tags: ['dev'],
  summary: 'Stand-in: a page with Pay and Fail buttons for a prepaid order (outside the messaging app there is no WeixinJSBridge)',
  request: {
    query: z.object({
      prepay_id: z.string().max(64),
      return_url: z.string().max(2048).optional(),
      // the JSAPI parameters the page handed to the bridge (the app's stand-in bridge sends them): checked as the WeChat client does
      appId: z.string().max(64).optional(),
      timeStamp: z.string().max(16).optional(),
      nonceStr: z.string().max(64).optional(),
      package: z.string().max(128).optional(),
      signType: z.string().max(8).optional(),
      paySign: z.string().max(1024).optional(),
    }),
  },
  responses: {
    200: { description: 'The page', content: { 'text/html': { schema: z.string() } } },
    400: {
      description: 'The pay-sign does not verify (wrong key, app id, prepay id or signed fields)',
      content: { 'text/html': { schema: z.string() } },
    },
    404: { description: 'Unknown prepay id', content: { 'text/html': { schema: z.string() } } },
  },
});

const cashierPost = createRoute({
  method: 'post',
  path: '/cashier',
  tags: ['dev'],
  summary: "Stand-in: the page's buttons (form: prepay_id, outcome, return_url); back to return_url",
  responses: {
    200: { description: 'Done (no return_url)', content: { 'text/html': { schema: z.string() } } },
    302: { description: 'Back to return_url (our own origin only)' },
    400: { description: 'Unknown or settled order', content: { 'text/html': { schema: z.string() } } },
  },
});

export const fail = (status: 400 | 401 | 403 | 404 | 409 | 429 | 500, code: string, message: string) =>
  rawAnswer(Response.json({ code, message }, { status }));

/** The signed URL of a request: the path from /v3 on (the stand-in's mount point is not WeChat's), with the query. */
function signedUrl(c: Context<AppEnv>): string {
  const u = new URL(c.req.url);
  return u.pathname.slice(u.pathname.indexOf('/v3/')) + u.search;
}

/** Checks the merchant's Authorization header the way WeChat Pay does; a refusal message, or undefined. */
export function refuseSignature(c: Context<AppEnv>, keys: WechatStandInKeys, body: string): string | undefined {
  const auth = parseAuthorization(c.req.header('authorization'));
  if (!auth) return 'missing or malformed Authorization';
  if (auth.mchid !== keys.mchId) return 'unknown mchid';
  if (auth.serialNo !== keys.merchantSerial) return 'unknown merchant certificate serial';
  const now = Math.floor(c.var.deps.clock.now().getTime() / 1000);
  if (!/^\d+$/.test(auth.timestamp) || Math.abs(now - Number(auth.timestamp)) > WECHATPAY_MAX_SKEW_SECONDS) return 'timestamp out of range';
  const message = requestMessage(c.req.method, signedUrl(c), auth.timestamp, auth.nonce, body);
  return rsaVerify(message, auth.signature, keys.merchant.publicKey) ? undefined : 'signature mismatch';
}

/** A JSON answer signed with the platform key, as WeChat Pay signs every answer. */
export function signedJson(c: Context<AppEnv>, keys: WechatStandInKeys, value: unknown) {
  const body = JSON.stringify(value);
  const ts = Math.floor(c.var.deps.clock.now().getTime() / 1000);
  const headers = signedHeaders(body, { serial: keys.platformSerial, privateKey: keys.platform.privateKey }, ts, newNonce());
  return rawAnswer(new Response(body, { status: 200, headers: { 'Content-Type': 'application/json', ...headers } }));
}

/** The empty 204 answer of a close, signed like every answer (over the empty body). */
function signedEmpty(c: Context<AppEnv>, keys: WechatStandInKeys) {
  const ts = Math.floor(c.var.deps.clock.now().getTime() / 1000);
  const headers = signedHeaders('', { serial: keys.platformSerial, privateKey: keys.platform.privateKey }, ts, newNonce());
  return rawAnswer(new Response(null, { status: 204, headers }));
}

/** The transaction object WeChat Pay answers and encrypts into notifications. */
export function wechatTransaction(row: StandInOrder) {
  return {
    appid: row.appId,
    mchid: row.merchantId,
    out_trade_no: row.outTradeNo,
    // WeChat Pay gives a transaction id only to a paid transaction (none for NOTPAY, CLOSED or PAYERROR)
    ...(row.providerTxnId ? { transaction_id: row.providerTxnId } : {}),
    trade_type: 'JSAPI',
    trade_state: row.state,
    trade_state_desc:
      row.state === 'SUCCESS' ? '支付成功' : row.state === 'PAYERROR' ? '支付失败' : row.state === CLOSED ? '已关闭' : '未支付',
    bank_type: 'OTHERS',
    attach: '',
    ...(row.paidAt ? { success_time: beijingIso(row.paidAt) } : {}),
    payer: { openid: row.payerOpenId ?? '' },
    amount: { total: row.amountCents, payer_total: row.amountCents, currency: 'CNY', payer_currency: 'CNY' },
  };
}

/** The event of a notification: its type, summary and the resource's original type (also its associated data). */
export interface WechatEvent {
  eventType: string;
  summary: string;
  originalType: string;
}

/**
 * A notification as WeChat Pay sends it: the resource AEAD_AES_256_GCM-encrypted with the APIv3 key, the
 * body signed with the platform key; spoilt as asked (`body`, `signature`, `serial`, `ciphertext`, `key`;
 * the resource's own spoils are its builder's).
 */
export function encryptedNotification(
  resource: object,
  event: WechatEvent,
  keys: WechatStandInKeys,
  nowSeconds: number,
  opts: { tamper?: string; ageSeconds?: number } = {},
) {
  const nonce = newNonce().slice(0, 12);
  const apiV3Key = opts.tamper === 'key' ? 'x'.repeat(32) : keys.apiV3Key;
  let ciphertext = aesGcmEncrypt(JSON.stringify(resource), apiV3Key, nonce, event.originalType);
  if (opts.tamper === 'ciphertext') {
    const buf = Buffer.from(ciphertext, 'base64');
    buf[0] = buf[0]! ^ 0x01;
    ciphertext = buf.toString('base64');
  }
  const at = nowSeconds - (opts.ageSeconds ?? 0);
  let body = JSON.stringify({
    id: randomUUID(),
    create_time: beijingIso(new Date(at * 1000)),
    resource_type: 'encrypt-resource',
    event_type: event.eventType,
    summary: event.summary,
    resource: { original_type: event.originalType, algorithm: 'AEAD_AES_256_GCM', ciphertext, associated_data: event.originalType, nonce },
  });
  const headers = signedHeaders(body, { serial: keys.platformSerial, privateKey: keys.platform.privateKey }, at, newNonce());
  if (opts.tamper === 'body') body = body.replace(`"summary":"${event.summary}"`, `"summary":"${event.summary}!"`);
  if (opts.tamper === 'signature') headers['Wechatpay-Signature'] = rsaSign('forged', forgerKey());
  if (opts.tamper === 'serial') headers['Wechatpay-Serial'] = '0'.repeat(40);
  return { body, headers: { 'Content-Type': 'application/json', ...headers } };
}

/** One TRANSACTION.SUCCESS notification: the body and its Wechatpay-* headers, spoilt as asked. */
export function wechatNotification(
  row: StandInOrder,
  keys: WechatStandInKeys,
  nowSeconds: number,
  opts: { tamper?: WechatTamper; ageSeconds?: number } = {},
) {
  const tx = wechatTransaction(row);
  if (opts.tamper === 'mchid') tx.mchid = '1900000000';
  if (opts.tamper === 'appid') tx.appid = 'wx-other-app';
  if (opts.tamper === 'amount') tx.amount = { ...tx.amount, total: tx.amount.total + 1, payer_total: tx.amount.total + 1 };
  return encryptedNotification(
    tx,
    { eventType: 'TRANSACTION.SUCCESS', summary: '支付成功', originalType: 'transaction' },
    keys,
    nowSeconds,
    opts,
  );
}

/**
 * What the WeChat client checks before it shows its payment sheet: the JSAPI parameters are for this
 * merchant's app and this prepay id, and the pay-sign is the merchant key's RSA-SHA256 over
 * `appId\ntimeStamp\nnonceStr\npackage\n`.
 */
function paySignValid(
  keys: WechatStandInKeys,
  prepayId: string,
  p: { appId?: string; timeStamp?: string; nonceStr?: string; package?: string; signType?: string; paySign?: string },
): boolean {
  if (p.appId !== keys.appId || p.package !== `prepay_id=${prepayId}` || p.signType !== 'RSA' || !p.timeStamp || !p.nonceStr || !p.paySign)
    return false;
  return rsaVerify(paySignMessage(p.appId, p.timeStamp, p.nonceStr, p.package), p.paySign, keys.merchant.publicKey);
}

/** The stand-in's routes; `deliver` carries notifications to the merchant (a test may override it on standIns). */
export function wechatPayStandIn(standIns: PaymentStandIns, deliver: FetchLike) {
  const keys = standIns.wechat;
  return createRouter()
    .openapi(jsapi, async (c) => {
      const raw = await c.req.text();
      const refused = refuseSignature(c, keys, raw);
      if (refused) return fail(401, 'SIGN_ERROR', refused);
      const { db, clock } = c.var.deps;
      const parsed = z
        .object({
          appid: z.literal(keys.appId),
          mchid: z.literal(keys.mchId),
          description: z.string().min(1).max(127),
          out_trade_no: z.string().regex(/^[A-Za-z0-9_*|-]{6,32}$/),
          notify_url: z.string().url(),
          time_expire: z
            .string()
            .refine((v) => parseRfc3339(v) !== undefined)
            .optional(),
          amount: z.object({ total: z.number().int().positive(), currency: z.literal('CNY').optional() }),
          payer: z.object({ openid: z.string().min(1).max(128) }),
        })
        .safeParse(
          (() => {
            try {
              return JSON.parse(raw) as unknown;
            } catch {
              return undefined;
            }
          })(),
        );
      if (!parsed.success) return fail(400, 'PARAM_ERROR', parsed.error.issues[0]?.path.join('.') || 'body');
      const b = parsed.data;
      // an open id belongs to one app: only one the messaging app's OAuth (our stand-in) issued for this appid is a payer
      const [issued] = await db
        .select({ openId: wechatStandInOpenIds.openId })
        .from(wechatStandInOpenIds)
        .where(and(eq(wechatStandInOpenIds.appId, keys.appId), eq(wechatStandInOpenIds.openId, b.payer.openid)))
        .limit(1);
      if (!issued) return fail(400, 'PARAM_ERROR', 'appid和openid不匹配');
      // the same out_trade_no with the same parameters is the same prepay, even asked for twice at once (as at WeChat Pay)
      await db
        .insert(payStandInOrders)
        .values({
          provider: 'wechat',
          merchantId: keys.mchId,
          appId: keys.appId,
          outTradeNo: b.out_trade_no,
          prepayId: `wx${digits('', 34)}`,
          amountCents: b.amount.total,
          description: b.description,
          payerOpenId: b.payer.openid,
          notifyUrl: b.notify_url,
          state: STATES.waiting,
          expiresAt: parseRfc3339(b.time_expire) ?? null,
          createdAt: clock.now(),
        })
        .onConflictDoNothing({ target: [payStandInOrders.provider, payStandInOrders.merchantId, payStandInOrders.outTradeNo] });
      const existing = (await byOutTradeNo(c, b.out_trade_no))!;
      if (existing.state === 'SUCCESS' || existing.state === 'REFUND') return fail(400, 'ORDERPAID', 'order already paid');
      if (existing.state === CLOSED) return fail(400, 'ORDER_CLOSED', 'order closed');
      if (existing.amountCents !== b.amount.total || existing.payerOpenId !== b.payer.openid)
        return fail(400, 'INVALID_REQUEST', 'out_trade_no reused with other parameters');
      return signedJson(c, keys, { prepay_id: existing.prepayId });
    })
    .openapi(query, async (c) => {
      const refused = refuseSignature(c, keys, '');
      if (refused) return fail(401, 'SIGN_ERROR', refused);
      const { out_trade_no } = c.req.valid('param');
      if (c.req.valid('query').mchid !== keys.mchId) return fail(404, 'ORDER_NOT_EXIST', 'order does not exist');
      const row = await byOutTradeNo(c, out_trade_no);
      if (!row) return fail(404, 'ORDER_NOT_EXIST', 'order does not exist');
      return signedJson(c, keys, wechatTransaction(row));
    })
    .openapi(close, async (c) => {
      const raw = await c.req.text();
      const refused = refuseSignature(c, keys, raw);
      if (refused) return fail(401, 'SIGN_ERROR', refused);
      const body = (() => {
        try {
          return JSON.parse(raw) as { mchid?: unknown };
        } catch {
          return undefined;
        }
      })();
      if (body?.mchid !== keys.mchId) return fail(400, 'PARAM_ERROR', 'mchid');
      const { out_trade_no } = c.req.valid('param');
      const row = await byOutTradeNo(c, out_trade_no);
      if (!row) return fail(404, 'ORDER_NOT_EXIST', 'order does not exist');
      const closed = await closeStandInOrder(c.var.deps.db, row.id, [STATES.waiting, STATES.failed, CLOSED], CLOSED);
      if (closed === 'not_closable') return fail(400, 'ORDERPAID', 'order already paid');
      return signedEmpty(c, keys);
    })
    .openapi(simulate, async (c) => {
      const b = c.req.valid('json');
      const row = await byPrepayId(c, b.prepayId);
      if (!row) return fail(404, 'ORDER_NOT_EXIST', 'unknown prepay id');
      const done = await settleAndNotify(c, row, b.outcome, b);
      if (done === 'expired') return fail(409, 'ORDER_CLOSED', 'past time_expire: the order can no longer be paid');
      if (done === 'conflict') return fail(409, 'ORDER_SETTLED', 'order already settled the other way (or closed)');
      return ok(c, { outTradeNo: done.settled.outTradeNo, state: done.settled.state, deliveries: done.deliveries });
    })
    .openapi(cashierPage, async (c) => {
      const q = c.req.valid('query');
      const row = await byPrepayId(c, q.prepay_id);
      if (!row) return c.html(html`<!doctype html><title>WeChat Pay stand-in</title><p>ORDER_NOT_EXIST</p>`, 404);
      if (q.paySign !== undefined && !paySignValid(keys, q.prepay_id, q))
        return c.html(html`<!doctype html><title>WeChat Pay stand-in</title><p>PAY_SIGN_INVALID</p>`, 400);
      return c.html(html`<!doctype html>
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <title>WeChat Pay stand-in</title>
        <h1>WeChat Pay stand-in</h1>
        <p>${row.description}</p>
        <p>¥${(row.amountCents / 100).toFixed(2)} (${row.state})</p>
        <form method="post" action="cashier">
          <input type="hidden" name="prepay_id" value="${row.prepayId ?? ''}" /><input type="hidden" name="return_url" value="${q.return_url ?? ''}" />
          <button name="outcome" value="pay">Pay</button> <button name="outcome" value="fail">Fail</button>
        </form>`);
    })
    .openapi(cashierPost, async (c) => {
      const form = await formFields(c);
      const prepayId = form.prepay_id ?? '';
      const outcome = form.outcome === 'pay' || form.outcome === 'fail' ? form.outcome : undefined;
      const row = prepayId ? await byPrepayId(c, prepayId) : undefined;
      if (!row || !outcome) return c.html(html`<!doctype html><title>WeChat Pay stand-in</title><p>ORDER_NOT_EXIST</p>`, 400);
      const done = await settleAndNotify(c, row, outcome);
      if (done === 'expired' || done === 'conflict')
        return c.html(
          html`<!doctype html><title>WeChat Pay stand-in</title><p>${done === 'expired' ? 'ORDER_CLOSED' : 'ORDER_SETTLED'}</p>`,
          400,
        );
      const back = sameOrigin(form.return_url ?? '', c.var.deps.config.publicUrl);
      return back
        ? c.redirect(back, 302)
        : c.html(html`<!doctype html><title>WeChat Pay stand-in</title><p>${done.settled.state}</p>`, 200);
    });

  async function byOutTradeNo(c: Context<AppEnv>, outTradeNo: string): Promise<StandInOrder | undefined> {
    const [row] = await c.var.deps.db
      .select()
      .from(payStandInOrders)
      .where(
        and(
          eq(payStandInOrders.provider, 'wechat'),
          eq(payStandInOrders.merchantId, keys.mchId),
          eq(payStandInOrders.outTradeNo, outTradeNo),
        ),
      )
      .limit(1);
    return row;
  }

  async function byPrepayId(c: Context<AppEnv>, prepayId: string): Promise<StandInOrder | undefined> {
    const [row] = await c.var.deps.db
      .select()
      .from(payStandInOrders)
      .where(and(eq(payStandInOrders.provider, 'wechat'), eq(payStandInOrders.prepayId, prepayId)))
      .limit(1);
    return row;
  }

  /** Settles the order and, on success, sends the notification `deliveries` times (WeChat Pay does not notify failures). */
  async function settleAndNotify(
    c: Context<AppEnv>,
    row: StandInOrder,
    outcome: 'pay' | 'fail',
    opts: { deliveries?: number; tamper?: WechatTamper; ageSeconds?: number } = {},
  ) {
    const { db, clock } = c.var.deps;
    const settled = await settleStandInOrder(db, clock, row.id, STATES, outcome, () => digits('4200', 24));
    if (typeof settled === 'string') return settled;
    const deliveries: { status: number; body: string }[] = [];
    if (settled.state === STATES.paid) {
      const send = standIns.notifyFetch ?? deliver;
      for (let i = 0; i < (opts.deliveries ?? 1); i++) {
        const note = wechatNotification(settled, keys, Math.floor(clock.now().getTime() / 1000), opts);
        deliveries.push(await deliverNotification(send, settled.notifyUrl, { headers: note.headers, body: note.body }));
      }
    }
    return { settled, deliveries };
  }
}
