import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import type { PhotoReviewState } from '../../../domain/photo-review';
import { STATE_COLUMNS, stateCheck } from '../state-checks';
import { accounts } from './auth';
import { bytea } from './person-sealed';

/**
 * Members' front photos for face check-in and their staff review (spec §4 photo review, decision
 * 007). One row per upload; the member's latest row is their current photo, which is also their
 * avatar (decision 042: one photo, one review). The bytes live in this row (PostgreSQL, DESIGN.md §1's
 * default storage) or, with PHOTO_STORAGE=disk|s3, in the object store under `storage_key`; they are
 * small (the app scales them down). They are encrypted at rest (decision 055): with `key_id` set, the
 * bytes (in the row or the store) are the ciphertext, opened with `wrapped_key` and `nonce`.
 */
export const memberPhotos = pgTable(
  'member_photos',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    /** image/jpeg | image/png | image/webp, from the bytes themselves */
    contentType: text('content_type').notNull(),
    /** the image (its ciphertext once sealed), when kept in PostgreSQL (the default); null when it lives in the object store */
    bytes: bytea('bytes'),
    /** the image's data key, wrapped by the key `key_id` (null: a row from before encryption, sealed at start) */
    wrappedKey: bytea('wrapped_key'),
    keyId: text('key_id'),
    nonce: bytea('nonce'),
    /** the object store's key (gateways/storage.ts), when the bytes live there */
    storageKey: text('storage_key'),
    size: integer('size').notNull(),
    /** reviewing | rejected | passed */
    state: text('state').$type<PhotoReviewState>().notNull().default('reviewing'),
    /** what the member is told on a rejection */
    rejectReason: text('reject_reason'),
    reviewedBy: integer('reviewed_by').references(() => accounts.id),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    /** staff who allowed another upload of this passed photo, and when (state `reopened`, decision 042) */
    reopenedBy: integer('reopened_by').references(() => accounts.id),
    reopenedAt: timestamp('reopened_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('member_photos_account').on(t.accountId, t.id),
    index('member_photos_state').on(t.state, t.id),
    stateCheck(STATE_COLUMNS.memberPhotos),
  ],
);
