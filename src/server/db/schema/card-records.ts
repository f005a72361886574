import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, serial, timestamp } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { memberCards } from './booking';
import { advisers } from './catalog';

/**
 * Card records for the adviser change and the card timeline (issue 13, decision 034): each change of
 * a card's adviser (advisers are in catalog.ts), each freeze and each extension as it was decided. The card's
 * timeline is read from these and the other stored records (orders, bookings, transfers, refunds):
 * there is no second log.
 */

/** One change of a card's adviser: who changed it (the member), from whom (null: none before), to whom, when. */
export const cardAdviserChanges = pgTable(
  'card_adviser_changes',
  {
    id: serial('id').primaryKey(),
    cardId: integer('card_id')
      .notNull()
      .references(() => memberCards.id),
    changedBy: integer('changed_by')
      .notNull()
      .references(() => accounts.id),
    fromAdviserId: integer('from_adviser_id').references(() => advisers.id),
    toAdviserId: integer('to_adviser_id')
      .notNull()
      .references(() => advisers.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('card_adviser_changes_card').on(t.cardId, t.id), check('card_adviser_changes_changed', sql`${t.fromAdviserId} is distinct from ${t.toAdviserId}`)],
);

/**
 * One freeze of a card as the member asked for it (decision 024: both days frozen, the validity end
 * moved at once), and, when the member unfroze it early or called it off, when and the end after.
 */
export const cardFreezes = pgTable(
  'card_freezes',
  {
    id: serial('id').primaryKey(),
    cardId: integer('card_id')
      .notNull()
      .references(() => memberCards.id),
    fromDate: date('from_date', { mode: 'string' }).notNull(),
    untilDate: date('until_date', { mode: 'string' }).notNull(),
    validUntilBefore: timestamp('valid_until_before', { withTimezone: true }),
    validUntilAfter: timestamp('valid_until_after', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** the member's early unfreeze (or a planned freeze called off) */
    unfrozenAt: timestamp('unfrozen_at', { withTimezone: true }),
    /** the validity end after that unfreeze (the days not frozen taken back) */
    unfrozenValidUntil: timestamp('unfrozen_valid_until', { withTimezone: true }),
  },
  (t) => [index('card_freezes_card').on(t.cardId, t.id), check('card_freezes_dates', sql`${t.untilDate} >= ${t.fromDate}`)],
);

/** One extension of a card (decision 024): its validity end before and after. */
export const cardExtensions = pgTable(
  'card_extensions',
  {
    id: serial('id').primaryKey(),
    cardId: integer('card_id')
      .notNull()
      .references(() => memberCards.id),
    validUntilBefore: timestamp('valid_until_before', { withTimezone: true }),
    validUntilAfter: timestamp('valid_until_after', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('card_extensions_card').on(t.cardId, t.id)],
);
