import { and, asc, eq, gt, inArray, lt, ne, sql } from 'drizzle-orm';
import { BOOKING_OPEN_STATES, nextBookingState } from '../../../../machines/domain/booking-transitions';
import { nextClassStatus } from '../../../../machines/domain/schedule-class-transitions';
import type { ClassCancelled, ClassEditInput, ClassInput, ClassSaved } from '../../../contracts/schedule';
import { classEnd } from '../../../domain/booking-rules';
import { Errors } from '../../../domain/errors';
import { CLASS_CAPACITY_MAX } from '../../../domain/limits';
import { parseShanghaiWallTime } from '../../../domain/time';
import type { Db, Tx } from '../../db/client';
import { bookings, classes, clubs, memberCards, notifications, styles, teachers } from '../../db/schema/index';
import { ApiError } from '../../http/api-error';
import type { Audit } from '../staff-audit/audit-log';
import { lockKey } from '../auth/locks';
import { decide } from '../../db/transaction';
import { instant } from '../../db/instant';
import { classEndsAt, promoteFromQueue } from '../booking/decide';
import { staffClubsOf, worksFor } from '../staff/staff-clubs';
import { askTeacher } from './teacher-schedule';
import { classCancelledNotice, timeChangedNotice } from './notices';

/**
 * Staff create, edit and cancel classes (decision 041). Each is one transaction under the
 * class's row lock (the booking decisions take the same lock first), so a cancel and a booking of the
 * same class never both win: a booking that comes second finds the class cancelled; one that came
 * first is cancelled with the class and its uses given back.
 */

type ClassRow = typeof classes.$inferSelect;
type Slot = { startsAt: Date; durationMin: number };

/** The Shanghai day and wall-clock start and end as instants (70160 when the end is not after the start). */
function slotOf(body: { day: string; start: string; end: string }): Slot {
  const startsAt = parseShanghaiWallTime(`${body.day} ${body.start}:00`);
  const endsAt = parseShanghaiWallTime(`${body.day} ${body.end}:00`);
  if (!startsAt || !endsAt) throw new ApiError(Errors.invalidField, { field: 'start', values: { field: 'start' } });
  if (endsAt.getTime() <= startsAt.getTime()) throw new ApiError(Errors.classEndBeforeStart, { field: 'end' });
  return { startsAt, durationMin: Math.round((endsAt.getTime() - startsAt.getTime()) / 60_000) };
}

function checkCapacity(capacity: number): void {
  if (capacity < 1 || capacity > CLASS_CAPACITY_MAX) throw new ApiError(Errors.classCapacityRange, { field: 'capacity' });
}

/** 70163 when another open class of the club uses the room at an overlapping time. Call under the room's lock. */
async function checkRoomFree(tx: Tx, clubId: number, room: string, slot: Slot, self?: number): Promise<void> {
  const end = new Date(slot.startsAt.getTime() + slot.durationMin * 60_000);
  const [other] = await tx
    .select({ id: classes.id })
    .from(classes)
    .where(
      and(
        eq(classes.clubId, clubId),
        sql`lower(trim(${classes.room})) = lower(trim(${room}))`,
        eq(classes.status, 'open'),
        self === undefined ? undefined : ne(classes.id, self),
        lt(classes.startsAt, end),
        gt(classEndsAt, instant(slot.startsAt)),
      ),
    )
    .limit(1);
  if (other) throw new ApiError(Errors.classRoomTaken, { field: 'start', data: { classId: other.id } });
}

/** Two staff placing classes in one room at once: the second waits and then sees the first. */
const lockRoom = (tx: Tx, clubId: number, room: string) => lockKey(tx, `room:${clubId}:${room.trim().toLowerCase()}`);

async function teacherExists(tx: Tx, teacherId: number) {
  const [t] = await tx.select().from(teachers).where(eq(teachers.id, teacherId));
  if (!t) throw new ApiError(Errors.notFound, { field: 'teacherId' });
  return t;
}

const saved = (c: ClassRow): ClassSaved => ({
  id: c.id,
  status: c.status,
  startsAt: c.startsAt.toISOString(),
  endsAt: classEnd(c).toISOString(),
  capacity: c.capacity,
  teacherId: c.teacherId,
  state: c.teacherState,
});

/** A new class at one of the staff member's clubs; a teacher given is asked to confirm (decision 029). */
export async function createClass(db: Db, now: Date, hours: number, staffId: number, body: ClassInput, audit?: Audit): Promise<ClassSaved> {
  const slot = slotOf(body);
  if (slot.startsAt.getTime() <= now.getTime()) throw new ApiError(Errors.classStartPassed, { field: 'start' });
  checkCapacity(body.capacity);
  return decide(db, async (tx) => {
    const [club] = await tx.select({ id: clubs.id }).from(clubs).where(eq(clubs.id, body.clubId));
    if (!club) throw new ApiError(Errors.notFound, { field: 'clubId' });
    if (!worksFor(await staffClubsOf(tx, staffId), club.id)) throw new ApiError(Errors.classClubNotYours, { field: 'clubId' });
    if (body.teacherId) await teacherExists(tx, body.teacherId);
    await lockRoom(tx, club.id, body.room);
    await checkRoomFree(tx, club.id, body.room, slot);
    const [style] = await tx.select({ key: styles.key }).from(styles).orderBy(asc(styles.sort), asc(styles.id)).limit(1);
    const [row] = await tx
      .insert(classes)
      .values({
        clubId: club.id,
        room: body.room.trim(),
        classType: body.classType,
        style: style?.key ?? 'hatha',
        effect: 'flexibility',
        difficulty: 'beginner',
        title: body.title.trim(),
        startsAt: slot.startsAt,
        durationMin: slot.durationMin,
        capacity: body.capacity,
        createdAt: now,
      })
      .returning();
    const cls = body.teacherId ? await askTeacher(tx, now, hours, row!, body.teacherId) : row!;
    await audit?.(tx, { action: 'class.create', subjectKind: 'class', subjectId: cls.id });
    return saved(cls);
  });
}

/** The staff member's open class, locked: 404 for an unknown class or another club's, 70167 cancelled, 70165 started. */
async function lockOwnClass(tx: Tx, now: Date, staffId: number, classId: number): Promise<ClassRow> {
  const q = tx.select().from(classes).where(eq(classes.id, classId));
  const [c] = await q.for('update');
  if (!c || !worksFor(await staffClubsOf(tx, staffId), c.clubId)) throw new ApiError(Errors.notFound, { field: 'id' });
  if (c.status !== 'open') throw new ApiError(Errors.classAlreadyCancelled);
  if (now.getTime() >= c.startsAt.getTime()) throw new ApiError(Errors.classStartedNoChange);
  return c;
}

/** The members with a seat or a queue place on the class. */
async function holders(tx: Tx, classId: number): Promise<number[]> {
  const rows = await tx
    .selectDistinct({ accountId: bookings.accountId })
    .from(bookings)
    .where(and(eq(bookings.classId, classId), inArray(bookings.state, BOOKING_OPEN_STATES)));
  return rows.map((r) => r.accountId);
}

/**
 * Changes the time, capacity or teacher of a class that has not started. The capacity never goes
 * below the seats booked (70164); a raised capacity books the queue's first. A changed time or teacher
 * asks the teacher again (the chart's `schedule.assign`); members holding a place are told of a new time.
 */
export async function editClass(
  db: Db,
  now: Date,
  hours: number,
  staffId: number,
  classId: number,
  body: ClassEditInput,
  audit?: Audit,
): Promise<ClassSaved> {
  const slot = slotOf(body);
  checkCapacity(body.capacity);
  return decide(db, async (tx) => {
    let c = await lockOwnClass(tx, now, staffId, classId);
    const timeChanged = slot.startsAt.getTime() !== c.startsAt.getTime() || slot.durationMin !== c.durationMin;
    if (timeChanged && slot.startsAt.getTime() <= now.getTime()) throw new ApiError(Errors.classStartPassed, { field: 'start' });
    if (body.capacity < c.bookedCount)
      throw new ApiError(Errors.classCapacityBelowBooked, { field: 'capacity', data: { booked: c.bookedCount } });
    const teacherId = body.teacherId ?? c.teacherId;
    const teacherChanged = teacherId !== c.teacherId;
    if (teacherChanged && teacherId !== null) await teacherExists(tx, teacherId);
    if (timeChanged) {
      await lockRoom(tx, c.clubId, c.room);
      await checkRoomFree(tx, c.clubId, c.room, slot, c.id);
    }
    const before = c;
    [c] = (await tx
      .update(classes)
      .set({ startsAt: slot.startsAt, durationMin: slot.durationMin, capacity: body.capacity })
      .where(eq(classes.id, c.id))
      .returning()) as [ClassRow];
    if (teacherId !== null && (timeChanged || teacherChanged)) c = await askTeacher(tx, now, hours, c, teacherId, before.teacherId);
    if (timeChanged) {
      const members = await holders(tx, c.id);
      if (members.length)
        await tx.insert(notifications).values(members.map((accountId) => ({ accountId, createdAt: now, ...timeChangedNotice(before, c) })));
    }
    if (body.capacity > before.capacity) await promoteFromQueue(tx, now, c);
    const [fresh] = await tx.select().from(classes).where(eq(classes.id, c.id));
    await audit?.(tx, { action: 'class.edit', subjectKind: 'class', subjectId: c.id });
    return saved(fresh!);
  });
}

/**
 * Cancels a class that has not started (the class chart's `class.cancel`): every seat is cancelled
 * with its card's uses given back, every queue place ended, each member told, in one transaction.
 */
export async function cancelClass(db: Db, now: Date, staffId: number, classId: number, audit?: Audit): Promise<ClassCancelled> {
  return decide(db, async (tx) => {
    const c = await lockOwnClass(tx, now, staffId, classId);
    const status = nextClassStatus(c.status, 'class.cancel');
    if (status === null) throw new ApiError(Errors.classAlreadyCancelled);
    const q = tx
      .select()
      .from(bookings)
      .where(and(eq(bookings.classId, c.id), inArray(bookings.state, BOOKING_OPEN_STATES)))
      .orderBy(asc(bookings.id));
    const open = await q.for('update');
    let bookingsCancelled = 0;
    let queueCleared = 0;
    let usesReturned = 0;
    for (const b of open) {
      const seat = b.state === 'booked';
      const next = nextBookingState(b.state, seat ? 'booking.cancel' : 'queue.cancel', { promoted: b.promoted });
      if (next === null) continue;
      await tx.update(bookings).set({ state: next, cancelledAt: now, cancelReason: 'class-cancelled' }).where(eq(bookings.id, b.id));
      if (seat) {
        bookingsCancelled += 1;
        if (b.usesSpent > 0) {
          await tx
            .update(memberCards)
            .set({ usesLeft: sql`${memberCards.usesLeft} + ${b.usesSpent}` })
            .where(eq(memberCards.id, b.cardId));
          usesReturned += b.usesSpent;
        }
      } else queueCleared += 1;
    }
    await tx.update(classes).set({ status, bookedCount: 0, cancelledAt: now, cancelledBy: staffId }).where(eq(classes.id, c.id));
    const told = [...new Set(open.map((b) => b.accountId))];
    const [t] =
      c.teacherId === null ? [] : await tx.select({ accountId: teachers.accountId }).from(teachers).where(eq(teachers.id, c.teacherId));
    if (t?.accountId) told.push(t.accountId);
    if (told.length)
      await tx.insert(notifications).values(told.map((accountId) => ({ accountId, createdAt: now, ...classCancelledNotice(c) })));
    await audit?.(tx, { action: 'class.cancel', subjectKind: 'class', subjectId: c.id });
    return { id: c.id, status: 'cancelled', bookingsCancelled, queueCleared, usesReturned };
  });
}
