import type { Paged } from '../domain/envelope';
import type { GoodsKind } from '../domain/catalog';
import type { OrderState, PayMethod } from '../domain/orders';
import type { PaymentStart } from '../domain/payment-start';
import type { PriceQuote } from '../domain/pricing';
import type { ApiClient } from './client';

export type { PaymentStart, WechatJsapiParams } from '../domain/payment-start';

/** One of my orders as the server answers it: money in integer cents, actions from the order chart. */
export interface Order extends PriceQuote {
  orderNo: string;
  goodsId: number;
  /** in the caller's language */
  goodsName: string;
  goodsKind: GoodsKind;
  goodsImage: string;
  quantity: number;
  state: OrderState;
  payMethod: string | null;
  issuedCardId: number | null;
  phaseId?: number | null;
  teacherId?: number | null;
  couponId?: number | null;
  /** an unpaid order not paid by then is cancelled */
  expiresAt?: string | null;
  actions: Array<'pay' | 'cancel'>;
  createdAt: string;
  paidAt: string | null;
  cancelledAt: string | null;
}

/** What a checkout sends to be priced or ordered (the server prices it; the client's numbers are never sent). */
export interface CheckoutBody {
  goodsId: number;
  phaseId?: number;
  teacherId?: number;
  couponId?: number;
  useBalance?: boolean;
  /** create only: the amount the quote showed; the server refuses with 40010 when its own differs */
  expectedAmountToPayCents?: number;
}

/** What creating an order sends: the checkout, and that the member accepted the purchase agreement (the server refuses without it). */
export interface CreateOrderBody extends CheckoutBody {
  agreementAccepted: boolean;
}

/** A coupon of mine as the quote offers it for these goods. */
export interface QuoteCoupon {
  id: number;
  name: string;
  offCents: number;
  percentOff: number | null;
  minSpendCents: number;
  validUntil: string;
  deductionCents: number;
  usable: boolean;
  code: number | null;
  message: string | null;
}

/** POST /orders/quote: the server's price of a checkout before the order exists. */
export interface Quote extends PriceQuote {
  goodsId: number;
  goodsName: string;
  kind: GoodsKind;
  phaseId: number | null;
  teacherId: number | null;
  couponId: number | null;
  /** my balance now */
  balanceCents: number;
  coupons: QuoteCoupon[];
}

export interface PayAnswer {
  order: Order;
  /** null when paid by balance (the order is paid at once) */
  payment: PaymentStart | null;
}

/** A method the server offers that this member cannot use now, and why (e.g. WeChat Pay without a bound open id: 40012). */
export interface PayMethodUnavailable {
  method: PayMethod;
  code: number;
  /** in the member's language */
  message: string;
}

/** The payment methods this server offers; `standIn`: demo mode, the providers' local stand-ins answer. */
export interface PayMethods {
  /** what the caller can pay with */
  methods: PayMethod[];
  standIn: boolean;
  /** offered, but not to this member now (shown disabled with the reason) */
  unavailable: PayMethodUnavailable[];
}

/** Orders and payment (issue 4): the checkout machine's actors. Mutations carry the intent's key. */
export function orderCalls(http: ApiClient) {
  return {
    quote: (body: CheckoutBody) => http.post<Quote>('/orders/quote', { body }),
    create: (body: CreateOrderBody, idempotencyKey: string) => http.post<Order>('/orders/create', { body, idempotencyKey }),
    detail: (orderNo: string) => http.get<Order>('/orders/detail', { query: { orderNo } }),
    mine: (q: { pagenum: number; pagesize: number }) => http.get<Paged<Order>>('/orders/mine', { query: q }),
    cancel: (orderNo: string, idempotencyKey: string) => http.post<Order>('/orders/cancel', { body: { orderNo }, idempotencyKey }),
    pay: (orderNo: string, method: PayMethod, idempotencyKey: string) => http.post<PayAnswer>('/orders/pay', { body: { orderNo, method }, idempotencyKey }),
    payMethods: () => http.get<PayMethods>('/pay/methods'),
    balance: () => http.get<{ balanceCents: number }>('/customers/balance'),
  };
}
