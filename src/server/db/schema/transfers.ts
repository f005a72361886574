import { sql } from 'drizzle-orm';
import { check, customType, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { OPEN_TRANSFER_STATES, type TransferState } from '../../../../machines/domain/transfer-transitions';
import { STATE_COLUMNS, stateCheck, stateIn } from '../state-checks';
import { accounts } from './accounts';
import { memberCards } from './booking';

/** PostgreSQL bytea as a Node Buffer (PGlite and postgres.js both hand back bytes). */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});

/**
 * A member's uploaded image for a transfer application (spec §3 transfer: ID photo, photo; decision
 * 026): one upload a request, so two images never pass the body limit together; the application names
 * them by id. The bytes live in PostgreSQL (the default storage adapter), as `member_photos`.
 */
export const transferImages = pgTable(
  'transfer_images',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    /** image/jpeg | image/png | image/webp, from the bytes themselves */
    contentType: text('content_type').notNull(),
    bytes: bytea('bytes').notNull(),
    size: integer('size').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('transfer_images_account').on(t.accountId)],
);

/**
 * An application to transfer one card to another member (spec §3, §4, §5; decision 026), moved by
 * the transfer chart (machines/domain/transfer.machine.ts). Staff take it, then approve or reject it;
 * who and when are kept. At most one unfinished application per card.
 */
export const cardTransfers = pgTable(
  'card_transfers',
  {
    id: serial('id').primaryKey(),
    cardId: integer('card_id')
      .notNull()
      .references(() => memberCards.id),
    fromAccountId: integer('from_account_id')
      .notNull()
      .references(() => accounts.id),
    toAccountId: integer('to_account_id')
      .notNull()
      .references(() => accounts.id),
    recipientName: text('recipient_name').notNull(),
    idNumber: text('id_number').notNull(),
    idPhotoId: integer('id_photo_id')
      .notNull()
      .references(() => transferImages.id),
    photoId: integer('photo_id')
      .notNull()
      .references(() => transferImages.id),
    state: text('state').$type<TransferState>().notNull().default('pending'),
    /** why staff rejected it (the member reads it) */
    reason: text('reason'),
    /** the staff member who took it for review, and when */
    reviewedBy: integer('reviewed_by').references(() => accounts.id),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    /** who approved or rejected it (staff), or cancelled it (the member); when */
    decidedBy: integer('decided_by').references(() => accounts.id),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    /** the recipient's card, issued on approval */
    newCardId: integer('new_card_id').references(() => memberCards.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('card_transfers_one_open').on(t.cardId).where(stateIn(t.state, OPEN_TRANSFER_STATES)),
    index('card_transfers_from').on(t.fromAccountId, t.id),
    index('card_transfers_open').on(t.id).where(stateIn(t.state, OPEN_TRANSFER_STATES)),
    check('card_transfers_not_to_self', sql`${t.fromAccountId} <> ${t.toAccountId}`),
    check('card_transfers_approved_card', sql`(${t.state} = 'approved') = (${t.newCardId} is not null)`),
    stateCheck(STATE_COLUMNS.cardTransfers),
  ],
);
