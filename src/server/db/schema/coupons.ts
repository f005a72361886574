import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { GoodsKind } from '../../../domain/catalog';
import type { CouponState } from '../../../domain/pricing';
import { STATE_COLUMNS, stateCheck } from '../state-checks';
import { accounts } from './auth';
import { goods } from './catalog';
import { orders } from './orders';

/** The terms a coupon product grants and the coupons members hold. Money is integer cents. */

/** What a coupon product grants: a fixed amount or a percentage off, from a minimum spend. */
export const couponTerms = pgTable('coupon_terms', {
  goodsId: integer('goods_id')
    .primaryKey()
    .references(() => goods.id),
  /** cents off (when percentOff is null) */
  offCents: integer('off_cents').notNull().default(0),
  /** percent off the price, 1-99 (rounded half up to the cent); null = a fixed amount */
  percentOff: integer('percent_off'),
  minSpendCents: integer('min_spend_cents').notNull().default(0),
  /** goods kinds it applies to; empty = every kind but coupons */
  appliesTo: text('applies_to').array().$type<GoodsKind[]>().notNull().default(sql`'{}'::text[]`),
  /** days it stays valid from issue */
  validityDays: integer('validity_days').notNull().default(30),
});

/**
 * A coupon the chain promises for something a member does, issued once per member by the rule that
 * promises it (decision 105). `rule` names the deed: `person-info`, the personal information first
 * saved. No row, no promise: a rule without one issues nothing.
 */
export const couponRewards = pgTable('coupon_rewards', {
  rule: text('rule').primaryKey().$type<CouponRewardRule>(),
  name: text('name').notNull(),
  nameEn: text('name_en'),
  offCents: integer('off_cents').notNull(),
  minSpendCents: integer('min_spend_cents').notNull().default(0),
  /** goods kinds it applies to; empty = every kind but coupons */
  appliesTo: text('applies_to').array().$type<GoodsKind[]>().notNull().default(sql`'{}'::text[]`),
  /** days it stays valid from issue */
  validityDays: integer('validity_days').notNull().default(30),
});

/** The deeds a coupon can be promised for. */
export type CouponRewardRule = 'person-info';

/** A coupon a member holds (spec §4 coupon tabs). Applying it to an order uses it; cancelling gives it back. */
export const memberCoupons = pgTable(
  'member_coupons',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    goodsId: integer('goods_id').references(() => goods.id),
    name: text('name').notNull(),
    nameEn: text('name_en'),
    offCents: integer('off_cents').notNull().default(0),
    percentOff: integer('percent_off'),
    minSpendCents: integer('min_spend_cents').notNull().default(0),
    appliesTo: text('applies_to').array().$type<GoodsKind[]>().notNull().default(sql`'{}'::text[]`),
    validFrom: timestamp('valid_from', { withTimezone: true }).notNull(),
    validUntil: timestamp('valid_until', { withTimezone: true }).notNull(),
    /** stored state (the coupon chart); an unused coupon past validUntil is written expired by the time-passing job */
    state: text('state').$type<CouponState>().notNull().default('unused'),
    /** the order that used it (released when that order is cancelled or expires) */
    usedOrderId: integer('used_order_id').references(() => orders.id),
    usedAt: timestamp('used_at', { withTimezone: true }),
    /** the order that bought it (null for a grant) */
    sourceOrderId: integer('source_order_id').references(() => orders.id),
    /** gifted away (state transferred): to whom and when (decision 032) */
    giftedToAccountId: integer('gifted_to_account_id').references(() => accounts.id),
    giftedAt: timestamp('gifted_at', { withTimezone: true }),
    /** a coupon received as a gift: the giver's coupon it came from */
    giftedFromCouponId: integer('gifted_from_coupon_id'),
    /** the promise it keeps (coupon_rewards.rule), at most one coupon per member and rule */
    rewardRule: text('reward_rule').$type<CouponRewardRule>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('member_coupons_account').on(t.accountId, t.state),
    uniqueIndex('member_coupons_source').on(t.sourceOrderId),
    index('member_coupons_gifted_from').on(t.giftedFromCouponId),
    index('member_coupons_gifts').on(t.accountId, t.giftedAt),
    uniqueIndex('member_coupons_reward_once').on(t.accountId, t.rewardRule),
    stateCheck(STATE_COLUMNS.memberCoupons),
  ],
);
