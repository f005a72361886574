import { integer, pgTable, primaryKey } from 'drizzle-orm/pg-core';
import { accounts } from './auth';
import { clubs } from './catalog';

/**
 * The clubs a staff member works for: their complaint queue is those clubs'
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
