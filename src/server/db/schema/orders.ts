import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { PaymentStart } from '../../../domain/payment-start';
import type { OrderState, PayMethod } from '../../../domain/orders';
import type { PaymentAttemptState } from '../../../../machines/domain/payment-attempt-transitions';
import type { PaymentStatus } from '../../../../machines/domain/payment-transitions';
import { OPEN_ATTEMPT_STATES } from '../../../../machines/domain/payment-attempt-transitions';
import { STATE_COLUMNS, stateCheck, stateIn } from '../state-checks';
import { accounts } from './accounts';
import { goods } from './catalog';

/**
 * Buying (issue 4): orders, provider payments and the balance ledger. Money is integer cents.
 * Order states follow machines/domain/order.machine.ts (spec §4).
 */
export type { OrderState, PayMethod };

export const orders = pgTable(
  'orders',
  {
    id: serial('id').primaryKey(),
    orderNo: text('order_no').notNull(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    goodsId: integer('goods_id')
      .notNull()
      .references(() => goods.id),
    quantity: integer('quantity').notNull().default(1),
    listPriceCents: integer('list_price_cents').notNull(),
    memberPriceCents: integer('member_price_cents').notNull(),
    /** the price this buyer pays before deductions */
    priceCents: integer('price_cents').notNull(),
    couponDeductionCents: integer('coupon_deduction_cents').notNull().default(0),
    /** balance reserved at creation (a ledger row), given back on cancel */
    balanceUsedCents: integer('balance_used_cents').notNull().default(0),
    amountToPayCents: integer('amount_to_pay_cents').notNull(),
    state: text('state').$type<OrderState>().notNull().default('unpaid'),
    payMethod: text('pay_method').$type<PayMethod>(),
    /** the member card issued for a card product */
    issuedCardId: integer('issued_card_id'),
    /** the training phase or private-class teacher chosen (goods_phases / goods_teachers) */
    phaseId: integer('phase_id'),
    teacherId: integer('teacher_id'),
    /** the member coupon this order uses (member_coupons.used_order_id points back) */
    couponId: integer('coupon_id'),
    /** the course (member_courses) or coupon (member_coupons) issued when paid */
    issuedCourseId: integer('issued_course_id'),
    issuedCouponId: integer('issued_coupon_id'),
    /** an unpaid order not paid by then is cancelled by the order.expire job (decision 008) */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** when the member accepted the purchase agreement (required to create an order; null for orders made before it was recorded) */
    agreementAcceptedAt: timestamp('agreement_accepted_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('orders_order_no').on(t.orderNo), index('orders_account').on(t.accountId, t.createdAt), stateCheck(STATE_COLUMNS.orders)],
);

/** The state of one payment attempt (decision 013; the chart is machines/domain/payment-attempt.machine.ts). */
export type { PaymentAttemptState };

/**
 * One attempt to collect an order's money at a provider (decision 013): each has its own out_trade_no,
 * `<orderNo>-<n>`, because a provider's trade is final once failed or closed. Notifications and queries
 * name the out_trade_no; this table maps it back to the order.
 */
export const paymentAttempts = pgTable(
  'payment_attempts',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id),
    /** 1, 2, … per order */
    seq: integer('seq').notNull(),
    /** what the provider knows the trade by: `<orderNo>-<seq>` (orders paid before attempts existed: the order number) */
    outTradeNo: text('out_trade_no').notNull(),
    provider: text('provider').$type<'wechat' | 'alipay'>().notNull(),
    /** open (sent, not settled) | paid | failed (the provider said so) | closed (we closed it there) */
    state: text('state').$type<PaymentAttemptState>().notNull().default('open'),
    /** what the page needs to pay it (prepay and pay-sign, or the cashier URL), answered again to a second tap */
    start: jsonb('start').$type<PaymentStart>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('payment_attempts_out_trade_no').on(t.outTradeNo),
    uniqueIndex('payment_attempts_order_seq').on(t.orderId, t.seq),
    // one provider at a time: another method first closes the open trade (decision 013)
    uniqueIndex('payment_attempts_one_open').on(t.orderId).where(stateIn(t.state, OPEN_ATTEMPT_STATES)),
    stateCheck(STATE_COLUMNS.paymentAttempts),
  ],
);

/** One provider payment (a notification or a query answer); a repeat of the same txn id changes nothing. */
export const payments = pgTable(
  'payments',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id),
    /** the attempt (out_trade_no) the provider answered about */
    attemptId: integer('attempt_id').references(() => paymentAttempts.id),
    provider: text('provider').$type<'wechat' | 'alipay'>().notNull(),
    /** null for a failure the provider gave no id (WeChat Pay's CLOSED, PAYERROR): such rows are one per attempt */
    providerTxnId: text('provider_txn_id'),
    amountCents: integer('amount_cents').notNull(),
    /** paid | failed | mismatch | needs_refund (money taken for an order already paid or over: decision 013) */
    status: text('status').$type<PaymentStatus>().notNull(),
    /** notify | query */
    source: text('source').notNull(),
    raw: jsonb('raw'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('payments_provider_txn').on(t.provider, t.providerTxnId),
    // a failure is recorded once per attempt, with or without a provider id
    uniqueIndex('payments_attempt_failed').on(t.attemptId).where(sql`${t.status} = 'failed'`),
    index('payments_order').on(t.orderId),
    stateCheck(STATE_COLUMNS.payments),
  ],
);

/** The balance ledger: every change is a row; the balance is their sum and never below zero. */
export const balanceLedger = pgTable(
  'balance_ledger',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    changeCents: integer('change_cents').notNull(),
    /** topup | order | cancel | refund | grant */
    reason: text('reason').notNull(),
    orderId: integer('order_id').references(() => orders.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('balance_ledger_account').on(t.accountId, t.id)],
);
