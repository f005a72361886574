import { sql } from 'drizzle-orm';
import { customType, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { TeacherRequestState } from '../../../domain/binding';
import { STATE_COLUMNS, stateCheck } from '../state-checks';
import { accounts } from './auth';
import { clubs, teachers } from './catalog';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});

/**
 * Bind codes (spec §5 binding, decision 028): issued by staff for one teacher, single use, expiring
 * (72 h unless set). Only the code's SHA-256 is stored, with its last two characters for staff to
 * tell codes apart; the code itself is shown once, when issued.
 */
export const bindCodes = pgTable(
  'bind_codes',
  {
    id: serial('id').primaryKey(),
    teacherId: integer('teacher_id')
      .notNull()
      .references(() => teachers.id),
    codeHash: text('code_hash').notNull(),
    /** the code's last two characters */
    hint: text('hint').notNull(),
    issuedBy: integer('issued_by')
      .notNull()
      .references(() => accounts.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    /** the open id the code bound */
    usedByOpenId: text('used_by_open_id'),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('bind_codes_hash').on(t.codeHash), index('bind_codes_teacher').on(t.teacherId, t.id)],
);

/**
 * A new teacher's request to be added and bound (decision 028), sent from the messaging app with the
 * open id it binds; staff confirm or refuse it (chart `teacher-request`). The sender follows it with
 * a view key (stored hashed), since the open-id ticket was spent by sending.
 */
export const teacherRequests = pgTable(
  'teacher_requests',
  {
    id: serial('id').primaryKey(),
    openId: text('open_id').notNull(),
    viewHash: text('view_hash').notNull(),
    name: text('name').notNull(),
    phone: text('phone').notNull(),
    clubId: integer('club_id')
      .notNull()
      .references(() => clubs.id),
    styles: text('styles').array().notNull(),
    photoType: text('photo_type').notNull(),
    /** the photo encrypted (decision 055): the ciphertext, beside its wrapped data key, key id and nonce; plain only in a row from before (null key id) */
    photo: bytea('photo').notNull(),
    photoWrappedKey: bytea('photo_wrapped_key'),
    photoKeyId: text('photo_key_id'),
    photoNonce: bytea('photo_nonce'),
    /** pending | confirmed | refused */
    state: text('state').$type<TeacherRequestState>().notNull().default('pending'),
    /** what the teacher reads on a refusal */
    reason: text('reason'),
    /** the teacher created on confirmation */
    teacherId: integer('teacher_id').references(() => teachers.id),
    decidedBy: integer('decided_by').references(() => accounts.id),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('teacher_requests_view').on(t.viewHash),
    uniqueIndex('teacher_requests_one_pending').on(t.openId).where(sql`${t.state} = 'pending'`),
    index('teacher_requests_state').on(t.state, t.id),
    stateCheck(STATE_COLUMNS.teacherRequests),
  ],
);
