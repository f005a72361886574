import { and, asc, count, desc, eq, gt, gte, ilike, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import { BOOKING_OPEN_STATES, BOOKING_SEAT_STATES } from '../../../../machines/domain/booking-transitions';
import { LISTED_CLASS_STATUSES } from '../../../../machines/domain/schedule-class-transitions';
import { TEACHER_SHOWN_STATES } from '../../../../machines/domain/schedule-teacher-confirmation-transitions';
import { stateIn } from '../../db/state-checks';
import {
  beyondHorizon,
  cardRefusal,
  cardReminders,
  clashOf,
  sortCardChoice,
  classEnd,
  classRefusal,
  horizonDays,
  mayStillBook,
  timeOfDay,
  type BookingRowState,
  type CardReminder,
} from '../../../domain/booking-rules';
import { addDays, daysAfter, shanghaiDate, shanghaiDateAfter, shanghaiMidnight, shanghaiMonthRange } from '../../../domain/time';
import type { ClassTypeKey, Difficulty, TimeOfDay } from '../../../domain/catalog';
import { Errors } from '../../../domain/errors';
import type { Db } from '../../db/client';
import { perTurn } from '../../db/per-turn';
import { perDatabase } from '../../db/per-database';
import { bookings, classes, classTypes, clubs, memberCards, styles, teachers } from '../../db/schema/index';
import { translate, type Locale } from '../../i18n';
import { containsPattern, loc } from '../catalog';
import type { Member } from './decide';
import { bookedSeatsNear, type BookedSeat } from './seats';
import type { CancelGives } from '../../../contracts/booking';
import { cardEnded } from '../../../../machines/domain/card-transitions';
import { heldBy } from '../cards/holders';
import { pendingApplications } from '../cards/applications';

/**
 * What the booking screens read: the schedule with the caller's state per class (spec §4), a class,
 * the caller's cards for a class (with reminders), the caller's bookings. Every member-owned row is
 * read through the caller's id.
 */

/** Spec §4 booking states as the caller sees a class, and not open yet for this member (decision 014). */
export type ClassViewState =
  | 'bookable'
  | 'queueable'
  | 'full'
  | 'expired'
  | 'not-open'
  | 'booked'
  | 'queued'
  | 'checked-in'
  | 'not-checked-in';

type ClassRow = typeof classes.$inferSelect;
type BookingRow = typeof bookings.$inferSelect;

// written out qualified: inside a subquery drizzle's unqualified columns would bind to the inner table
const queueCount = sql<number>`(select count(*)::int from bookings qc where qc.class_id = "classes"."id" and qc.state = 'queued')`;

const classSelect = {
  c: classes,
  queueCount,
  clubName: clubs.name,
  clubNameEn: clubs.nameEn,
  clubAddress: clubs.address,
  clubAddressEn: clubs.addressEn,
  teacherName: teachers.name,
  teacherNameEn: teachers.nameEn,
  teacherPhoto: teachers.photo,
};

type ClassJoined = {
  c: ClassRow;
  queueCount: number;
  clubName: string | null;
  clubNameEn: string | null;
  clubAddress: string | null;
  clubAddressEn: string | null;
  teacherName: string | null;
  teacherNameEn: string | null;
  teacherPhoto: string | null;
};

/** Members see a class's teacher only once the teacher confirmed it (the teacher schedule chart's `teacherShown` states; decision 029). */
const shownTeacher = and(eq(teachers.id, classes.teacherId), stateIn(classes.teacherState, TEACHER_SHOWN_STATES));

function baseQuery(db: Db) {
  return db.select(classSelect).from(classes).leftJoin(clubs, eq(clubs.id, classes.clubId)).leftJoin(teachers, shownTeacher);
}

const VIEW_OF_ROW: Partial<Record<BookingRowState, ClassViewState>> = {
  booked: 'booked',
  queued: 'queued',
  checked_in: 'checked-in',
  not_checked_in: 'not-checked-in',
};

function classState(c: ClassRow, queued: number, mine: BookingRow | undefined, now: Date, horizon: number | undefined): ClassViewState {
  if (mine) {
    // time has been written by the time-passing job (decision 018): the stored state is the one shown
    const v = VIEW_OF_ROW[mine.state];
    if (v) return v;
  }
  if (classRefusal(c, now)) return 'expired';
  if (horizon !== undefined && beyondHorizon(c.startsAt, now, horizon)) return 'not-open';
  if (c.bookedCount < c.capacity) return 'bookable';
  if (queued < c.queueCapacity) return 'queueable';
  return 'full';
}

function classOut(r: ClassJoined, locale: Locale) {
  const c = r.c;
  return {
    id: c.id,
    title: loc(locale, c.title, c.titleEn),
    clubId: c.clubId,
    clubName: r.clubName === null ? '' : loc(locale, r.clubName, r.clubNameEn),
    room: loc(locale, c.room, c.roomEn),
    teacherId: r.teacherName === null ? null : c.teacherId,
    teacherName: r.teacherName === null ? null : loc(locale, r.teacherName, r.teacherNameEn),
    teacherPhoto: r.teacherPhoto,
    classType: c.classType,
    style: c.style,
    effect: c.effect,
    difficulty: c.difficulty,
    timeOfDay: timeOfDay(c.startsAt),
    startsAt: c.startsAt.toISOString(),
    endsAt: classEnd(c).toISOString(),
    durationMin: c.durationMin,
    capacity: c.capacity,
    bookedCount: c.bookedCount,
    queueCount: r.queueCount,
    usesCost: c.usesCost,
  };
}

/** The caller's live or latest booking per class, and queue positions. */
async function myBookingsFor(
  db: Db,
  accountId: number,
  classIds: number[],
): Promise<Map<number, { b: BookingRow; position: number | null }>> {
  const out = new Map<number, { b: BookingRow; position: number | null }>();
  if (classIds.length === 0) return out;
  const rows = await db
    .select({
      b: bookings,
      position: sql<
        number | null
      >`case when "bookings"."state" = 'queued' then (select count(*)::int + 1 from bookings q where q.class_id = "bookings"."class_id" and q.state = 'queued' and q.id < "bookings"."id") end`,
    })
    .from(bookings)
    .where(and(eq(bookings.accountId, accountId), inArray(bookings.classId, classIds)))
    .orderBy(asc(bookings.id));
  for (const r of rows) {
    const prev = out.get(r.b.classId);
    const live = (s: string) => s !== 'cancelled' && s !== 'queue_cancelled';
    // a live booking wins over an earlier cancelled one; among equals the latest
    if (!prev || live(r.b.state) || !live(prev.b.state)) out.set(r.b.classId, { b: r.b, position: r.position });
  }
  return out;
}

function withMine(
  r: ClassJoined,
  mine: { b: BookingRow; position: number | null } | undefined,
  now: Date,
  horizon: number | undefined,
  locale: Locale,
  seats: readonly BookedSeat[] = [],
) {
  const state = classState(r.c, r.queueCount, mine?.b, now, horizon);
  // a class the member could still ask for that shares time with one of their seats: said before the tap
  const clash = CLASH_SHOWN.includes(state) ? clashOf(r.c, seats) : undefined;
  const live = mine && (state === 'booked' || state === 'queued' || state === 'checked-in' || state === 'not-checked-in');
  const beforeStart = now < r.c.startsAt;
  return {
    ...classOut(r, locale),
    state,
    // the first day this member may book it: the class's day minus their horizon
    opensOn: state === 'not-open' ? shanghaiDateAfter(r.c.startsAt, -horizon!) : null,
    bookingId: live ? mine.b.id : null,
    queuePosition: state === 'queued' ? (mine?.position ?? null) : null,
    promoted: live ? mine.b.promoted : false,
    canCancel: state === 'booked' && beforeStart,
    canCancelQueue: state === 'queued' && beforeStart,
    clashesWith: clash
      ? {
          bookingId: clash.bookingId,
          classId: clash.classId,
          title: loc(locale, clash.title, clash.titleEn),
          startsAt: clash.startsAt.toISOString(),
          endsAt: classEnd(clash).toISOString(),
        }
      : null,
  };
}

/** The states in which a clash is said: the member could still book, queue, or book later. */
const CLASH_SHOWN: readonly ClassViewState[] = ['bookable', 'queueable', 'not-open'];

/** The caller's seats near a list of classes (none for a visitor). */
async function seatsNear(db: Db, caller: Member | undefined, rows: readonly ClassJoined[]): Promise<BookedSeat[]> {
  if (!caller || rows.length === 0) return [];
  const from = new Date(Math.min(...rows.map((r) => r.c.startsAt.getTime())));
  const to = new Date(Math.max(...rows.map((r) => classEnd(r.c).getTime())));
  return bookedSeatsNear(db, caller.accountId, from, to);
}

/** How many days ahead the member can book with any card they hold (decision 014). */
async function memberHorizon(db: Db, now: Date, member: Member): Promise<number> {
  const cards = await db.select().from(memberCards).where(heldBy(member.accountId));
  return horizonDays(
    member.level,
    cards.filter((c) => mayStillBook(c, now)).map((c) => c.bookingWindowDays),
  );
}

/** The caller's booking window: today, how many days ahead, the last open day (Shanghai dates). */
export async function bookingWindow(db: Db, now: Date, member: Member) {
  const days = await memberHorizon(db, now, member);
  return { today: shanghaiDate(now), days, openUntil: shanghaiDateAfter(now, days) };
}

export interface ScheduleFilter {
  date?: string;
  clubId?: number;
  courseTimelong?: number;
  level?: Difficulty;
  courseAt?: TimeOfDay;
  catgory?: string;
  ability?: string;
  type?: ClassTypeKey;
  keywords?: string;
}

/** One day's classes (Shanghai calendar day; today by default), filtered (spec §3 course filter). */
export async function schedule(db: Db, now: Date, f: ScheduleFilter, caller: Member | undefined, locale: Locale) {
  const day = f.date ?? shanghaiDate(now);
  const from = shanghaiMidnight(day);
  const to = shanghaiMidnight(addDays(day, 1));
  const where: SQL[] = [gte(classes.startsAt, from), lt(classes.startsAt, to), inArray(classes.status, LISTED_CLASS_STATUSES)];
  if (f.clubId !== undefined) where.push(eq(classes.clubId, f.clubId));
  if (f.courseTimelong !== undefined) where.push(eq(classes.durationMin, f.courseTimelong));
  if (f.level) where.push(eq(classes.difficulty, f.level));
  if (f.catgory) where.push(eq(classes.style, f.catgory));
  if (f.ability) where.push(eq(classes.effect, f.ability));
  if (f.type) where.push(eq(classes.classType, f.type));
  if (f.courseAt) {
    const local = sql`extract(hour from ${classes.startsAt} at time zone 'Asia/Shanghai')`;
    if (f.courseAt === 'morning') where.push(sql`${local} < 12`);
    else if (f.courseAt === 'afternoon') where.push(sql`${local} >= 12 and ${local} < 18`);
    else where.push(sql`${local} >= 18`);
  }
  if (f.keywords) {
    const p = containsPattern(f.keywords);
    where.push(
      or(ilike(classes.title, p), ilike(classes.titleEn, p), ilike(teachers.name, p), ilike(teachers.nameEn, p), ilike(classes.style, p))!,
    );
  }
  const rows = (await baseQuery(db)
    .where(and(...where))
    .orderBy(asc(classes.startsAt), asc(classes.id))) as ClassJoined[];
  const mine = caller
    ? await myBookingsFor(
        db,
        caller.accountId,
        rows.map((r) => r.c.id),
      )
    : new Map();
  const horizon = caller ? await memberHorizon(db, now, caller) : undefined;
  const seats = await seatsNear(db, caller, rows);
  return rows.map((r) => withMine(r, mine.get(r.c.id), now, horizon, locale, seats));
}

/** How far ahead the search looks for classes: the longest booking window a member can have (a week). */
export const SEARCH_CLASS_DAYS = 7;

/**
 * The Homepage search's classes (decision 026-search): listed classes not yet started in
 * the next week whose title, style, class type or teacher holds the keywords, in either language;
 * those whose title holds them first, then by start. Each with the caller's state, as on the schedule.
 */
export async function searchClasses(db: Db, now: Date, keywords: string, caller: Member | undefined, locale: Locale, limit: number) {
  const p = containsPattern(keywords);
  const styleHolds = db
    .select({ key: styles.key })
    .from(styles)
    .where(or(ilike(styles.name, p), ilike(styles.nameEn, p)));
  const typeHolds = db
    .select({ key: classTypes.key })
    .from(classTypes)
    .where(or(ilike(classTypes.name, p), ilike(classTypes.nameEn, p)));
  const titleHolds = or(ilike(classes.title, p), ilike(classes.titleEn, p))!;
  const rows = (await baseQuery(db)
    .where(
      and(
        gt(classes.startsAt, now),
        lt(classes.startsAt, daysAfter(now, SEARCH_CLASS_DAYS)),
        inArray(classes.status, LISTED_CLASS_STATUSES),
        or(
          titleHolds,
          ilike(teachers.name, p),
          ilike(teachers.nameEn, p),
          inArray(classes.style, styleHolds),
          inArray(classes.classType, typeHolds),
        ),
      ),
    )
    .orderBy(sql`case when ${titleHolds} then 0 else 1 end`, asc(classes.startsAt), asc(classes.id))
    .limit(limit)) as ClassJoined[];
  const mine = caller
    ? await myBookingsFor(
        db,
        caller.accountId,
        rows.map((r) => r.c.id),
      )
    : new Map();
  const horizon = caller ? await memberHorizon(db, now, caller) : undefined;
  const seats = await seatsNear(db, caller, rows);
  return rows.map((r) => withMine(r, mine.get(r.c.id), now, horizon, locale, seats));
}

/** One class with the caller's state; undefined when there is none. */
export async function classDetail(db: Db, now: Date, id: number, caller: Member | undefined, locale: Locale) {
  const [r] = (await baseQuery(db).where(eq(classes.id, id))) as ClassJoined[];
  if (!r) return undefined;
  const mine = caller ? await myBookingsFor(db, caller.accountId, [id]) : new Map();
  const horizon = caller ? await memberHorizon(db, now, caller) : undefined;
  const shown = withMine(r, mine.get(id), now, horizon, locale, await seatsNear(db, caller, [r]));
  const gives = shown.bookingId !== null ? await cancelGivesOf(db, [shown.bookingId]) : new Map<number, CancelGives>();
  return {
    ...shown,
    clubAddress: r.clubAddress === null ? '' : loc(locale, r.clubAddress, r.clubAddressEn),
    classStatus: r.c.status,
    cancelGives: (shown.bookingId !== null && gives.get(shown.bookingId)) || null,
  };
}

type CardRow = typeof memberCards.$inferSelect;

/**
 * What cancelling each of these seats gives back: the uses it spent, and whether it is the booking
 * that activated its card (activation and the first seat share one instant), so the card stays
 * activated after the cancel. Queue places and ended bookings are absent.
 */
async function cancelGivesOf(db: Db, bookingIds: readonly number[]): Promise<Map<number, CancelGives>> {
  if (bookingIds.length === 0) return new Map();
  const rows = await db
    .select({ id: bookings.id, usesBack: bookings.usesSpent, activated: sql<boolean>`${memberCards.validFrom} = ${bookings.bookedAt}` })
    .from(bookings)
    .innerJoin(memberCards, eq(memberCards.id, bookings.cardId))
    .where(and(inArray(bookings.id, [...bookingIds]), eq(bookings.state, 'booked')));
  return new Map(rows.map((r) => [r.id, { usesBack: r.usesBack, cardStaysActive: r.activated === true }]));
}

async function everUsed(db: Db, cardIds: number[]): Promise<Set<number>> {
  if (cardIds.length === 0) return new Set();
  const rows = await db
    .select({ cardId: bookings.cardId })
    .from(bookings)
    .where(and(inArray(bookings.cardId, cardIds), inArray(bookings.state, BOOKING_SEAT_STATES)))
    .groupBy(bookings.cardId);
  return new Set(rows.map((r) => r.cardId));
}

/** A card as lists show it; `viewer` given: `familySub` says the viewer holds it as a family sub card (decision 040). */
export function cardOut(card: CardRow, locale: Locale, viewer?: number) {
  return {
    id: card.id,
    name: loc(locale, card.name, card.nameEn),
    number: card.number,
    cardType: card.cardType,
    clubId: card.clubId,
    status: card.status,
    usesTotal: card.usesTotal,
    usesLeft: card.usesLeft,
    validFrom: card.validFrom?.toISOString() ?? null,
    validUntil: card.validUntil?.toISOString() ?? null,
    validityDays: card.validityDays,
    extensionCount: card.extensionCount,
    weekendOnly: card.weekendOnly,
    offPeakSlots: card.offPeakSlots ?? [],
    bookingWindowDays: card.bookingWindowDays,
    experience: card.experience,
    familySub: viewer !== undefined && card.accountId !== viewer,
  };
}

/** The caller's cards, newest first. */
export async function myCards(db: Db, accountId: number, locale: Locale) {
  const rows = await db.select().from(memberCards).where(heldBy(accountId)).orderBy(desc(memberCards.id));
  return rows.map((r) => cardOut(r, locale, accountId));
}

/** The caller's cards for one class: usable or not (with the code and message) and the reminders. */
export async function cardsForClass(db: Db, now: Date, classId: number, member: Member, locale: Locale) {
  const [cls] = await db.select().from(classes).where(eq(classes.id, classId));
  if (!cls) return undefined;
  // a card that has ended (transferred, refunded) is no choice: it is on the card list, apart
  const rows = (await db.select().from(memberCards).where(heldBy(member.accountId)).orderBy(desc(memberCards.id))).filter(
    (r) => !cardEnded(r.status),
  );
  const ids = rows.map((r) => r.id);
  const [used, pending] = await Promise.all([everUsed(db, ids), pendingApplications(db, ids)]);
  const classWhy = classRefusal(cls, now);
  const out = rows.map((card) => {
    const why = classWhy ?? cardRefusal({ ...card, applicationPending: pending.has(card.id) }, cls, member, now);
    // used before: a class booked with it, or uses spent however they were (a transfer, the front desk)
    const everUsed = used.has(card.id) || (card.usesTotal !== null && card.usesLeft !== null && card.usesLeft < card.usesTotal);
    const reminders: CardReminder[] = why ? [] : cardReminders({ ...card, everUsed }, now);
    return {
      ...cardOut(card, locale, member.accountId),
      usable: why === null,
      code: why === null ? null : Errors[why].code,
      message: why === null ? null : translate(locale, Errors[why].message),
      reminders,
    };
  });
  return sortCardChoice(out, now);
}

/** The caller's bookings: upcoming (not yet ended, seat or queue) or past (the rest), paged; optionally one Shanghai month (the calendar). */
export async function myBookings(
  db: Db,
  now: Date,
  accountId: number,
  scope: 'upcoming' | 'past',
  pagenum: number,
  pagesize: number,
  locale: Locale,
  month?: string,
) {
  // the chart's open states: a queue entry expired at its class's start and a seat ended at its end
  // were written by the time-passing job (decision 018), so the state alone says upcoming or past
  const upcomingWhere = inArray(bookings.state, BOOKING_OPEN_STATES);
  const range = month ? shanghaiMonthRange(month) : undefined;
  const where = and(
    eq(bookings.accountId, accountId),
    scope === 'upcoming' ? upcomingWhere : sql`not (${upcomingWhere})`,
    ...(range ? [gte(classes.startsAt, range.from), lt(classes.startsAt, range.to)] : []),
  );
  const [total] = await db.select({ n: count() }).from(bookings).innerJoin(classes, eq(classes.id, bookings.classId)).where(where);
  const rows = await db
    .select({ ...classSelect, b: bookings })
    .from(bookings)
    .innerJoin(classes, eq(classes.id, bookings.classId))
    .leftJoin(clubs, eq(clubs.id, classes.clubId))
    .leftJoin(teachers, shownTeacher)
    .where(where)
    .orderBy(...(scope === 'upcoming' ? [asc(classes.startsAt), asc(bookings.id)] : [desc(classes.startsAt), desc(bookings.id)]))
    .limit(pagesize)
    .offset(pagenum * pagesize);
  const positions = await myBookingsFor(
    db,
    accountId,
    rows.filter((r) => r.b.state === 'queued').map((r) => r.c.id),
  );
  const gives = await cancelGivesOf(
    db,
    rows.filter((r) => r.b.state === 'booked').map((r) => r.b.id),
  );
  const list = rows.map((r) => {
    const state = r.b.state;
    return {
      bookingId: r.b.id,
      state,
      promoted: r.b.promoted,
      queuePosition: state === 'queued' ? (positions.get(r.c.id)?.position ?? null) : null,
      cardId: r.b.cardId,
      cancelledAt: r.b.cancelledAt?.toISOString() ?? null,
      cancelReason: r.b.cancelReason,
      canCancel: state === 'booked' && now < r.c.startsAt,
      canCancelQueue: state === 'queued' && now < r.c.startsAt,
      cancelGives: gives.get(r.b.id) ?? null,
      class: classOut(r as ClassJoined, locale),
    };
  });
  return { list, total: total?.n ?? 0, pagenum, pagesize };
}

/** Upcoming booked classes (not yet started): the footer badge. */
export function bookedCount(db: Db, now: Date, accountId: number): Promise<number> {
  return bookedCounts(db, { now, accountId });
}

/** The footer count of many members at one moment, kept prepared (src/server/db/prepared.ts). */
const bookedCountAt = perDatabase((db: Db) =>
  db
    .select({ accountId: bookings.accountId, n: count() })
    .from(bookings)
    .innerJoin(classes, eq(classes.id, bookings.classId))
    .where(
      and(
        sql`${bookings.accountId} = any(${sql.placeholder('accountIds')}::int[])`,
        eq(bookings.state, 'booked'),
        gt(classes.startsAt, sql.placeholder('at')),
      ),
    )
    .groupBy(bookings.accountId)
    .prepare('booked_count_at'),
);

/** The footer counts asked in one turn of the event loop (a crowd's bookings answered together), one statement per moment asked. */
const bookedCounts = perTurn(async (db: Db, asks: readonly { now: Date; accountId: number }[]) => {
  const counts = new Map<string, number>();
  for (const at of new Set(asks.map((a) => a.now.getTime()))) {
    const accountIds = [...new Set(asks.filter((a) => a.now.getTime() === at).map((a) => a.accountId))];
    for (const r of await bookedCountAt(db).execute({ accountIds, at: new Date(at).toISOString() }))
      counts.set(`${at} ${r.accountId}`, r.n);
  }
  return asks.map((a) => counts.get(`${a.now.getTime()} ${a.accountId}`) ?? 0);
});

/** The caller's booking with its class and club, for the calendar file. */
export async function bookingForCalendar(db: Db, accountId: number, bookingId: number) {
  const [row] = await db
    .select({ b: bookings, c: classes, club: clubs })
    .from(bookings)
    .innerJoin(classes, eq(classes.id, bookings.classId))
    .innerJoin(clubs, eq(clubs.id, classes.clubId))
    .where(and(eq(bookings.id, bookingId), eq(bookings.accountId, accountId)));
  return row;
}
