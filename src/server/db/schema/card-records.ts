import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, serial, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts } from './auth';
import { memberCards } from './booking';
import { advisers } from './catalog';

/**
 * Card records for the adviser change and the card timeline (decision 034): each change of
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
  (t) => [
    index('card_adviser_changes_card').on(t.cardId, t.id),
    check('card_adviser_changes_changed', sql`${t.fromAdviserId} is distinct from ${t.toAdviserId}`),
  ],
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

/**
 * A family sub card (decision 040): a member the family main card's holder added by phone, who books
 * with the main card (its uses and validity shared) until removed. One live row per card and member;
 * a removed row stays, with who removed it and when, for the card's timeline.
 */
export const cardFamilyMembers = pgTable(
  'card_family_members',
  {
    id: serial('id').primaryKey(),
    cardId: integer('card_id')
      .notNull()
      .references(() => memberCards.id),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    addedBy: integer('added_by')
      .notNull()
      .references(() => accounts.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    removedAt: timestamp('removed_at', { withTimezone: true }),
    removedBy: integer('removed_by').references(() => accounts.id),
  },
  (t) => [
    index('card_family_members_card').on(t.cardId, t.id),
    index('card_family_members_account').on(t.accountId),
    uniqueIndex('card_family_members_live').on(t.cardId, t.accountId).where(sql`${t.removedAt} is null`),
    check('card_family_members_not_holder', sql`${t.accountId} <> ${t.addedBy}`),
    check('card_family_members_removed', sql`(${t.removedAt} is null) = (${t.removedBy} is null)`),
  ],
);
