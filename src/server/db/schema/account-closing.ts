import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { AccountClosingState } from '../../../../machines/domain/account-closing-transitions';
import { STATE_COLUMNS, stateCheck, stateIn } from '../state-checks';
import { accounts } from './auth';

/**
 * A member's request to close their account (PIPL; decision 057), moved by the account-closing chart
 * (machines/domain/account-closing.machine.ts): requested → closed (staff confirmed: the personal data
 * erased or anonymised) | refused (with a reason) | withdrawn (by the member). At most one open
 * request per member (the partial unique index). Kept after closing: it is the record of why the
 * account's personal data is gone, and who decided.
 */
export const accountClosings = pgTable(
  'account_closings',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    state: text('state').$type<AccountClosingState>().notNull().default('requested'),
    /** what the member added when asking (optional) */
    note: text('note'),
    /** why staff refused it, which the member reads */
    reason: text('reason'),
    decidedBy: integer('decided_by').references(() => accounts.id),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('account_closings_account').on(t.accountId, t.id),
    uniqueIndex('account_closings_one_open')
      .on(t.accountId)
      .where(stateIn(t.state, ['requested'])),
    check('account_closings_reason_kept', sql`(${t.state} = 'refused') = (${t.reason} is not null)`),
    stateCheck(STATE_COLUMNS.accountClosings),
  ],
);
