import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts } from './auth';

/**
 * What staff did and which personal data they looked at (decision 055, PIPL's record of access): one
 * row per approval, rejection, registration, bind code, ID photo view or ID number revealed. Written in
 * the transaction of the action it records where the action writes; never updated or deleted by the app.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: serial('id').primaryKey(),
    staffAccountId: integer('staff_account_id')
      .notNull()
      .references(() => accounts.id),
    /** e.g. card-refund.approve, transfer.id-number.reveal, transfer.id-photo.view (AUDIT_ACTIONS) */
    action: text('action').notNull(),
    /** what kind of thing it was done to (card-refund, transfer, photo, account, bind-code) and its id */
    subjectKind: text('subject_kind').notNull(),
    subjectId: integer('subject_id'),
    /** why, when staff gave a reason (required to reveal an ID number) */
    reason: text('reason'),
    /** the client address as the server computes it (http/client-ip.ts: X-Forwarded-For behind TRUST_PROXY) */
    clientIp: text('client_ip').notNull(),
    requestId: text('request_id').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [index('audit_log_staff').on(t.staffAccountId, t.id), index('audit_log_action').on(t.action, t.id)],
);
