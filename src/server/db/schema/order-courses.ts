import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { GoodsKind } from '../../../domain/catalog';
import { accounts } from './auth';
import { goods, teachers } from './catalog';
import { goodsPhases } from './catalog-goods';
import { orders } from './orders';

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
