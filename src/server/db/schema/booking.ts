import { sql } from 'drizzle-orm';
import { boolean, check, date, index, type AnyPgColumn, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { BookingRowState, CancelReason, CardStatus } from '../../../domain/booking-rules';
import type { CardType, ClassTypeKey, Difficulty } from '../../../domain/catalog';
import type { ClassStatus } from '../../../../machines/domain/schedule-class-transitions';
import type { TeacherScheduleState } from '../../../../machines/domain/schedule-teacher-confirmation-transitions';
import { STATE_COLUMNS, stateCheck } from '../state-checks';
import { accounts } from './auth';
import { advisers, clubs, goods, teachers } from './catalog';

/**
 * Booking: the class schedule, the cards members own, and their bookings and queue
 * entries. Instants are UTC; calendar rules read them in Asia/Shanghai (src/domain/booking-rules.ts).
 */

/** One scheduled class. `bookedCount` moves in the same transaction as its bookings. */
export const classes = pgTable(
  'classes',
  {
    id: serial('id').primaryKey(),
    clubId: integer('club_id')
      .notNull()
      .references(() => clubs.id),
    room: text('room').notNull(),
    roomEn: text('room_en'),
    teacherId: integer('teacher_id').references(() => teachers.id),
    /** the teacher schedule chart's state (machines/domain/schedule-teacher-confirmation, decision 029); members see the teacher only when confirmed */
    teacherState: text('teacher_state').$type<TeacherScheduleState>().notNull().default('not_started'),
    /** when the asked teacher must have answered; the time-passing job moves a class still waiting then to unconfirmed */
    teacherConfirmBy: timestamp('teacher_confirm_by', { withTimezone: true }),
    /** why the teacher declined (shown to staff); cleared when another teacher is asked */
    teacherDeclineReason: text('teacher_decline_reason'),
    /** CLASS_TYPES key */
    classType: text('class_type').$type<ClassTypeKey>().notNull(),
    /** styles.key */
    style: text('style').notNull(),
    /** EFFECTS key */
    effect: text('effect').notNull(),
    difficulty: text('difficulty').$type<Difficulty>().notNull(),
    title: text('title').notNull(),
    titleEn: text('title_en'),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    durationMin: integer('duration_min').notNull(),
    capacity: integer('capacity').notNull(),
    bookedCount: integer('booked_count').notNull().default(0),
    /** how many may wait; a full queue refuses with 20002 */
    queueCapacity: integer('queue_capacity').notNull().default(20),
    /** uses a count card spends on this class */
    usesCost: integer('uses_cost').notNull().default(1),
    /** open | cancelled (by the club) */
    status: text('status').$type<ClassStatus>().notNull().default('open'),
    /** when and by which staff account the class was cancelled (decision 041) */
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    cancelledBy: integer('cancelled_by').references(() => accounts.id),
    /** what the class's check-in QR carries (the teacher shows it; decision 007); random per class */
    checkinCode: text('checkin_code').notNull().default(sql`substr(md5(random()::text), 1, 8)`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('classes_starts').on(t.startsAt),
    index('classes_club_starts').on(t.clubId, t.startsAt),
    stateCheck(STATE_COLUMNS.classes),
    stateCheck(STATE_COLUMNS.classTeachers),
  ],
);

/** A card a member owns (bought from a `goods` card product). */
export const memberCards = pgTable(
  'member_cards',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    goodsId: integer('goods_id').references(() => goods.id),
    cardType: text('card_type').$type<CardType>().notNull(),
    name: text('name').notNull(),
    nameEn: text('name_en'),
    number: text('number').notNull(),
    /** the studio the card is sold for; null = every club */
    clubId: integer('club_id').references(() => clubs.id),
    status: text('status').$type<CardStatus>().notNull().default('inactive'),
    /** null for time-based cards */
    usesTotal: integer('uses_total'),
    usesLeft: integer('uses_left'),
    /** days of validity from activation (from the product) */
    validityDays: integer('validity_days'),
    validFrom: timestamp('valid_from', { withTimezone: true }),
    validUntil: timestamp('valid_until', { withTimezone: true }),
    extensionCount: integer('extension_count').notNull().default(0),
    /** restrictions */
    weekendOnly: boolean('weekend_only').notNull().default(false),
    /** allowed start slots, local time "HH:MM-HH:MM"; null = any time */
    offPeakSlots: text('off_peak_slots').array(),
    /** the hardest difficulty the card admits; null = any (20013) */
    maxDifficulty: text('max_difficulty').$type<Difficulty>(),
    /** a card-specific booking window of 2 or 7 days (20021 / 20022); null = the member's */
    bookingWindowDays: integer('booking_window_days'),
    /** an experience card is for a friend: its buyer cannot use it (20031) */
    experience: boolean('experience').notNull().default(false),
    buyerAccountId: integer('buyer_account_id').references(() => accounts.id),
    /** class types the card books (20010 beyond them) */
    allowedClassTypes: text('allowed_class_types').array().$type<ClassTypeKey[]>().notNull(),
    /** the card it was transferred from (spec §5 once per card: a card received by transfer is not transferred again); null for a card bought or granted */
    transferredFromCardId: integer('transferred_from_card_id').references((): AnyPgColumn => memberCards.id),
    /**
     * The freeze asked for (decision 024), Shanghai calendar dates, both days frozen: set while a freeze
     * is planned (status in use, from a later day) or running (status frozen); cleared when it ends.
     */
    frozenFrom: date('frozen_from', { mode: 'string' }),
    frozenUntil: date('frozen_until', { mode: 'string' }),
    /** the end of the group-buy period of a card bought in a group purchase (spec §5: not transferable before it nor within 3 days after; decision 026); null otherwise */
    groupEndsAt: timestamp('group_ends_at', { withTimezone: true }),
    /** the card's membership adviser (advisers.id; decision 034); null until the member chooses one */
    adviserId: integer('adviser_id').references((): AnyPgColumn => advisers.id),
    /** a card given as a gift (decision 040): the member who gave it and when; the giver no longer owns it (spec §8 "not owner") and it is never given again */
    giftedFromAccountId: integer('gifted_from_account_id').references(() => accounts.id),
    giftedAt: timestamp('gifted_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('member_cards_account').on(t.accountId),
    uniqueIndex('member_cards_number').on(t.number),
    stateCheck(STATE_COLUMNS.memberCards),
    // a freeze has both ends, the end not before the start (spec §5)
    check(
      'member_cards_freeze_dates',
      sql`(${t.frozenFrom} is null) = (${t.frozenUntil} is null) and (${t.frozenFrom} is null or ${t.frozenUntil} >= ${t.frozenFrom})`,
    ),
  ],
);

/**
 * What each card type allows beyond booking (decision 024): data, seeded, not code. A type without a
 * row may not be extended.
 */
export const cardTypeRules = pgTable('card_type_rules', {
  cardType: text('card_type').$type<CardType>().primaryKey(),
  /** how many times one card may be extended; 0 = never */
  maxExtensions: integer('max_extensions').notNull().default(0),
  /** how many days one extension may add at most */
  maxExtensionDays: integer('max_extension_days').notNull().default(0),
  /** the handling fee a started card of this type keeps when refunded, percent (decision 030); null: never refunded */
  refundFeePercent: integer('refund_fee_percent'),
  /** how many sub-card holders a card of this type shares its uses and validity with (decision 040); 0 = not a family main card */
  familySlots: integer('family_slots').notNull().default(0),
  /** a card of this type, unused, may be given to another member as a gift (decision 040) */
  giftable: boolean('giftable').notNull().default(false),
});

/** A booking or a queue entry of one member for one class. */
export const bookings = pgTable(
  'bookings',
  {
    id: serial('id').primaryKey(),
    classId: integer('class_id')
      .notNull()
      .references(() => classes.id),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    cardId: integer('card_id')
      .notNull()
      .references(() => memberCards.id),
    state: text('state').$type<BookingRowState>().notNull(),
    /** booked from the queue */
    promoted: boolean('promoted').notNull().default(false),
    /** queue order (then id) */
    queuedAt: timestamp('queued_at', { withTimezone: true }),
    /** uses spent on the card (given back on cancel) */
    usesSpent: integer('uses_spent').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    bookedAt: timestamp('booked_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    checkedInAt: timestamp('checked_in_at', { withTimezone: true }),
    /** who marked the check-in: the member (scanning the class code) or a staff account */
    checkedInBy: integer('checked_in_by').references(() => accounts.id),
    /** why a queue entry left: member | overlap | not-qualified */
    cancelReason: text('cancel_reason').$type<CancelReason>(),
  },
  (t) => [
    // one live booking or queue entry per member and class
    uniqueIndex('bookings_live').on(t.classId, t.accountId).where(sql`${t.state} in ('booked', 'queued')`),
    index('bookings_account').on(t.accountId, t.state),
    // a member's live bookings (upcoming count, overlaps: migration 0036): led by the member, so a
    // booking's facts never walk bookings_live, which is led by the class
    index('bookings_account_live').on(t.accountId, t.classId).where(sql`${t.state} in ('booked', 'queued')`),
    index('bookings_class').on(t.classId, t.state, t.queuedAt),
    index('bookings_card').on(t.cardId),
    stateCheck(STATE_COLUMNS.bookings),
  ],
);
