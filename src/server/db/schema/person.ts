import { sql } from 'drizzle-orm';
import { check, integer, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts } from './auth';
import { bytea } from './person-sealed';

/**
 * A member's personal information (spec §3, §5; decision 032): stored once and shown
 * masked afterwards. The real name and ID number are what a card transfer to this member is checked
 * against; once a transfer or a refund has used them they change only through staff. The ID number is
 * encrypted at rest (decision 055); its format is checked by the app before it is sealed.
 */
export const personInfo = pgTable(
  'person_info',
  {
    accountId: integer('account_id')
      .primaryKey()
      .references(() => accounts.id),
    realName: text('real_name').notNull(),
    /** plain text only in rows from before encryption (decision 055), emptied when sealed at start */
    idNumber: text('id_number'),
    /** 18 characters, the check character upper case, encrypted under its own data key (decision 055) */
    idNumberCipher: bytea('id_number_cipher'),
    idNumberWrappedKey: bytea('id_number_wrapped_key'),
    idNumberKeyId: text('id_number_key_id'),
    idNumberNonce: bytea('id_number_nonce'),
    /** years of practice (null: not said) */
    yogaAge: integer('yoga_age'),
    /** style keys (styles.key) */
    styles: text('styles').array().notNull().default(sql`'{}'::text[]`),
    /** morning | afternoon | evening (null: not said) */
    practiceTime: text('practice_time'),
    /** how the member likes to be addressed */
    salutation: text('salutation').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [check('person_info_id_number_kept', sql`${t.idNumber} is not null or ${t.idNumberKeyId} is not null`)],
);

/**
 * How many coupons a member may gift (spec §8 "coupon transfer limit reached"; decision 032): at most
 * `maxGifts` within any `periodDays` days. Data, not code: one row (id 1), changed by staff in SQL.
 */
export const couponGiftLimit = pgTable(
  'coupon_gift_limit',
  {
    id: smallint('id').primaryKey().default(1),
    maxGifts: integer('max_gifts').notNull(),
    periodDays: integer('period_days').notNull(),
  },
  (t) => [check('coupon_gift_limit_one_row', sql`${t.id} = 1`)],
);
