import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { OPEN_TRANSFER_STATES, type TransferState } from '../../../../machines/domain/card-transfer-application-transitions';
import { OPEN_CARD_REFUND_STATES, type CardRefundState } from '../../../../machines/domain/card-refund-transitions';
import { STATE_COLUMNS, stateCheck, stateIn } from '../state-checks';
import { accounts } from './auth';
import { memberCards } from './booking';
import { orders } from './orders';
import { bytea } from './person-sealed';

/**
 * A member's uploaded image for a transfer application (spec §3 transfer: ID photo, photo; decision
 * 026): one upload a request, so two images never pass the body limit together; the application names
 * them by id. The bytes live in PostgreSQL (the default storage adapter), as `member_photos`, encrypted
 * at rest (decision 055): with `key_id` set, `bytes` is the ciphertext.
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
    /** the image's data key, wrapped by the key `key_id` (null: a row from before encryption, sealed at start) */
    wrappedKey: bytea('wrapped_key'),
    keyId: text('key_id'),
    nonce: bytea('nonce'),
    size: integer('size').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('transfer_images_account').on(t.accountId)],
);

/**
 * An application to transfer one card to another member (spec §3, §4, §5; decision 026), moved by
 * the transfer chart (machines/domain/card-transfer-application.machine.ts). Staff take it, then approve or reject it;
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
    /** plain text only in rows from before encryption (decision 055), emptied when sealed at start */
    idNumber: text('id_number'),
    /** the ID number typed for the recipient, encrypted (decision 055) */
    idNumberCipher: bytea('id_number_cipher'),
    idNumberWrappedKey: bytea('id_number_wrapped_key'),
    idNumberKeyId: text('id_number_key_id'),
    idNumberNonce: bytea('id_number_nonce'),
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
    check('card_transfers_id_number_kept', sql`${t.idNumber} is not null or ${t.idNumberKeyId} is not null`),
    check('card_transfers_approved_card', sql`(${t.state} = 'approved') = (${t.newCardId} is not null)`),
    stateCheck(STATE_COLUMNS.cardTransfers),
  ],
);

/**
 * A member's request to refund one card (decision 030), moved by the card-refund chart
 * (machines/domain/card-refund.machine.ts). The member agreed to the refund policy and saw the quote;
 * staff approve it (the refund runs: `amount_cents`, the policy's amount at that moment, goes back to
 * the order's payers) or reject it with a reason; who decided and when are kept. At most one
 * undecided request per card.
 */
export const cardRefunds = pgTable(
  'card_refunds',
  {
    id: serial('id').primaryKey(),
    cardId: integer('card_id')
      .notNull()
      .references(() => memberCards.id),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    /** the order that bought the card: its payers get the money back */
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id),
    state: text('state').$type<CardRefundState>().notNull().default('pending'),
    /** what the policy gave back when the member asked (what they saw and agreed to) */
    quotedCents: integer('quoted_cents').notNull(),
    /** what was given back, by the policy at approval; null until approved */
    amountCents: integer('amount_cents'),
    /** why staff rejected it (the member reads it) */
    reason: text('reason'),
    /** who approved or rejected it (staff), or cancelled it (the member); when */
    decidedBy: integer('decided_by').references(() => accounts.id),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('card_refunds_one_open').on(t.cardId).where(stateIn(t.state, OPEN_CARD_REFUND_STATES)),
    // a card is refunded once
    uniqueIndex('card_refunds_one_approved').on(t.cardId).where(sql`${t.state} = 'approved'`),
    index('card_refunds_account').on(t.accountId, t.id),
    index('card_refunds_open').on(t.id).where(stateIn(t.state, OPEN_CARD_REFUND_STATES)),
    check('card_refunds_approved_amount', sql`(${t.state} = 'approved') = (${t.amountCents} is not null)`),
    stateCheck(STATE_COLUMNS.cardRefunds),
  ],
);
