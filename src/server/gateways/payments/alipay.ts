import type { Clock } from '../../../domain/clock';
import type { FetchLike } from '../sms';
import {
  alipayTimestamp,
  centsToYuan,
  notifySignContent,
  parseAlipayTimestamp,
  rsa2Verify,
  signRequestParams,
  yuanToCents,
  type KeyLike,
} from './alipay-rsa2';
import {
  NotificationRefused,
  PaymentProviderError,
  type PaymentGateway,
  type PaymentQueryResult,
  type PaymentResult,
  type RefundResult,
} from './types';

export interface AlipaySettings {
  appId: string;
  /** the app's private key (signs our requests) */
  privateKey: KeyLike;
  /** Alipay's public key (verifies answers and notifications) */
  alipayPublicKey: KeyLike;
  /** https://openapi.alipay.com/gateway.do, or our stand-in */
  gateway: string;
  /** the merchant's partner id (2088…); when set, notifications for another seller are refused */
  sellerId?: string;
}

/** The fields of alipay.trade.query's answer we read. */
interface TradeQueryAnswer {
  code?: string;
  msg?: string;
  sub_code?: string;
  sub_msg?: string;
  trade_no?: string;
  out_trade_no?: string;
  trade_status?: string;
  total_amount?: string;
  send_pay_date?: string;
}

/** The fields of alipay.trade.refund's and alipay.trade.fastpay.refund.query's answers we read. */
interface RefundAnswer {
  code?: string;
  msg?: string;
  sub_code?: string;
  sub_msg?: string;
  trade_no?: string;
  out_trade_no?: string;
  /** the refund's: Y when this call moved money, N when it did not (a repeat, or not done yet) */
  fund_change?: string;
  /** the query's */
  out_request_no?: string;
  refund_amount?: string;
  refund_status?: string;
}

/** A notification that reports a refund: Alipay's trade notification after a refund carries these (decision 021). */
const isRefundNotification = (params: Record<string, string>) => Boolean(params.out_biz_no || params.refund_fee || params.gmt_refund);

const statusOf = (tradeStatus: string | undefined) =>
  tradeStatus === 'TRADE_SUCCESS' || tradeStatus === 'TRADE_FINISHED' ? 'paid' : tradeStatus === 'TRADE_CLOSED' ? 'failed' : undefined;

/**
 * The raw JSON text of `<method>_response` inside an answer, exactly as signed: Alipay signs the bytes
 * of that object, so it is cut from the answer text, never re-serialized.
 */
export function signedAnswerPart(answer: string, responseKey: string): string | undefined {
  const start = answer.indexOf(`"${responseKey}"`);
  const signAt = answer.lastIndexOf('"sign"');
  if (start < 0 || signAt < start) return undefined;
  const colon = answer.indexOf(':', start + responseKey.length + 2);
  const end = answer.lastIndexOf(',', signAt);
  if (colon < 0 || end <= colon) return undefined;
  return answer.slice(colon + 1, end).trim();
}

/**
 * The mobile payment service in the Alipay style: alipay.trade.wap.pay as a signed redirect (or form),
 * RSA2 notification verification of the sorted parameters, and alipay.trade.query as the fallback.
 */
export function alipayGateway(settings: AlipaySettings, deps: { clock: Clock; fetch?: FetchLike }): PaymentGateway {
  const doFetch: FetchLike = deps.fetch ?? ((url, init) => fetch(url, init));

  const common = (method: string) => ({
    app_id: settings.appId,
    method,
    format: 'JSON',
    charset: 'utf-8',
    sign_type: 'RSA2',
    timestamp: alipayTimestamp(deps.clock.now()),
    version: '1.0',
  });

  /** One signed OpenAPI call (form-urlencoded POST); the `<method>_response` object and the answer's text and sign. */
  async function openApi<T>(
    method: string,
    biz: Record<string, unknown>,
  ): Promise<{ answer: string; parsed: T; sign: string | undefined }> {
    const fields = signRequestParams({ ...common(method), biz_content: JSON.stringify(biz) }, settings.privateKey);
    let answer: string;
    try {
      const res = await doFetch(settings.gateway, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded;charset=utf-8', Accept: 'application/json' },
        body: new URLSearchParams(fields).toString(),
        signal: AbortSignal.timeout(10_000),
      });
      answer = await res.text();
    } catch (err) {
      throw new PaymentProviderError('alipay', 'NETWORK', err instanceof Error ? err.message : String(err));
    }
    const key = `${method.replace(/\./g, '_')}_response`;
    let parsed: Record<string, unknown> & { sign?: string };
    try {
      parsed = JSON.parse(answer) as typeof parsed;
    } catch {
      throw new PaymentProviderError('alipay', 'UNREADABLE', 'answer is not JSON');
    }
    const r = parsed[key];
    if (!r || typeof r !== 'object') throw new PaymentProviderError('alipay', 'UNREADABLE', `no ${key}`);
    return { answer, parsed: r as T, sign: parsed.sign };
  }

  /** Alipay signs the exact bytes of `<method>_response`; an answer that does not verify is never believed. */
  function verifyAnswer(answer: string, method: string, sign: string | undefined): void {
    const part = signedAnswerPart(answer, `${method.replace(/\./g, '_')}_response`);
    if (!part || !sign || !rsa2Verify(part, sign, settings.alipayPublicKey)) {
      throw new PaymentProviderError('alipay', 'ANSWER_NOT_VERIFIED', 'bad answer signature');
    }
  }

  /** A notification's parameters once its RSA2 signature, app and seller are verified (decision 005). */
  function verifiedNotification(rawBody: string): Record<string, string> {
    const params: Record<string, string> = {};
    for (const [k, v] of new URLSearchParams(rawBody)) params[k] = v;
    const signature = params.sign;
    if (!signature || (params.sign_type && params.sign_type !== 'RSA2')) throw new NotificationRefused('malformed', 'no RSA2 sign');
    if (!rsa2Verify(notifySignContent(params), signature, settings.alipayPublicKey)) throw new NotificationRefused('bad_signature');
    if (params.app_id !== settings.appId) throw new NotificationRefused('app_mismatch');
    if (settings.sellerId && params.seller_id !== settings.sellerId) throw new NotificationRefused('merchant_mismatch');
    return params;
  }

  /** A business refusal (ACQ.*, but not ACQ.SYSTEM_ERROR, which is retried) as a failed refund; anything else throws. */
  function refused(r: RefundAnswer, outRefundNo: string): RefundResult {
    const code = r.sub_code ?? r.code ?? 'UNKNOWN';
    if (r.code === '40004' && code.startsWith('ACQ.') && code !== 'ACQ.SYSTEM_ERROR') {
      return {
        provider: 'alipay',
        outRefundNo,
        status: 'failed',
        providerRefundId: null,
        amountCents: null,
        failureCode: code,
        failureMessage: r.sub_msg ?? r.msg ?? '',
      };
    }
    throw new PaymentProviderError('alipay', code, r.sub_msg ?? r.msg ?? '');
  }

  return {
    method: 'alipay',

    async createPayment(input) {
      const params: Record<string, string> = {
        ...common('alipay.trade.wap.pay'),
        notify_url: input.notifyUrl,
        ...(input.returnUrl ? { return_url: input.returnUrl } : {}),
        biz_content: JSON.stringify({
          out_trade_no: input.orderNo,
          total_amount: centsToYuan(input.amountCents),
          subject: input.description,
          product_code: 'QUICK_WAP_WAY',
          ...(input.returnUrl ? { quit_url: input.returnUrl } : {}),
          // absolute expiry in Beijing time: Alipay refuses to create or pay the trade after it
          ...(input.expiresAt ? { time_expire: alipayTimestamp(input.expiresAt) } : {}),
        }),
      };
      const fields = signRequestParams(params, settings.privateKey);
      const sep = settings.gateway.includes('?') ? '&' : '?';
      return {
        method: 'alipay',
        url: `${settings.gateway}${sep}${new URLSearchParams(fields).toString()}`,
        form: { action: `${settings.gateway}${sep}charset=utf-8`, fields },
      };
    },

    parseNotification(rawBody) {
      const params = verifiedNotification(rawBody);
      // a trade notification sent after a refund (a full one reads TRADE_CLOSED) is the refund's, never a payment
      if (isRefundNotification(params)) {
        if (!params.out_trade_no || !params.out_biz_no)
          throw new NotificationRefused('malformed', 'refund notification without out_biz_no');
        return { provider: 'alipay', orderNo: params.out_trade_no, status: 'refund', outRefundNo: params.out_biz_no };
      }
      // the trade exists but is not paid: acknowledged (Alipay stops resending), never applied
      if (params.trade_status === 'WAIT_BUYER_PAY' && params.out_trade_no)
        return { provider: 'alipay', orderNo: params.out_trade_no, status: 'pending' };
      const status = statusOf(params.trade_status);
      const amountCents = yuanToCents(params.total_amount);
      if (!status || !params.out_trade_no || !params.trade_no || amountCents === undefined) {
        throw new NotificationRefused('malformed', 'trade is incomplete or not settled');
      }
      return {
        provider: 'alipay',
        providerTxnId: params.trade_no,
        orderNo: params.out_trade_no,
        amountCents,
        merchantId: params.seller_id ?? '',
        appId: settings.appId,
        status,
        paidAt: status === 'paid' ? (parseAlipayTimestamp(params.gmt_payment) ?? null) : null,
      };
    },

    notificationAnswer(accepted) {
      return { status: 200, contentType: 'text/plain; charset=utf-8', body: accepted ? 'success' : 'fail' };
    },

    async queryOrder(orderNo): Promise<PaymentQueryResult> {
      const { answer, parsed: r, sign } = await openApi<TradeQueryAnswer>('alipay.trade.query', { out_trade_no: orderNo });
      if (r.code !== '10000') {
        if (r.sub_code === 'ACQ.TRADE_NOT_EXIST') return { provider: 'alipay', orderNo, status: 'not_found' };
        throw new PaymentProviderError('alipay', r.sub_code ?? r.code ?? 'UNKNOWN', r.sub_msg ?? r.msg ?? '');
      }
      verifyAnswer(answer, 'alipay.trade.query', sign);
      if (r.out_trade_no !== orderNo) throw new PaymentProviderError('alipay', 'MISMATCH', 'answer is for another order');
      const status = statusOf(r.trade_status);
      const amountCents = yuanToCents(r.total_amount);
      if (!status || !r.trade_no || amountCents === undefined) return { provider: 'alipay', orderNo, status: 'pending' };
      const result: PaymentResult = {
        provider: 'alipay',
        providerTxnId: r.trade_no,
        orderNo,
        amountCents,
        merchantId: settings.sellerId ?? '',
        appId: settings.appId,
        status,
        paidAt: status === 'paid' ? (parseAlipayTimestamp(r.send_pay_date) ?? null) : null,
      };
      return result;
    },

    async close(orderNo) {
      const { answer, parsed: r, sign } = await openApi<TradeQueryAnswer>('alipay.trade.close', { out_trade_no: orderNo });
      // a signed answer is checked whatever it says; success must be signed
      if (sign || r.code === '10000') verifyAnswer(answer, 'alipay.trade.close', sign);
      if (r.code === '10000') {
        if (r.out_trade_no !== undefined && r.out_trade_no !== orderNo)
          throw new PaymentProviderError('alipay', 'MISMATCH', 'answer is for another order');
        return 'closed';
      }
      if (r.sub_code === 'ACQ.TRADE_NOT_EXIST') return 'not_found';
      // paid (or finished, or already closed): only a query tells which
      if (r.sub_code === 'ACQ.TRADE_STATUS_ERROR') return 'not_closable';
      throw new PaymentProviderError('alipay', r.sub_code ?? r.code ?? 'UNKNOWN', r.sub_msg ?? r.msg ?? '');
    },

    async refund(input) {
      const method = 'alipay.trade.refund';
      const {
        answer,
        parsed: r,
        sign,
      } = await openApi<RefundAnswer>(method, {
        out_trade_no: input.outTradeNo,
        ...(input.providerTxnId ? { trade_no: input.providerTxnId } : {}),
        refund_amount: centsToYuan(input.amountCents),
        out_request_no: input.outRefundNo,
        // Alipay takes at most 256 characters
        ...(input.reason ? { refund_reason: [...input.reason].slice(0, 256).join('') } : {}),
      });
      // a signed answer is checked whatever it says; success must be signed
      if (sign || r.code === '10000') verifyAnswer(answer, method, sign);
      if (r.code !== '10000') return refused(r, input.outRefundNo);
      if (r.out_trade_no !== undefined && r.out_trade_no !== input.outTradeNo)
        throw new PaymentProviderError('alipay', 'MISMATCH', 'answer is for another order');
      // Y: this call moved the money; N: it did not (asked before, or not done yet): only the query tells which
      const status = r.fund_change === 'Y' ? 'succeeded' : 'processing';
      return { provider: 'alipay', outRefundNo: input.outRefundNo, status, providerRefundId: null, amountCents: null };
    },

    async queryRefund(outTradeNo, outRefundNo) {
      const method = 'alipay.trade.fastpay.refund.query';
      const { answer, parsed: r, sign } = await openApi<RefundAnswer>(method, { out_trade_no: outTradeNo, out_request_no: outRefundNo });
      const notFound: RefundResult = { provider: 'alipay', outRefundNo, status: 'not_found', providerRefundId: null, amountCents: null };
      if (r.code !== '10000') {
        if (r.sub_code === 'ACQ.TRADE_NOT_EXIST') return notFound;
        throw new PaymentProviderError('alipay', r.sub_code ?? r.code ?? 'UNKNOWN', r.sub_msg ?? r.msg ?? '');
      }
      verifyAnswer(answer, method, sign);
      // without refund_status Alipay means "not received, or failed" (its documentation): ask again under the same number
      if (r.refund_status !== 'REFUND_SUCCESS') return notFound;
      if (r.out_request_no !== outRefundNo || (r.out_trade_no !== undefined && r.out_trade_no !== outTradeNo)) {
        throw new PaymentProviderError('alipay', 'MISMATCH', 'answer is for another refund');
      }
      return {
        provider: 'alipay',
        outRefundNo,
        status: 'succeeded',
        providerRefundId: null,
        amountCents: yuanToCents(r.refund_amount) ?? null,
      };
    },

    parseRefundNotification(rawBody) {
      const params = verifiedNotification(rawBody);
      if (!isRefundNotification(params) || !params.out_biz_no || !params.out_trade_no)
        throw new NotificationRefused('malformed', 'not a refund notification');
      // Alipay notifies a refund once the money is back; refund_fee is the trade's refunded total, not this refund's
      return { provider: 'alipay', outRefundNo: params.out_biz_no, status: 'succeeded', providerRefundId: null, amountCents: null };
    },
  };
}
