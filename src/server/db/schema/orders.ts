import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { OrderState, PayMethod } from '../../../domain/orders';
import { STATE_COLUMNS, stateCheck } from '../state-checks';
import { accounts } from './auth';
import { goods } from './catalog';

/**
 * Buying: orders (their money is in ./money.ts: parts, attempts, payments, refunds, the ledger).
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
  (t) => [
    uniqueIndex('orders_order_no').on(t.orderNo),
    index('orders_account').on(t.accountId, t.createdAt),
    stateCheck(STATE_COLUMNS.orders),
  ],
);
