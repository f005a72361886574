import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { GoodsKind } from '../../../domain/catalog';
import type { CouponState } from '../../../domain/pricing';
import { STATE_COLUMNS, stateCheck } from '../state-checks';
import { accounts } from './auth';
import { goods, teachers } from './catalog';
import { orders } from './orders';

/**
 * Buying (issue 4), what goods offer and what members own besides cards: the phases of a training
 * course and the teachers a private class may be taken with, the terms a coupon product grants,
 * the coupons members hold and the courses (goods with uses) they bought. Money is integer cents.
 */

/** A phase of a training course (spec §5 "phase chosen"); prices null = the goods' prices. */
export const goodsPhases = pgTable(
  'goods_phases',
  {
    id: serial('id').primaryKey(),
    goodsId: integer('goods_id')
      .notNull()
      .references(() => goods.id),
    name: text('name').notNull(),
    nameEn: text('name_en'),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    listPriceCents: integer('list_price_cents'),
    memberPriceCents: integer('member_price_cents'),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [index('goods_phases_goods').on(t.goodsId, t.sort)],
);

/** The teachers a private class may be bought with (spec §5 "teacher chosen"). */
export const goodsTeachers = pgTable(
  'goods_teachers',
  {
    id: serial('id').primaryKey(),
    goodsId: integer('goods_id')
      .notNull()
      .references(() => goods.id),
    teacherId: integer('teacher_id')
      .notNull()
      .references(() => teachers.id),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [uniqueIndex('goods_teachers_pair').on(t.goodsId, t.teacherId)],
);

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
  appliesTo: text('applies_to')
    .array()
    .$type<GoodsKind[]>()
    .notNull()
    .default(sql`'{}'::text[]`),
  /** days it stays valid from issue */
  validityDays: integer('validity_days').notNull().default(30),
});

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
    appliesTo: text('applies_to')
      .array()
      .$type<GoodsKind[]>()
      .notNull()
      .default(sql`'{}'::text[]`),
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
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('member_coupons_account').on(t.accountId, t.state),
    uniqueIndex('member_coupons_source').on(t.sourceOrderId),
    index('member_coupons_gifted_from').on(t.giftedFromCouponId),
    index('member_coupons_gifts').on(t.accountId, t.giftedAt),
    stateCheck(STATE_COLUMNS.memberCoupons),
  ],
);

/** A course a member bought (workshop, open, private, primary, training): my goods with uses left. */
export const memberCourses = pgTable(
  'member_courses',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    goodsId: integer('goods_id')
      .notNull()
      .references(() => goods.id),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id),
    kind: text('kind').$type<GoodsKind>().notNull(),
    name: text('name').notNull(),
    nameEn: text('name_en'),
    phaseId: integer('phase_id').references(() => goodsPhases.id),
    teacherId: integer('teacher_id').references(() => teachers.id),
    clubId: integer('club_id'),
    usesTotal: integer('uses_total'),
    usesLeft: integer('uses_left'),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    validUntil: timestamp('valid_until', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('member_courses_account').on(t.accountId, t.createdAt), uniqueIndex('member_courses_order').on(t.orderId)],
);
