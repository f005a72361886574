import { index, integer, pgTable, serial, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts } from './auth';
import { activities } from './catalog';

/**
 * A member's place in an activity that takes sign-ups (`activities.places` not null;
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
