import type {
  Balance,
  CreateBody,
  MyOrdersQuery,
  Order,
  OrderDetail,
  OrderPart,
  PayAnswer,
  PayMethods,
  Quote,
  QuoteCoupon,
  SplitBody,
} from '../contracts/orders';
import type { Paged } from '../domain/envelope';
import type { PayMethod } from '../domain/orders';
import type { ApiClient } from './client';

// The request and answer types are the server's own schemas, inferred (src/contracts/orders.ts): they cannot drift.
export type { MyOrdersQuery, Order, OrderDetail, OrderPart, PayAnswer, PayMethods, Quote, QuoteCoupon, SplitBody };
export type { PaymentStart, WechatJsapiParams } from '../domain/payment-start';

/** What a checkout sends to be priced (the server prices it; the client's numbers are never sent). */
export type CheckoutBody = Omit<CreateBody, 'agreementAccepted'>;

/**
 * What creating an order sends. The wire contract accepts only `agreementAccepted: true`; the app's
 * type says boolean on purpose: the checkout sends what the member ticked, and the server's refusal
 * of anything else (70003 naming the field) is its own tested rule.
 */
export type CreateOrderBody = CheckoutBody & { agreementAccepted: boolean };

/** A method the server offers that this member cannot use now, and why (e.g. WeChat Pay without a bound open id: 40012). */
export type PayMethodUnavailable = PayMethods['unavailable'][number];

/** Orders and payment: the checkout and pay-order machines' actors. Mutations carry the intent's key. */
export function orderCalls(http: ApiClient) {
  return {
    quote: (body: CheckoutBody) => http.post<Quote>('/orders/quote', { body }),
    create: (body: CreateOrderBody, idempotencyKey: string) => http.post<Order>('/orders/create', { body, idempotencyKey }),
    detail: (orderNo: string) => http.get<OrderDetail>('/orders/detail', { query: { orderNo } }),
    /** a page of my orders, newest first; `status` one tab of the order list (every order when left out) */
    mine: (q: MyOrdersQuery) => http.get<Paged<Order>>('/orders/mine', { query: q }),
    cancel: (orderNo: string, idempotencyKey: string) => http.post<Order>('/orders/cancel', { body: { orderNo }, idempotencyKey }),
    /** `partSeq`: the part of a split order to pay */
    pay: (orderNo: string, method: PayMethod, idempotencyKey: string, partSeq?: number) =>
      http.post<PayAnswer>('/orders/pay', {
        body: partSeq === undefined ? { orderNo, method } : { orderNo, method, partSeq },
        idempotencyKey,
      }),
    split: (body: SplitBody, idempotencyKey: string) => http.post<OrderDetail>('/orders/split', { body, idempotencyKey }),
    unsplit: (orderNo: string, idempotencyKey: string) => http.post<OrderDetail>('/orders/unsplit', { body: { orderNo }, idempotencyKey }),
    payMethods: () => http.get<PayMethods>('/pay/methods'),
    balance: () => http.get<Balance>('/customers/balance'),
  };
}
