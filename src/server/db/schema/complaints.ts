import { sql } from 'drizzle-orm';
import { check, customType, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { AWAITING_REPLY_STATES, type ComplaintState } from '../../../../machines/domain/complaint-transitions';
import { STATE_COLUMNS, stateCheck, stateIn } from '../state-checks';
import { accounts } from './auth';
import { clubs } from './catalog';

/** PostgreSQL bytea as a Node Buffer (PGlite and postgres.js both hand back bytes). */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});

/**
 * A member's complaint (spec §3, §5; decision 033), moved by the complaint chart
 * (machines/domain/complaint.machine.ts): filed → (overdue after 48 hours unanswered) → replied by
 * staff → satisfied or unsatisfied by the member. Who replied and when are kept.
 */
export const complaints = pgTable(
  'complaints',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    /** the club it is about; null: the chain as a whole */
    clubId: integer('club_id').references(() => clubs.id),
    content: text('content').notNull(),
    state: text('state').$type<ComplaintState>().notNull().default('filed'),
    reply: text('reply'),
    repliedBy: integer('replied_by').references(() => accounts.id),
    repliedAt: timestamp('replied_at', { withTimezone: true }),
    /** when the 48 hours unanswered flagged it to staff */
    overdueAt: timestamp('overdue_at', { withTimezone: true }),
    ratedAt: timestamp('rated_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('complaints_account').on(t.accountId, t.id),
    index('complaints_awaiting').on(t.id).where(stateIn(t.state, AWAITING_REPLY_STATES)),
    check('complaints_reply_kept', sql`(${t.state} in ('filed', 'overdue')) = (${t.reply} is null)`),
    stateCheck(STATE_COLUMNS.complaints),
  ],
);

/**
 * A photo with a complaint: uploaded one a request before the complaint is filed (so photos never pass
 * the body limit together), then attached to it by id. The bytes live in PostgreSQL (the default
 * storage adapter), as `member_photos` and `transfer_images`.
 */
export const complaintImages = pgTable(
  'complaint_images',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    /** the complaint it was filed with; null until then */
    complaintId: integer('complaint_id').references(() => complaints.id),
    /** image/jpeg | image/png | image/webp, from the bytes themselves */
    contentType: text('content_type').notNull(),
    bytes: bytea('bytes').notNull(),
    size: integer('size').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('complaint_images_account').on(t.accountId), index('complaint_images_complaint').on(t.complaintId)],
);
