import { sql } from 'drizzle-orm';
import { boolean, check, doublePrecision, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { CardType, GoodsKind } from '../../../domain/catalog';
import { accounts } from './auth';

/**
 * The public catalogue: clubs, teachers, banners, activities, goods, dictionaries and surveys.
 * Bilingual text: the Chinese column is the source, the *_en column its English (null falls back to
 * Chinese). Money is integer cents. `sort` orders a list (then id).
 */

/** A studio of the chain. Coordinates are GCJ-02 (what Chinese maps use). */
export const clubs = pgTable('clubs', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  nameEn: text('name_en'),
  city: text('city').notNull(),
  cityEn: text('city_en'),
  address: text('address').notNull(),
  addressEn: text('address_en'),
  phone: text('phone').notNull(),
  lat: doublePrecision('lat').notNull(),
  lng: doublePrecision('lng').notNull(),
  coverImage: text('cover_image').notNull(),
  intro: text('intro').notNull().default(''),
  introEn: text('intro_en'),
  /** "07:00-22:00", local time (Asia/Shanghai) */
  openingHours: text('opening_hours').notNull(),
  sort: integer('sort').notNull().default(0),
});

/** A teacher; accountId links the teacher's login once bound (binding work). */
export const teachers = pgTable(
  'teachers',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    nameEn: text('name_en'),
    photo: text('photo').notNull(),
    bio: text('bio').notNull().default(''),
    bioEn: text('bio_en'),
    /** style keys (styles.key) */
    styles: text('styles').array().notNull().default([]),
    clubId: integer('club_id').references(() => clubs.id),
    years: integer('years').notNull().default(0),
    accountId: integer('account_id').references(() => accounts.id),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [index('teachers_club').on(t.clubId), uniqueIndex('teachers_account').on(t.accountId)],
);

/** Home-page carousel. `link` is an app path. */
export const banners = pgTable('banners', {
  id: serial('id').primaryKey(),
  title: text('title').notNull(),
  titleEn: text('title_en'),
  image: text('image').notNull(),
  link: text('link'),
  active: boolean('active').notNull().default(true),
  sort: integer('sort').notNull().default(0),
});

/** Goods: everything the chain sells (cards, coupons, classes and courses). */
export const goods = pgTable(
  'goods',
  {
    id: serial('id').primaryKey(),
    /** GOODS_KINDS of src/domain/catalog.ts */
    kind: text('kind').$type<GoodsKind>().notNull(),
    /** CARD_TYPES for kind card, else null */
    cardType: text('card_type').$type<CardType>(),
    name: text('name').notNull(),
    nameEn: text('name_en'),
    image: text('image').notNull(),
    listPriceCents: integer('list_price_cents').notNull(),
    memberPriceCents: integer('member_price_cents').notNull(),
    /** units left to sell; null = unlimited */
    stock: integer('stock'),
    /** units sold (spec sellNumber); stock + sold is maxNumber when stock is set */
    sold: integer('sold').notNull().default(0),
    onShelf: boolean('on_shelf').notNull().default(true),
    /** class uses a count card or course gives; null = unlimited within validity */
    uses: integer('uses'),
    /** days of validity from activation; null = no limit */
    validityDays: integer('validity_days'),
    description: text('description').notNull().default(''),
    descriptionEn: text('description_en'),
    clubId: integer('club_id').references(() => clubs.id),
    teacherId: integer('teacher_id').references(() => teachers.id),
    /** for workshops and courses held on dates */
    startsAt: timestamp('starts_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    /** buying rules (spec §8 goods): only for new customers; at most N per member */
    newCustomersOnly: boolean('new_customers_only').notNull().default(false),
    perPersonLimit: integer('per_person_limit'),
    sort: integer('sort').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('goods_shelf').on(t.onShelf, t.kind, t.sort)],
);

/** News and promotions (home "activity" list); may point at goods (a flash sale). */
export const activities = pgTable(
  'activities',
  {
    id: serial('id').primaryKey(),
    title: text('title').notNull(),
    titleEn: text('title_en'),
    image: text('image').notNull(),
    summary: text('summary').notNull().default(''),
    summaryEn: text('summary_en'),
    body: text('body').notNull().default(''),
    bodyEn: text('body_en'),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    clubId: integer('club_id').references(() => clubs.id),
    goodsId: integer('goods_id').references(() => goods.id),
    /** places for members to sign up to (decision 033); null: the activity takes no sign-up */
    places: integer('places'),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [index('activities_ends').on(t.endsAt), check('activities_places', sql`${t.places} is null or ${t.places} > 0`)],
);

/** Class types (keys of CLASS_TYPES), with what a screen shows about them. */
export const classTypes = pgTable('class_types', {
  id: serial('id').primaryKey(),
  key: text('key').notNull().unique(),
  name: text('name').notNull(),
  nameEn: text('name_en'),
  description: text('description').notNull().default(''),
  descriptionEn: text('description_en'),
  sort: integer('sort').notNull().default(0),
});

/** Yoga styles: an open list (teachers and classes refer to the key). */
export const styles = pgTable('styles', {
  id: serial('id').primaryKey(),
  key: text('key').notNull().unique(),
  name: text('name').notNull(),
  nameEn: text('name_en'),
  description: text('description').notNull().default(''),
  descriptionEn: text('description_en'),
  sort: integer('sort').notNull().default(0),
});

/** A one-question survey shown to members (spec §7 GET/POST /survey). */
export const surveys = pgTable('surveys', {
  id: serial('id').primaryKey(),
  question: text('question').notNull(),
  questionEn: text('question_en'),
  active: boolean('active').notNull().default(true),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

export const surveyOptions = pgTable(
  'survey_options',
  {
    id: serial('id').primaryKey(),
    surveyId: integer('survey_id')
      .notNull()
      .references(() => surveys.id),
    label: text('label').notNull(),
    labelEn: text('label_en'),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [index('survey_options_survey').on(t.surveyId)],
);

/**
 * One row per member and survey: an answer (optionId set) or a skip (skipUntil set, the survey
 * hides until then; SURVEY_SKIP_DAYS).
 */
export const surveyAnswers = pgTable(
  'survey_answers',
  {
    id: serial('id').primaryKey(),
    surveyId: integer('survey_id')
      .notNull()
      .references(() => surveys.id),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    optionId: integer('option_id').references(() => surveyOptions.id),
    skipUntil: timestamp('skip_until', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('survey_answers_member').on(t.surveyId, t.accountId)],
);

/** A club's membership adviser (spec §4 "change adviser", §5 "needs club and adviser"; decision 034), seeded; a member chooses one for a card. */
export const advisers = pgTable(
  'advisers',
  {
    id: serial('id').primaryKey(),
    clubId: integer('club_id')
      .notNull()
      .references(() => clubs.id),
    name: text('name').notNull(),
    nameEn: text('name_en'),
    /** an adviser who left stays on the cards' history but is no longer offered */
    active: boolean('active').notNull().default(true),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [index('advisers_club').on(t.clubId, t.sort)],
);
