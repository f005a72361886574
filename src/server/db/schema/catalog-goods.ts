import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { goods, teachers } from './catalog';

/** What goods offer besides their price: the phases of a training course and the teachers a private class may be taken with. */

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
