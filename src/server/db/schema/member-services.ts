import { sql } from 'drizzle-orm';
import { check, customType, index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { AWAITING_REPLY_STATES, type ComplaintState } from '../../../../machines/domain/complaint-transitions';
import { STATE_COLUMNS, stateCheck, stateIn } from '../state-checks';
import { accounts } from './auth';
import { activities, clubs } from './catalog';

/** PostgreSQL bytea as a Node Buffer (PGlite and postgres.js both hand back bytes). */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});

/**
 * The clubs a staff member works for (issue 15, decision 033): their complaint queue is those clubs'
 * complaints and the ones naming no club. A staff member with no row works for the whole chain.
 */
export const staffClubs = pgTable(
  'staff_clubs',
  {
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    clubId: integer('club_id')
      .notNull()
      .references(() => clubs.id),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.clubId] })],
);

/**
 * A member's complaint (spec §3, §5; issue 15, decision 033), moved by the complaint chart
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

/**
 * A member's place in an activity that takes sign-ups (`activities.places` not null; issue 15,
 * decision 033). Counted like class seats: the activity row is locked while the places are counted,
 * so the last place goes to one member; one place per member.
 */
export const activitySignups = pgTable(
  'activity_signups',
  {
    id: serial('id').primaryKey(),
    activityId: integer('activity_id')
      .notNull()
      .references(() => activities.id),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('activity_signups_one').on(t.activityId, t.accountId), index('activity_signups_activity').on(t.activityId)],
);
