import { and, asc, eq, gt, inArray, lt, ne, sql } from 'drizzle-orm';
import { initialBookingState, nextBookingState } from '../../../../machines/domain/booking-transitions';
import { cardFactsOf, nextCardStatus } from '../../../../machines/domain/card-transitions';
import {
  cancelRefusal,
  cardRefusal,
  clashOf,
  classEnd,
  classRefusal,
  LONGEST_CLASS_MS,
  MAX_UPCOMING_PER_MEMBER,
  validUntilFrom,
  type BookingRefusal,
} from '../../../domain/booking-rules';
import { shanghaiFormat } from '../../../domain/time';
import type { Clock } from '../../../domain/clock';
import { Errors, OVERLAPPING_WITH } from '../../../domain/errors';
import type { Db, Tx } from '../../db/client';
import { accounts, bookings, classes, memberCards, notifications } from '../../db/schema/index';
import { ApiError } from '../../http/api-error';
import { promotedNotice, skippedNotice } from './notices';
import { bookedSeatsNear, type BookedSeat } from './seats';
import { heldBy } from '../cards/holders';
import { pendingApplicationSql } from '../cards/applications';
import { executePrepared } from '../../db/prepared';
import { rowsOf } from '../../db/rows';
import { decide, StaleRead } from '../../db/transaction';
import { instant } from '../../db/instant';

/**
 * Booking decisions: book, cancel a seat (promoting the queue), cancel a queue entry.
 * Each decision is one transaction that locks the class row, then card rows (always in that order,
 * so two decisions cannot deadlock on them): no class over capacity, no use spent twice.
 */

export interface Member {
  accountId: number;
  level: string;
}

export type BookResult =
  | { bookingId: number; state: 'booked'; activated: boolean; usesLeft: number | null }
  | { bookingId: number; state: 'queued'; position: number };

export type ClassRow = typeof classes.$inferSelect;
export type CardRow = typeof memberCards.$inferSelect;

/** A class's end in SQL. */
export const classEndsAt = sql`${classes.startsAt} + ${classes.durationMin} * interval '1 minute'`;

export const refuse = (r: BookingRefusal): never => {
  throw new ApiError(Errors[r]);
};

async function lockClass(tx: Tx, classId: number): Promise<ClassRow | undefined> {
  const [row] = await tx.select().from(classes).where(eq(classes.id, classId)).for('update');
  return row;
}

/**
 * Serialises one member's decisions (two overlapping classes booked at the same moment). FOR NO KEY
 * UPDATE: rows that merely reference the account (a new session, a notice) are not blocked.
 */
async function lockMember(tx: Tx, accountId: number): Promise<void> {
  await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).for('no key update');
}

/** A card the member holds (owned, or shared with them as a family sub card: decision 040), locked: its uses are spent under this one lock whoever books. */
async function lockCard(tx: Tx, cardId: number, accountId: number): Promise<CardRow | undefined> {
  const [row] = await tx
    .select()
    .from(memberCards)
    .where(and(eq(memberCards.id, cardId), heldBy(accountId)))
    .for('update');
  return row;
}

/** The member's booked seat that shares time with this class (20030), if any. */
async function overlappingSeat(tx: Tx, accountId: number, cls: ClassRow): Promise<BookedSeat | undefined> {
  return clashOf(cls, await bookedSeatsNear(tx, accountId, cls.startsAt, classEnd(cls)));
}

/** 20030 naming the booking it clashes with (in the member's language), which the data carries too. */
export function clashRefusal(clash: BookedSeat): ApiError {
  return new ApiError(Errors.overlapping, {
    message: OVERLAPPING_WITH,
    values: { title: { zh: clash.title, en: clash.titleEn }, time: shanghaiFormat(clash.startsAt, 'MM-DD HH:mm') },
    data: { clash: { bookingId: clash.bookingId, classId: clash.classId, startsAt: clash.startsAt.toISOString() } },
  });
}

/** Spends the class's uses on a count card and activates an inactive card (spec §4). */
async function spendCard(
  tx: Tx,
  card: CardRow,
  cls: ClassRow,
  now: Date,
): Promise<{ spent: number; activated: boolean; usesLeft: number | null }> {
  const spent = card.usesLeft === null ? 0 : cls.usesCost;
  const activatedStatus = nextCardStatus(card.status, 'card.activate', cardFactsOf(card));
  const activated = activatedStatus !== null;
  const set: Partial<typeof memberCards.$inferInsert> = {};
  if (activatedStatus) {
    set.status = activatedStatus;
    set.validFrom = now;
    set.validUntil = validUntilFrom(now, card.validityDays);
  }
  if (spent > 0 || activated) {
    await tx
      .update(memberCards)
      .set({ ...set, ...(spent > 0 ? { usesLeft: sql`${memberCards.usesLeft} - ${spent}` } : {}) })
      .where(eq(memberCards.id, card.id));
  }
  return { spent, activated, usesLeft: card.usesLeft === null ? null : card.usesLeft - spent };
}

/** The class as it is now (not locked: book_seats re-checks it under the lock), with the member locked, in one round trip. */
async function classAndMember(tx: Tx, classId: number, accountId: number): Promise<ClassRow | undefined> {
  const [row] = await tx
    .select({ cls: classes })
    .from(classes)
    .innerJoin(accounts, eq(accounts.id, accountId))
    .where(eq(classes.id, classId))
    .for('no key update', { of: accounts });
  return row?.cls;
}

/**
 * The card the member holds, locked, with the member's side read in the same round trip: already in
 * this class (20006), upcoming count (20002) and the booked seats a clash is looked for among
 * (`bookedSeatsNear`'s rule). The member lock is held, so no other decision of theirs moves these.
 */
async function cardAndFacts(tx: Tx, cardId: number, accountId: number, cls: ClassRow, now: Date) {
  const from = new Date(cls.startsAt.getTime() - LONGEST_CLASS_MS).toISOString();
  const to = classEnd(cls).toISOString();
  const [row] = await tx
    .select({
      card: memberCards,
      live: sql<boolean>`exists (select 1 from bookings where class_id = ${cls.id} and account_id = ${accountId} and state in ('booked', 'queued'))`,
      upcoming: sql<number>`(select count(*)::int from bookings b join classes k on k.id = b.class_id
            where b.account_id = ${accountId} and b.state in ('booked', 'queued') and k.starts_at > ${now.toISOString()}::timestamptz)`,
      seats: sql<unknown>`(select coalesce(json_agg(json_build_object('bookingId', b.id, 'classId', k.id, 'title', k.title, 'titleEn', k.title_en, 'startsAt', k.starts_at, 'durationMin', k.duration_min)), '[]'::json)
            from bookings b join classes k on k.id = b.class_id
            where b.account_id = ${accountId} and b.state = 'booked' and k.starts_at < ${to}::timestamptz and k.starts_at > ${from}::timestamptz)`,
      pending: pendingApplicationSql(),
    })
    .from(memberCards)
    .where(and(eq(memberCards.id, cardId), heldBy(accountId)))
    .for('update', { of: memberCards });
  if (!row) return undefined;
  return {
    card: row.card,
    live: !!row.live,
    upcoming: Number(row.upcoming),
    seats: seatsFromJson(row.seats),
    applicationPending: row.pending !== null,
  };
}

/** Booked seats aggregated as JSON by SQL (`json_agg`), as `bookedSeatsNear` answers them. */
export function seatsFromJson(value: unknown): BookedSeat[] {
  const raw = (typeof value === 'string' ? JSON.parse(value) : value) as (Omit<BookedSeat, 'startsAt'> & { startsAt: string })[];
  return raw.map((x) => ({ ...x, startsAt: new Date(x.startsAt) }));
}

/** What a booked seat spends and does to its card: the class's uses on a count card, and the chart's activation. */
export function spendingOf(card: CardRow, cls: ClassRow, now: Date) {
  const spent = card.usesLeft === null ? 0 : cls.usesCost;
  const activatedStatus = nextCardStatus(card.status, 'card.activate', cardFactsOf(card));
  const validUntil = activatedStatus ? validUntilFrom(now, card.validityDays) : null;
  return { spent, activatedStatus, validUntil };
}

/** The class changed between the decision's read and its lock (time moved, cancelled): decide again; refused as any failed booking when it keeps changing. */
export class StaleClass extends StaleRead {
  constructor(message: string) {
    super(message, () => new ApiError(Errors.bookingFailed));
  }
}

/** A booking request that passed every check, for `takeSeats`: who, with which card, and what a seat spends and does to it. */
export type SeatRequest = { accountId: number; card: CardRow } & ReturnType<typeof spendingOf>;

/**
 * The class's part of the bookings that arrived together (one, or a batch: decision 048), in arrival
 * order under its row lock, in one round trip (book_seats, `db/functions/book_seats.sql`):
 * the class is still what the checks saw (else StaleClass: decide again), then a seat (the card spent
 * and activated) while there is room, else a queue place counted under the lock, else 'queue full'.
 */
export async function takeSeats(tx: Tx, cls: ClassRow, now: Date, requests: SeatRequest[]): Promise<(BookResult | 'queue full')[]> {
  const payload = requests.map((q) => ({
    account_id: q.accountId,
    card_id: q.card.id,
    spend: q.spent,
    activate_status: q.activatedStatus,
    valid_until: q.validUntil?.toISOString() ?? null,
  }));
  const r = await executePrepared(
    tx,
    sql`select ord, outcome, booking_id, queue_position from book_seats(
    ${cls.id}::int, ${now.toISOString()}::timestamptz, ${cls.startsAt.toISOString()}::timestamptz, ${cls.durationMin}::int, ${cls.usesCost}::int,
    ${JSON.stringify(payload)}::jsonb)`,
  );
  const rows = rowsOf<{
    ord: number;
    outcome: 'booked' | 'queued' | 'queue_full' | 'stale';
    booking_id: number | null;
    queue_position: number | null;
  }>(r);
  if (rows.length !== requests.length || rows.some((row) => row.outcome === 'stale'))
    throw new StaleClass('the class changed while deciding');
  const answers: (BookResult | 'queue full')[] = [];
  for (const row of rows) {
    const q = requests[Number(row.ord)]!;
    if (row.outcome === 'queue_full') {
      answers[Number(row.ord)] = 'queue full';
      continue;
    }
    // the chart gives a request its first state (a seat while there is room, else the queue): the
    // locked row's answer must be one it allows
    if (initialBookingState({ classFull: row.outcome === 'queued' }) !== row.outcome)
      throw new Error(`book_seats answered ${row.outcome} against the booking chart`);
    answers[Number(row.ord)] =
      row.outcome === 'booked'
        ? {
            bookingId: Number(row.booking_id),
            state: 'booked',
            activated: q.activatedStatus !== null,
            usesLeft: q.card.usesLeft === null ? null : q.card.usesLeft - q.spent,
          }
        : { bookingId: Number(row.booking_id), state: 'queued', position: Number(row.queue_position) };
  }
  // one answer per request, none twice (the callers read answers[i] for requests[i])
  if (requests.some((_, i) => answers[i] === undefined)) throw new Error('book_seats left a request without an answer');
  // the queue is promoted by id: seats and queue places are numbered in arrival order
  const ids = answers.flatMap((a) => (a === 'queue full' ? [] : [a.bookingId]));
  if (ids.some((id, i) => i > 0 && id <= ids[i - 1]!)) throw new Error('book_seats numbered the batch out of arrival order');
  return answers;
}

/**
 * Books a seat, or joins the queue of a full class (decision 048). Everything that does not need the
 * class row lock comes first: the class read without it, the member and the card locked (only this
 * member's decisions and this card's holders wait on them), the card's rules, the windows, clashes and
 * limits checked. Then one call locks the class row, re-checks the class the checks saw and decides
 * seat or queue, so the hot lock is held for that one statement and the commit. Lock order: member,
 * card, class (a promotion takes class, member, card: a rare cycle between them is a deadlock that
 * PostgreSQL breaks and `decide` retries).
 */
export async function bookClass(db: Db, clock: Clock, member: Member, input: { classId: number; cardId: number }): Promise<BookResult> {
  return decide(db, async (tx) => {
    const now = clock.now();
    const cls = await classAndMember(tx, input.classId, member.accountId);
    if (!cls) throw new ApiError(Errors.notFound, { field: 'classId' });
    const classWhy = classRefusal(cls, now);
    if (classWhy) refuse(classWhy);
    const mine = await cardAndFacts(tx, input.cardId, member.accountId, cls, now);
    if (!mine) throw new ApiError(Errors.notFound, { field: 'cardId' });
    const { card } = mine;
    // a second tap says "already booked", not what the first tap did to the card
    if (mine.live) refuse('alreadyBooked');
    const cardWhy = cardRefusal({ ...card, applicationPending: mine.applicationPending }, cls, member, now);
    if (cardWhy) refuse(cardWhy);
    const clash = clashOf(cls, mine.seats);
    if (clash) throw clashRefusal(clash);
    if (mine.upcoming >= MAX_UPCOMING_PER_MEMBER) refuse('bookingLimit');
    const [answer] = await takeSeats(tx, cls, now, [{ accountId: member.accountId, card, ...spendingOf(card, cls, now) }]);
    return answer === 'queue full' ? refuse('bookingLimit') : answer!;
  });
}

/** The caller's booking with its class locked first (lock order: class, then booking and cards). */
async function lockOwnBooking(tx: Tx, accountId: number, bookingId: number) {
  const [peek] = await tx
    .select({ classId: bookings.classId })
    .from(bookings)
    .where(and(eq(bookings.id, bookingId), eq(bookings.accountId, accountId)));
  if (!peek) throw new ApiError(Errors.notFound, { field: 'bookingId' });
  const cls = (await lockClass(tx, peek.classId))!;
  const [booking] = await tx.select().from(bookings).where(eq(bookings.id, bookingId)).for('update');
  return { cls, booking: booking! };
}

/** Cancels a seat, gives the use back, and books the first queued member whose card still qualifies. */
export async function cancelBooking(db: Db, clock: Clock, member: Member, bookingId: number) {
  return decide(db, async (tx) => {
    const now = clock.now();
    const { cls, booking } = await lockOwnBooking(tx, member.accountId, bookingId);
    const why = cancelRefusal(cls, now);
    if (why) refuse(why);
    const next = nextBookingState(booking.state, 'booking.cancel', { promoted: booking.promoted });
    if (!next) refuse('bookingFailed');
    await tx.update(bookings).set({ state: next!, cancelledAt: now, cancelReason: 'member' }).where(eq(bookings.id, booking.id));
    if (booking.usesSpent > 0) {
      const card = await lockCard(tx, booking.cardId, member.accountId);
      if (card) {
        await tx
          .update(memberCards)
          .set({ usesLeft: sql`${memberCards.usesLeft} + ${booking.usesSpent}` })
          .where(eq(memberCards.id, card.id));
      }
    }
    await tx
      .update(classes)
      .set({ bookedCount: sql`${classes.bookedCount} - 1` })
      .where(eq(classes.id, cls.id));
    const promoted = await promoteFromQueue(tx, now, { ...cls, bookedCount: cls.bookedCount - 1 });
    return { bookingId: booking.id, state: next!, usesReturned: booking.usesSpent, promotedBookingId: promoted };
  });
}

/** Leaves the queue of a class before it starts. */
export async function cancelQueue(db: Db, clock: Clock, member: Member, bookingId: number) {
  return decide(db, async (tx) => {
    const now = clock.now();
    const { cls, booking } = await lockOwnBooking(tx, member.accountId, bookingId);
    const why = cancelRefusal(cls, now);
    if (why) refuse(why);
    const next = nextBookingState(booking.state, 'queue.cancel');
    if (!next) refuse('bookingFailed');
    await tx.update(bookings).set({ state: next!, cancelledAt: now, cancelReason: 'member' }).where(eq(bookings.id, booking.id));
    return { bookingId: booking.id, state: next! };
  });
}

/**
 * Fills free seats from the queue, in queue order: a member whose card still qualifies is booked
 * (use spent, card activated, notified, and taken out of queues for classes that overlap this one);
 * a member whose card no longer qualifies leaves the queue and is told why.
 */
export async function promoteFromQueue(tx: Tx, now: Date, cls: ClassRow): Promise<number | null> {
  let free = cls.capacity - cls.bookedCount;
  let firstPromoted: number | null = null;
  // a cursor, so each entry is looked at once whatever state the chart moves it to
  let after = 0;
  while (free > 0) {
    const [head] = await tx
      .select({ b: bookings, level: accounts.level })
      .from(bookings)
      .innerJoin(accounts, eq(accounts.id, bookings.accountId))
      .where(and(eq(bookings.classId, cls.id), eq(bookings.state, 'queued'), gt(bookings.id, after)))
      // row order is queue order: ids are taken under the class lock, as the position shown was
      // counted; queuedAt may have been read before the lock and can disagree under concurrency
      .orderBy(asc(bookings.id))
      .limit(1)
      .for('update', { of: bookings });
    if (!head) break;
    const entry = head.b;
    after = entry.id;
    const member = { accountId: entry.accountId, level: head.level };
    await lockMember(tx, entry.accountId);
    const card = await lockCard(tx, entry.cardId, entry.accountId);
    let why: BookingRefusal | null = card ? cardRefusal(card, cls, member, now) : 'invalidMemberCard';
    if (!why && (await overlappingSeat(tx, entry.accountId, cls))) why = 'overlapping';
    if (why || !card) {
      await tx
        .update(bookings)
        .set({ state: nextBookingState('queued', 'queue.skip')!, cancelledAt: now, cancelReason: 'not-qualified' })
        .where(eq(bookings.id, entry.id));
      await tx
        .insert(notifications)
        .values({ accountId: entry.accountId, createdAt: now, ...skippedNotice(cls, why ?? 'invalidMemberCard') });
      continue;
    }
    const used = await spendCard(tx, card, cls, now);
    await tx
      .update(bookings)
      .set({ state: nextBookingState('queued', 'queue.promote')!, promoted: true, bookedAt: now, usesSpent: used.spent })
      .where(eq(bookings.id, entry.id));
    await tx
      .update(classes)
      .set({ bookedCount: sql`${classes.bookedCount} + 1` })
      .where(eq(classes.id, cls.id));
    await tx.insert(notifications).values({ accountId: entry.accountId, createdAt: now, ...promotedNotice(cls, used.spent) });
    await leaveOverlappingQueues(tx, now, entry.accountId, cls);
    firstPromoted ??= entry.id;
    free -= 1;
  }
  return firstPromoted;
}

/** A member booked into `cls` leaves the queues of classes that overlap it. */
async function leaveOverlappingQueues(tx: Tx, now: Date, accountId: number, cls: ClassRow): Promise<void> {
  const end = classEnd(cls);
  const overlapping = tx
    .select({ id: classes.id })
    .from(classes)
    .where(and(ne(classes.id, cls.id), lt(classes.startsAt, end), gt(classEndsAt, instant(cls.startsAt))));
  await tx
    .update(bookings)
    .set({ state: nextBookingState('queued', 'queue.cancel')!, cancelledAt: now, cancelReason: 'overlap' })
    .where(and(eq(bookings.accountId, accountId), eq(bookings.state, 'queued'), inArray(bookings.classId, overlapping)));
}
