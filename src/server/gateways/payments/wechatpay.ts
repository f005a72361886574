import type { Clock } from '../../../domain/clock';
import type { FetchLike } from '../sms';
import {
  NotificationRefused,
  PaymentProviderError,
  type PaymentGateway,
  type PaymentQueryResult,
  type PaymentResult,
  type RefundResult,
  type RefundStatus,
} from './types';
import { aesGcmDecrypt, beijingIso, jsapiPayParams, newNonce, signRequest, verifySignedHeaders, type KeyLike } from './wechatpay-v3';

export interface WechatPaySettings {
  mchId: string;
  appId: string;
  /** serial number of the merchant API certificate whose key signs our requests */
  serialNo: string;
  privateKey: KeyLike;
  /** 32-character APIv3 key that decrypts notification resources */
  apiV3Key: string;
  /** WeChat Pay's keys by serial (platform certificates, or the public key id) */
  platformKeys: ReadonlyMap<string, KeyLike>;
  /** https://api.mch.weixin.qq.com, or our stand-in */
  base: string;
}

/** The transaction object of a query answer and of a decrypted notification resource. */
export interface WechatTransaction {
  appid?: string;
  mchid?: string;
  out_trade_no?: string;
  transaction_id?: string;
  trade_type?: string;
  trade_state?: string;
  trade_state_desc?: string;
  success_time?: string;
  payer?: { openid?: string };
  amount?: { total?: number; payer_total?: number; currency?: string; payer_currency?: string };
}

interface WechatNotificationBody {
  id?: string;
  event_type?: string;
  resource_type?: string;
  resource?: { algorithm?: string; ciphertext?: string; nonce?: string; associated_data?: string; original_type?: string };
}

/** The refund object of a refund answer, a refund query and a decrypted REFUND.* notification resource. */
export interface WechatRefund {
  refund_id?: string;
  out_refund_no?: string;
  transaction_id?: string;
  out_trade_no?: string;
  mchid?: string;
  /** the answer's and the query's name */
  status?: string;
  /** the notification's name */
  refund_status?: string;
  success_time?: string;
  amount?: { total?: number; refund?: number; payer_total?: number; payer_refund?: number; currency?: string };
}

/** WeChat Pay's refund states as ours (PROCESSING is never notified). */
const REFUND_STATUS: Record<string, RefundStatus> = {
  SUCCESS: 'succeeded',
  PROCESSING: 'processing',
  CLOSED: 'closed',
  ABNORMAL: 'abnormal',
};

/**
 * Refusals of a refund request that are business rules, not accidents: the refund is `failed` with the
 * provider's code and words (asking again under the same number would be refused again). Anything else
 * (SYSTEM_ERROR, FREQUENCY_LIMITED, SIGN_ERROR, 5xx, no answer) is thrown and retried under the same number.
 */
const REFUND_REFUSALS = new Set([
  'INVALID_REQUEST',
  'NOT_ENOUGH',
  'NO_AUTH',
  'USER_ACCOUNT_ABNORMAL',
  'RESOURCE_NOT_EXISTS',
  'PARAM_ERROR',
  'MCH_NOT_EXISTS',
]);

/** A refund object in the shape every provider shares; throws when it is not one we can read. */
function refundResult(r: WechatRefund, state: string | undefined, outRefundNo: string): RefundResult {
  const status = state === undefined ? undefined : REFUND_STATUS[state];
  if (!status) throw new PaymentProviderError('wechat', 'MALFORMED', `unknown refund status ${String(state)}`);
  if (r.out_refund_no !== outRefundNo) throw new PaymentProviderError('wechat', 'MISMATCH', 'answer is for another refund');
  const amount = r.amount?.refund;
  return {
    provider: 'wechat',
    outRefundNo,
    status,
    providerRefundId: r.refund_id || null,
    amountCents: Number.isSafeInteger(amount) ? amount! : null,
  };
}

const seconds = (clock: Clock) => Math.floor(clock.now().getTime() / 1000);

function paidAtOf(tx: WechatTransaction): Date | null {
  if (!tx.success_time) return null;
  const d = new Date(tx.success_time);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** A settled transaction in the shape every provider shares; undefined while it is not settled. */
function settled(tx: WechatTransaction): PaymentResult | undefined {
  const state = tx.trade_state;
  const status =
    state === 'SUCCESS' || state === 'REFUND'
      ? 'paid'
      : state === 'CLOSED' || state === 'REVOKED' || state === 'PAYERROR'
        ? 'failed'
        : undefined;
  if (!status) return undefined;
  return {
    provider: 'wechat',
    // WeChat Pay has no transaction id for a transaction that was never paid (CLOSED, PAYERROR)
    providerTxnId: tx.transaction_id || null,
    orderNo: tx.out_trade_no ?? '',
    amountCents: tx.amount?.total ?? 0,
    merchantId: tx.mchid ?? '',
    appId: tx.appid ?? '',
    status,
    paidAt: status === 'paid' ? paidAtOf(tx) : null,
  };
}

/**
 * The messaging app's payment in the WeChat Pay API v3 style: JSAPI prepay, the page's pay-sign,
 * notifications verified from the raw body and decrypted, and the order query. The same code talks to
 * the real provider and to our stand-in; only the base URL and the keys differ.
 */
export function wechatPayGateway(settings: WechatPaySettings, deps: { clock: Clock; fetch?: FetchLike }): PaymentGateway {
  const doFetch: FetchLike = deps.fetch ?? ((url, init) => fetch(url, init));

  /** One signed call; the answer must carry a valid platform signature too. */
  async function call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
    const text = body === undefined ? '' : JSON.stringify(body);
    const authorization = signRequest({
      method,
      url: path,
      body: text,
      mchid: settings.mchId,
      serialNo: settings.serialNo,
      privateKey: settings.privateKey,
      timestamp: seconds(deps.clock),
      nonce: newNonce(),
    });
    let res: Response;
    let answer: string;
    try {
      res = await doFetch(`${settings.base}${path}`, {
        method,
        headers: {
          Authorization: authorization,
          Accept: 'application/json',
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : text,
        signal: AbortSignal.timeout(10_000),
      });
      answer = await res.text();
    } catch (err) {
      throw new PaymentProviderError('wechat', 'NETWORK', err instanceof Error ? err.message : String(err));
    }
    let json: Record<string, unknown>;
    try {
      json = answer ? (JSON.parse(answer) as Record<string, unknown>) : {};
    } catch {
      throw new PaymentProviderError('wechat', `HTTP_${res.status}`, 'unreadable answer');
    }
    // an answer we cannot attribute to WeChat Pay is never believed (errors are signed too, but we only need to trust successes)
    if (res.ok) {
      const check = verifySignedHeaders(answer, res.headers, settings.platformKeys, seconds(deps.clock));
      if (!check.ok) throw new PaymentProviderError('wechat', 'ANSWER_NOT_VERIFIED', check.reason);
    }
    return { status: res.status, json };
  }

  /**
   * A notification verified as decision 005 says (platform signature over the raw body, five minutes of
   * skew) and its AEAD_AES_256_GCM resource decrypted; its event type must be of the expected kind, so a
   * refund's notification never passes for a payment's, nor the other way round.
   */
  function openNotification<T>(rawBody: string, headers: Headers, eventPrefix: 'TRANSACTION.' | 'REFUND.'): T {
    const check = verifySignedHeaders(rawBody, headers, settings.platformKeys, seconds(deps.clock));
    if (!check.ok) throw new NotificationRefused(check.reason);
    let note: WechatNotificationBody;
    try {
      note = JSON.parse(rawBody) as WechatNotificationBody;
    } catch {
      throw new NotificationRefused('malformed', 'body is not JSON');
    }
    if (typeof note.event_type !== 'string' || !note.event_type.startsWith(eventPrefix)) {
      throw new NotificationRefused('malformed', `event ${String(note.event_type)} is not ${eventPrefix}*`);
    }
    const r = note.resource;
    if (!r || r.algorithm !== 'AEAD_AES_256_GCM' || typeof r.ciphertext !== 'string' || typeof r.nonce !== 'string') {
      throw new NotificationRefused('malformed', 'no AEAD_AES_256_GCM resource');
    }
    try {
      return JSON.parse(aesGcmDecrypt(r.ciphertext, settings.apiV3Key, r.nonce, r.associated_data ?? '')) as T;
    } catch {
      throw new NotificationRefused('bad_decrypt');
    }
  }

  return {
    method: 'wechat',

    async createPayment(input) {
      if (!input.payerOpenId) throw new PaymentProviderError('wechat', 'PARAM_ERROR', 'JSAPI needs the payer open id');
      const { status, json } = await call('POST', '/v3/pay/transactions/jsapi', {
        appid: settings.appId,
        mchid: settings.mchId,
        description: input.description,
        out_trade_no: input.orderNo,
        notify_url: input.notifyUrl,
        // RFC 3339 in Beijing time, whole seconds cut down (never later than the order's own expiry)
        ...(input.expiresAt ? { time_expire: beijingIso(input.expiresAt) } : {}),
        amount: { total: input.amountCents, currency: 'CNY' },
        payer: { openid: input.payerOpenId },
      });
      const prepayId = json.prepay_id;
      if (status !== 200 || typeof prepayId !== 'string' || !prepayId) {
        throw new PaymentProviderError('wechat', String(json.code ?? `HTTP_${status}`), String(json.message ?? 'prepay failed'));
      }
      return {
        method: 'wechat',
        prepayId,
        jsapi: jsapiPayParams(settings.appId, prepayId, settings.privateKey, seconds(deps.clock), newNonce()),
      };
    },

    parseNotification(rawBody, headers) {
      const tx = openNotification<WechatTransaction>(rawBody, headers, 'TRANSACTION.');
      if (tx.mchid !== settings.mchId) throw new NotificationRefused('merchant_mismatch');
      if (tx.appid !== settings.appId) throw new NotificationRefused('app_mismatch');
      const result = settled(tx);
      if (!result || !result.orderNo || !result.providerTxnId || !Number.isSafeInteger(result.amountCents)) {
        throw new NotificationRefused('malformed', 'transaction is incomplete or not settled');
      }
      return result;
    },

    notificationAnswer(accepted) {
      return accepted
        ? { status: 204, body: '' }
        : { status: 400, contentType: 'application/json', body: JSON.stringify({ code: 'FAIL', message: 'rejected' }) };
    },

    async queryOrder(orderNo): Promise<PaymentQueryResult> {
      const path = `/v3/pay/transactions/out-trade-no/${encodeURIComponent(orderNo)}?mchid=${encodeURIComponent(settings.mchId)}`;
      const { status, json } = await call('GET', path);
      if (status === 404 || json.code === 'ORDER_NOT_EXIST') return { provider: 'wechat', orderNo, status: 'not_found' };
      if (status !== 200)
        throw new PaymentProviderError('wechat', String(json.code ?? `HTTP_${status}`), String(json.message ?? 'query failed'));
      const tx = json as WechatTransaction;
      if (tx.out_trade_no !== orderNo) throw new PaymentProviderError('wechat', 'MISMATCH', 'answer is for another order');
      if (tx.mchid !== settings.mchId || tx.appid !== settings.appId)
        throw new PaymentProviderError('wechat', 'MISMATCH', 'answer is for another merchant');
      const result = settled(tx);
      if (result?.status === 'paid' && !result.providerTxnId)
        throw new PaymentProviderError('wechat', 'MALFORMED', 'a paid transaction without transaction_id');
      return result ?? { provider: 'wechat', orderNo, status: 'pending' };
    },

    async close(orderNo) {
      const { status, json } = await call('POST', `/v3/pay/transactions/out-trade-no/${encodeURIComponent(orderNo)}/close`, {
        mchid: settings.mchId,
      });
      if (status === 204 || status === 200 || json.code === 'ORDER_CLOSED') return 'closed';
      if (status === 404 || json.code === 'ORDER_NOT_EXIST') return 'not_found';
      if (json.code === 'ORDERPAID') return 'not_closable';
      throw new PaymentProviderError('wechat', String(json.code ?? `HTTP_${status}`), String(json.message ?? 'close failed'));
    },

    async refund(input) {
      const { status, json } = await call('POST', '/v3/refund/domestic/refunds', {
        // WeChat Pay takes one of the two; the transaction id when we have it
        ...(input.providerTxnId ? { transaction_id: input.providerTxnId } : { out_trade_no: input.outTradeNo }),
        out_refund_no: input.outRefundNo,
        // shown to the payer; WeChat Pay takes at most 80 characters
        ...(input.reason ? { reason: [...input.reason].slice(0, 80).join('') } : {}),
        ...(input.notifyUrl ? { notify_url: input.notifyUrl } : {}),
        amount: { refund: input.amountCents, total: input.totalCents, currency: 'CNY' },
      });
      if (status === 200) {
        const r = json as WechatRefund;
        if (r.out_trade_no !== undefined && r.out_trade_no !== input.outTradeNo)
          throw new PaymentProviderError('wechat', 'MISMATCH', 'answer is for another trade');
        return refundResult(r, r.status, input.outRefundNo);
      }
      const code = typeof json.code === 'string' ? json.code : `HTTP_${status}`;
      const message = typeof json.message === 'string' ? json.message : 'refund failed';
      if (status < 500 && REFUND_REFUSALS.has(code)) {
        return {
          provider: 'wechat',
          outRefundNo: input.outRefundNo,
          status: 'failed',
          providerRefundId: null,
          amountCents: null,
          failureCode: code,
          failureMessage: message,
        };
      }
      throw new PaymentProviderError('wechat', code, message);
    },

    async queryRefund(outTradeNo, outRefundNo) {
      const { status, json } = await call('GET', `/v3/refund/domestic/refunds/${encodeURIComponent(outRefundNo)}`);
      if (status === 404 || json.code === 'RESOURCE_NOT_EXISTS')
        return { provider: 'wechat', outRefundNo, status: 'not_found', providerRefundId: null, amountCents: null };
      if (status !== 200)
        throw new PaymentProviderError('wechat', String(json.code ?? `HTTP_${status}`), String(json.message ?? 'refund query failed'));
      const r = json as WechatRefund;
      if (r.out_trade_no !== outTradeNo) throw new PaymentProviderError('wechat', 'MISMATCH', 'answer is for another trade');
      return refundResult(r, r.status, outRefundNo);
    },

    parseRefundNotification(rawBody, headers) {
      const r = openNotification<WechatRefund>(rawBody, headers, 'REFUND.');
      if (r.mchid !== settings.mchId) throw new NotificationRefused('merchant_mismatch');
      const status = r.refund_status === undefined ? undefined : REFUND_STATUS[r.refund_status];
      // WeChat Pay notifies SUCCESS, ABNORMAL and CLOSED only
      if (!status || status === 'processing' || !r.out_refund_no || !r.out_trade_no)
        throw new NotificationRefused('malformed', 'refund is incomplete or not settled');
      return refundResult(r, r.refund_status, r.out_refund_no);
    },
  };
}
