import type { PaymentStart } from '../../../domain/payment-start';
import type { PaymentStandIns } from './standin-keys';

/** The payment methods that go through an outside provider (balance is ours, not a gateway). */
export type PaymentMethod = 'wechat' | 'alipay';

/** What our order code asks a provider to collect. Amounts are integer cents end to end. */
export interface CreatePaymentInput {
  /** our order number (WeChat out_trade_no, Alipay out_trade_no) */
  orderNo: string;
  amountCents: number;
  description: string;
  /** the payer's open id in the messaging app (WeChat JSAPI needs it) */
  payerOpenId?: string;
  /** where the provider posts the result */
  notifyUrl: string;
  /** where the browser comes back after the mobile payment page (Alipay return_url) */
  returnUrl?: string;
  /**
   * when the provider must stop taking the payment: the order's expiry (WeChat `time_expire`, Alipay
   * `time_expire`), so that at our expiry a query and a close are final (decision 008)
   */
  expiresAt?: Date;
}

/** What the page needs to start paying (shared with the app, which hands it to the bridge or the cashier). */
export type { PaymentStart, WechatJsapiParams } from '../../../domain/payment-start';

/** A verified, decrypted payment result, the same for every provider. */
export interface PaymentResult {
  provider: PaymentMethod;
  /** the provider's transaction id; always there for a payment, null for a failure without one (WeChat Pay's CLOSED, PAYERROR) */
  providerTxnId: string | null;
  /** the out_trade_no the provider names: our attempt's `<orderNo>-<n>` (decision 013) */
  orderNo: string;
  amountCents: number;
  merchantId: string;
  appId: string;
  status: 'paid' | 'failed';
  paidAt: Date | null;
}

/**
 * A verified notification that settles nothing yet (Alipay WAIT_BUYER_PAY: the trade was created,
 * the buyer has not paid). It is acknowledged, so the provider stops resending it, and never applied.
 */
export interface PaymentPendingNotice {
  provider: PaymentMethod;
  orderNo: string;
  status: 'pending';
}

/**
 * A verified notification that is about a refund, not a payment: Alipay has no refund notification of
 * its own and posts the trade's notification (with `out_biz_no`, `refund_fee`, `gmt_refund`) to the
 * payment's notify URL after a refund. It must never settle a payment (a full refund's trade_status is
 * TRADE_CLOSED): the notify route hands the same body to `parseRefundNotification`.
 */
export interface PaymentRefundNotice {
  provider: PaymentMethod;
  orderNo: string;
  status: 'refund';
  /** the refund it reports (Alipay out_biz_no = our out_request_no) */
  outRefundNo: string;
}

/** What a verified notification says. */
export type PaymentNotice = PaymentResult | PaymentPendingNotice | PaymentRefundNotice;

/** What the payment-query fallback learns: the provider may also not have settled, or not know the order. */
export type PaymentQueryResult = PaymentResult | { provider: PaymentMethod; orderNo: string; status: 'pending' | 'not_found' };

/**
 * What closing a trade at the provider did: `closed` (closed now or before; it can never be paid),
 * `not_found` (the provider never created it: nothing to close), `not_closable` (the provider refuses,
 * because it was paid meanwhile: query it and settle).
 */
export type PaymentCloseResult = 'closed' | 'not_found' | 'not_closable';

/** Why a notification was refused. None of these may change an order. */
export type NotificationRefusalReason =
  | 'malformed'
  | 'bad_signature'
  | 'unknown_serial'
  | 'timestamp_skew'
  | 'bad_decrypt'
  | 'merchant_mismatch'
  | 'app_mismatch';

/** A notification that failed verification (typed, so the notify route can log and answer it). */
export class NotificationRefused extends Error {
  constructor(
    readonly reason: NotificationRefusalReason,
    detail = '',
  ) {
    super(`payment notification refused: ${reason}${detail ? ` (${detail})` : ''}`);
    this.name = 'NotificationRefused';
  }
}

/** The provider answered a call with an error, an unsigned answer, or not at all. */
export class PaymentProviderError extends Error {
  constructor(
    readonly provider: PaymentMethod,
    readonly code: string,
    message: string,
  ) {
    super(`${provider}: ${code} ${message}`);
    this.name = 'PaymentProviderError';
  }
}

/** The HTTP answer the provider expects after a notification was handled. */
export interface NotificationAnswer {
  status: number;
  contentType?: string;
  body: string;
}

/** What our refund code asks a provider to give back of one paid trade (decision 021). Cents end to end. */
export interface RefundInput {
  /** the trade's out_trade_no (our attempt's `<orderNo>-<n>`) */
  outTradeNo: string;
  /** the provider's transaction id of the payment (WeChat transaction_id, Alipay trade_no) */
  providerTxnId: string | null;
  /** our refund number, unique per try (`R<refundId>-<tryNo>`; WeChat out_refund_no, Alipay out_request_no) */
  outRefundNo: string;
  amountCents: number;
  /** what the trade took in all (WeChat amount.total) */
  totalCents: number;
  /** shown to the payer by the provider */
  reason: string;
  /** where the provider posts the refund's result (WeChat REFUND.* notifications) */
  notifyUrl: string;
}

/**
 * What a provider says of one refund: `succeeded` (the money is back with the payer), `processing`
 * (accepted, not done: query or wait for the notification), `closed` (WeChat CLOSED: never paid out,
 * may be asked again under a new number), `abnormal` (WeChat ABNORMAL: the payer's account refused it;
 * the provider's abnormal-refund process may still pay it), `failed` (refused as a business rule:
 * the reason is kept for staff), `not_found` (the provider knows no such refund).
 */
export type RefundStatus = 'succeeded' | 'processing' | 'closed' | 'abnormal' | 'failed' | 'not_found';

/** A provider's verified answer about one refund, the same for every provider. */
export interface RefundResult {
  provider: PaymentMethod;
  outRefundNo: string;
  status: RefundStatus;
  /** the provider's refund id (WeChat refund_id; Alipay has none), when it gave one */
  providerRefundId: string | null;
  /**
   * what it says this refund returned, when it says (WeChat amount.refund, Alipay's query refund_amount;
   * Alipay's refund answer and notification name only the trade's refunded total, refund_fee: null there)
   */
  amountCents: number | null;
  /** the provider's code and words when it refused or failed (shown to staff) */
  failureCode?: string;
  failureMessage?: string;
}

/** One outside payment provider behind the same calls (DESIGN.md §1). */
export interface PaymentGateway {
  readonly method: PaymentMethod;
  /** asks the provider to prepare a payment and returns what the page needs to pay it */
  createPayment(input: CreatePaymentInput): Promise<PaymentStart>;
  /** verifies (and decrypts) a notification from its raw body and headers; throws NotificationRefused */
  parseNotification(rawBody: string, headers: Headers): PaymentNotice;
  /** the answer the provider expects once the notification is safely handled (or refused) */
  notificationAnswer(accepted: boolean): NotificationAnswer;
  /** the payment-query fallback: the provider's view of one of our orders */
  queryOrder(orderNo: string): Promise<PaymentQueryResult>;
  /** closes an unpaid trade so that it can never be paid (order expiry, a change of method) */
  close(orderNo: string): Promise<PaymentCloseResult>;
  /**
   * asks the provider to give back part or all of a paid trade; the same outRefundNo asked again is the
   * same refund. Transient errors (network, unverified answer, WeChat SYSTEM_ERROR / FREQUENCY_LIMITED,
   * Alipay ACQ.SYSTEM_ERROR) throw PaymentProviderError and are retried under the same number; business
   * refusals (WeChat INVALID_REQUEST, NOT_ENOUGH, …; Alipay ACQ.*) answer `failed` with the provider's code
   * and words. Alipay's `fund_change = N` answers `processing`: query to be sure.
   */
  refund(input: RefundInput): Promise<RefundResult>;
  /**
   * the refund-query fallback: the provider's view of one of our refunds. `not_found`: the provider knows
   * no such refund (WeChat RESOURCE_NOT_EXISTS; Alipay's answer without refund_status, which its documentation
   * reads as "not received or failed": ask again under the same number)
   */
  queryRefund(outTradeNo: string, outRefundNo: string): Promise<RefundResult>;
  /**
   * verifies (and decrypts) a refund notification (WeChat REFUND.SUCCESS / ABNORMAL / CLOSED at its own
   * notify URL; Alipay's trade notification that carries a refund); throws NotificationRefused
   */
  parseRefundNotification(rawBody: string, headers: Headers): RefundResult;
}

/** The payment gateways the configuration made available; a method without credentials is absent. */
export interface PaymentGateways {
  wechat?: PaymentGateway;
  alipay?: PaymentGateway;
  /** the methods a member may choose */
  available(): PaymentMethod[];
  /** demo mode and tests: the local stand-ins' keys, served under /api/dev/pay */
  standIn?: PaymentStandIns;
}
