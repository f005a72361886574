import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * The payment stand-ins' own ledger (demo mode and tests only): what the simulated WeChat Pay and
 * Alipay servers know about each prepaid order. A row, not memory, so any process can answer a query.
 */
export const payStandInOrders = pgTable(
  'pay_standin_orders',
  {
    id: serial('id').primaryKey(),
    /** 'wechat' | 'alipay' */
    provider: text('provider').notNull(),
    /** WeChat mchid / Alipay seller id */
    merchantId: text('merchant_id').notNull(),
    appId: text('app_id').notNull(),
    outTradeNo: text('out_trade_no').notNull(),
    /** WeChat prepay_id (the JSAPI package); null for Alipay */
    prepayId: text('prepay_id'),
    /** the provider's transaction id: Alipay's trade_no from the trade's creation; WeChat's transaction_id only once paid (as WeChat Pay) */
    providerTxnId: text('provider_txn_id'),
    amountCents: integer('amount_cents').notNull(),
    description: text('description').notNull(),
    payerOpenId: text('payer_open_id'),
    notifyUrl: text('notify_url').notNull(),
    /** provider-side state: WeChat NOTPAY/SUCCESS/PAYERROR/CLOSED, Alipay WAIT_BUYER_PAY/TRADE_SUCCESS/TRADE_CLOSED */
    state: text('state').notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    /** the merchant's time_expire: the payer cannot pay after it */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('pay_standin_order_no').on(t.provider, t.merchantId, t.outTradeNo),
    uniqueIndex('pay_standin_txn').on(t.provider, t.providerTxnId),
    index('pay_standin_prepay').on(t.prepayId),
  ],
);

/**
 * The payment stand-ins' keys (demo mode and tests only), made once per database: every process
 * on the database signs and verifies with the same keys (a notification one process's stand-in
 * signs may reach another), and a restart keeps them, as a real merchant account's keys are kept.
 */
export const payStandInKeys = pgTable('pay_standin_keys', {
  /** 'default': one set per database */
  name: text('name').primaryKey(),
  /** PEM keys, serials and the API v3 key (standin-keys.ts StoredStandInKeys) */
  keys: jsonb('keys').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

/**
 * The refunds the payment stand-ins have been asked for (demo mode and tests only): what the
 * simulated WeChat Pay (`/v3/refund/domestic/refunds`) and Alipay (`alipay.trade.refund`) servers know
 * about each refund, so a query or a second ask with the same number answers the same refund.
 */
export const payStandInRefunds = pgTable(
  'pay_standin_refunds',
  {
    id: serial('id').primaryKey(),
    /** 'wechat' | 'alipay' */
    provider: text('provider').notNull(),
    merchantId: text('merchant_id').notNull(),
    /** the refunded trade (pay_standin_orders.out_trade_no) */
    outTradeNo: text('out_trade_no').notNull(),
    /** the merchant's refund number (WeChat out_refund_no, Alipay out_request_no) */
    outRefundNo: text('out_refund_no').notNull(),
    /** the provider's refund id (WeChat refund_id) */
    refundId: text('refund_id').notNull(),
    amountCents: integer('amount_cents').notNull(),
    /** what the trade took (WeChat amount.total) */
    totalCents: integer('total_cents').notNull(),
    reason: text('reason'),
    notifyUrl: text('notify_url'),
    /** provider-side state: WeChat SUCCESS/PROCESSING/CLOSED/ABNORMAL, Alipay REFUND_SUCCESS */
    state: text('state').notNull(),
    /** what a test asked the stand-in to do with this refund (processing, abnormal, closed, late, twice, tampered) */
    simulate: text('simulate'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    succeededAt: timestamp('succeeded_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('pay_standin_refund_no').on(t.provider, t.merchantId, t.outRefundNo),
    index('pay_standin_refund_trade').on(t.provider, t.outTradeNo),
  ],
);
