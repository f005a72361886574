import { integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts } from './auth';
import { activities, goods } from './catalog';

/**
 * Flash sales (spec §3 "card activity detail: sellNumber, maxNumber"). The sale row is the
 * one counter every purchase moves with a conditional update (decision 009); a buyer row per member
 * makes "limit one per person" a unique constraint, so it holds across processes without a lock.
 */
export const flashSales = pgTable('flash_sales', {
  id: serial('id').primaryKey(),
  /** the goods bought through the normal order creation; one sale per goods */
  goodsId: integer('goods_id')
    .notNull()
    .unique()
    .references(() => goods.id),
  /** the news item that announces it (home activity list), if any */
  activityId: integer('activity_id').references(() => activities.id),
  title: text('title').notNull(),
  titleEn: text('title_en'),
  startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
  endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
  /** spec maxNumber: places on sale */
  maxNumber: integer('max_number').notNull(),
  /** spec sellNumber: places taken by live orders (an unpaid order that is cancelled gives its place back) */
  sellNumber: integer('sell_number').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

/** Who holds a place in a sale: at most one row per member and sale (spec §8 limit one per person). */
export const flashSaleBuyers = pgTable(
  'flash_sale_buyers',
  {
    id: serial('id').primaryKey(),
    flashSaleId: integer('flash_sale_id')
      .notNull()
      .references(() => flashSales.id),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('flash_sale_buyers_one_each').on(t.flashSaleId, t.accountId)],
);
