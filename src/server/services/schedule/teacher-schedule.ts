import { and, asc, eq, gt, gte, inArray, lt, lte, type SQL } from 'drizzle-orm';
import {
  nextTeacherScheduleState,
  scheduleMoves,
  type TeacherScheduleState,
} from '../../../../machines/domain/schedule-teacher-confirmation-transitions';
import { BOOKING_OPEN_STATES } from '../../../../machines/domain/booking-transitions';
import type { TeacherScheduleEvent } from '../../../../machines/domain/schedule-teacher-confirmation.machine';
import type { StaffWeek, TeacherClass, TeacherHome, TeacherWeek } from '../../../contracts/schedule';
import { classEnd } from '../../../domain/booking-rules';
import { Errors } from '../../../domain/errors';
import { GLANCE_OF_STATE } from '../../../domain/teacher-schedule';
import { addDays, shanghaiDate, shanghaiMidnight, weekdayOf } from '../../../domain/time';
import type { Db, Tx } from '../../db/client';
import { accounts, bookings, classes, clubs, notifications, teachers } from '../../db/schema/index';
import { ApiError } from '../../http/api-error';
import type { Audit } from '../staff-audit/audit-log';
import type { Locale } from '../../i18n';
import { decide } from '../../db/transaction';
import { guards } from '../../db/guards';
import { staffClubsOf, worksFor } from '../staff/staff-clubs';
import { loc } from '../catalog';
import { askedNotice, declinedNotice, lapsedNotice, teacherChangedNotice } from './notices';

/**
 * The teacher schedule (decision 029): every write of `classes.teacher_state` asks the
 * teacher schedule chart for the next state and updates `where teacher_state = <the state read>`, so
 * a double tap or a race changes it once. A decision on one class first catches its deadline up
 * (decision 018), so a teacher cannot confirm a class the job would already have called unconfirmed.
 */

type ClassRow = typeof classes.$inferSelect;
type Event = TeacherScheduleEvent['type'];

/** The Monday (Shanghai calendar) of the week holding `date`. */
export const mondayOf = (date: string): string => addDays(date, -((weekdayOf(date) + 6) % 7));

/** A week from its Monday: its instants, and its neighbours' Mondays. */
function weekRange(day: string) {
  const week = mondayOf(day);
  return {
    week,
    from: shanghaiMidnight(week),
    to: shanghaiMidnight(addDays(week, 7)),
    prevWeek: addDays(week, -7),
    nextWeek: addDays(week, 7),
  };
}

/** The teacher linked to this account; a teacher account with no teacher profile may not use the teacher pages. */
export async function teacherOfAccount(db: Db | Tx, accountId: number) {
  const [t] = await db.select().from(teachers).where(eq(teachers.accountId, accountId));
  if (!t) throw new ApiError(Errors.forbidden);
  return t;
}

/** Whether the class takes `event` now: the chart allows it, the class has not started and (to answer) the deadline has not passed. */
function answerable(c: ClassRow, event: Event, now: Date): boolean {
  if (nextTeacherScheduleState(c.teacherState, event) === null) return false;
  if (now.getTime() >= c.startsAt.getTime()) return false;
  return c.teacherConfirmBy === null || now.getTime() < c.teacherConfirmBy.getTime();
}

function classItem(r: { c: ClassRow; clubName: string | null; clubNameEn: string | null }, locale: Locale, now: Date): TeacherClass {
  const c = r.c;
  return {
    id: c.id,
    title: loc(locale, c.title, c.titleEn),
    clubName: r.clubName === null ? '' : loc(locale, r.clubName, r.clubNameEn),
    room: loc(locale, c.room, c.roomEn),
    startsAt: c.startsAt.toISOString(),
    endsAt: classEnd(c).toISOString(),
    state: c.teacherState,
    confirmBy: c.teacherConfirmBy?.toISOString() ?? null,
    declineReason: c.teacherDeclineReason,
    canConfirm: answerable(c, 'schedule.confirm', now),
    canDecline: answerable(c, 'schedule.decline', now),
    bookedCount: c.bookedCount,
  };
}

function weekQuery(db: Db, from: Date, to: Date, where?: SQL) {
  return db
    .select({ c: classes, clubName: clubs.name, clubNameEn: clubs.nameEn, teacherName: teachers.name, teacherNameEn: teachers.nameEn })
    .from(classes)
    .leftJoin(clubs, eq(clubs.id, classes.clubId))
    .leftJoin(teachers, eq(teachers.id, classes.teacherId))
    .where(and(gte(classes.startsAt, from), lt(classes.startsAt, to), eq(classes.status, 'open'), where))
    .orderBy(asc(classes.startsAt), asc(classes.id));
}

/** The teacher's classes of the week holding `day` (today by default), each with its state and what the teacher may do. */
export async function teacherWeek(db: Db, now: Date, accountId: number, day: string | undefined, locale: Locale): Promise<TeacherWeek> {
  const t = await teacherOfAccount(db, accountId);
  const w = weekRange(day ?? shanghaiDate(now));
  await passScheduleTime(db, now, eq(classes.teacherId, t.id));
  const rows = await weekQuery(db, w.from, w.to, eq(classes.teacherId, t.id));
  return {
    week: w.week,
    prevWeek: w.prevWeek,
    nextWeek: w.nextWeek,
    teacherName: loc(locale, t.name, t.nameEn),
    classes: rows.map((r) => classItem(r, locale, now)),
  };
}

/** The teacher's home: today's classes and every class still waiting for an answer (the deadline soonest first). */
export async function teacherHome(db: Db, now: Date, accountId: number, locale: Locale): Promise<TeacherHome> {
  const t = await teacherOfAccount(db, accountId);
  const today = shanghaiDate(now);
  await passScheduleTime(db, now, eq(classes.teacherId, t.id));
  const todayRows = await weekQuery(db, shanghaiMidnight(today), shanghaiMidnight(addDays(today, 1)), eq(classes.teacherId, t.id));
  const waitingRows = await db
    .select({ c: classes, clubName: clubs.name, clubNameEn: clubs.nameEn })
    .from(classes)
    .leftJoin(clubs, eq(clubs.id, classes.clubId))
    .where(and(eq(classes.teacherId, t.id), eq(classes.status, 'open'), eq(classes.teacherState, 'waiting'), gt(classes.startsAt, now)))
    .orderBy(asc(classes.teacherConfirmBy), asc(classes.startsAt), asc(classes.id));
  return {
    today,
    teacherName: loc(locale, t.name, t.nameEn),
    todayClasses: todayRows.map((r) => classItem(r, locale, now)),
    waiting: waitingRows.map((r) => classItem(r, locale, now)).filter((c) => c.canConfirm),
  };
}

/** Staff: every class of the week with its teacher and confirmation, the counts at a glance, the teachers to assign and the staff member's clubs. */
export async function staffWeek(db: Db, now: Date, staffId: number, day: string | undefined, locale: Locale): Promise<StaffWeek> {
  const w = weekRange(day ?? shanghaiDate(now));
  await passScheduleTime(db, now, and(gte(classes.startsAt, w.from), lt(classes.startsAt, w.to)));
  const rows = await weekQuery(db, w.from, w.to);
  const list = await db.select().from(teachers).orderBy(asc(teachers.sort), asc(teachers.id));
  const scope = await staffClubsOf(db, staffId);
  const clubList = await db.select().from(clubs).orderBy(asc(clubs.id));
  const counts = { confirmed: 0, waiting: 0, declined: 0, noTeacher: 0 };
  for (const r of rows) counts[GLANCE_OF_STATE[r.c.teacherState]] += 1;
  return {
    week: w.week,
    prevWeek: w.prevWeek,
    nextWeek: w.nextWeek,
    classes: rows.map((r) => {
      const { canConfirm: _c, canDecline: _d, ...item } = classItem(r, locale, now);
      const notStarted = now.getTime() < r.c.startsAt.getTime();
      return {
        ...item,
        teacherId: r.c.teacherId,
        teacherName: r.teacherName === null ? null : loc(locale, r.teacherName, r.teacherNameEn),
        canAssign: nextTeacherScheduleState(r.c.teacherState, 'schedule.assign') !== null && notStarted,
        canEdit: notStarted && worksFor(scope, r.c.clubId),
        clubId: r.c.clubId,
        classType: r.c.classType,
        capacity: r.c.capacity,
      };
    }),
    teachers: list.map((t) => ({ id: t.id, name: loc(locale, t.name, t.nameEn) })),
    clubs: clubList.filter((c) => worksFor(scope, c.id)).map((c) => ({ id: c.id, name: loc(locale, c.name, c.nameEn) })),
    counts,
  };
}

async function lockClass(tx: Tx, id: number): Promise<ClassRow> {
  const q = tx.select().from(classes).where(eq(classes.id, id));
  const [c] = await q.for('update');
  if (!c || c.status !== 'open') throw new ApiError(Errors.notFound, { field: 'id' });
  return c;
}

/** Writes the chart's next state for `event`, on the condition that the class is still in the state read. */
async function move(tx: Tx, c: ClassRow, event: Event, set: Partial<typeof classes.$inferInsert>): Promise<TeacherScheduleState> {
  const next = nextTeacherScheduleState(c.teacherState, event);
  if (next === null) throw new ApiError(Errors.scheduleNotWaiting);
  const [done] = await tx
    .update(classes)
    .set({ ...set, teacherState: next })
    .where(and(eq(classes.id, c.id), guards.still(classes.teacherState, c.teacherState)))
    .returning({ id: classes.id });
  if (!done) throw new ApiError(Errors.scheduleNotWaiting);
  return next;
}

/** A class of this teacher's that has not started (caught up with its deadline before the decision: `catchUp`). */
async function teachersClass(tx: Tx, now: Date, teacherId: number, classId: number): Promise<ClassRow> {
  const c = await lockClass(tx, classId);
  if (c.teacherId !== teacherId) throw new ApiError(Errors.forbidden);
  if (now.getTime() >= c.startsAt.getTime()) throw new ApiError(Errors.scheduleClassStarted);
  return c;
}

/**
 * Brings one class up to date with its deadline, committed on its own (decision 018): a refusal that
 * follows must not roll the lapse back. The write is conditional, so a concurrent job or answer makes it a no-op.
 */
const catchUp = (db: Db, now: Date, classId: number) => passScheduleTime(db, now, eq(classes.id, classId));

/** The teacher confirms one class they were asked to teach. */
export async function confirmClass(db: Db, now: Date, accountId: number, classId: number, audit?: Audit) {
  const t = await teacherOfAccount(db, accountId);
  await catchUp(db, now, classId);
  return decide(db, async (tx) => {
    const c = await teachersClass(tx, now, t.id, classId);
    const state = await move(tx, c, 'schedule.confirm', { teacherDeclineReason: null });
    await audit?.(tx, { action: 'class.teacher-confirm', subjectKind: 'class', subjectId: c.id });
    return { id: c.id, state };
  });
}

/** The teacher declines one class with a reason; staff are told. */
export async function declineClass(db: Db, now: Date, accountId: number, classId: number, reason: string, audit?: Audit) {
  const t = await teacherOfAccount(db, accountId);
  await catchUp(db, now, classId);
  return decide(db, async (tx) => {
    const c = await teachersClass(tx, now, t.id, classId);
    const state = await move(tx, c, 'schedule.decline', { teacherDeclineReason: reason });
    await tellStaff(tx, now, declinedNotice(c, t.name, reason));
    await audit?.(tx, { action: 'class.teacher-decline', subjectKind: 'class', subjectId: c.id, reason });
    return { id: c.id, state };
  });
}

/** The teacher confirms every class of the week still waiting for them and not started; returns the ones confirmed. */
export async function confirmWeek(db: Db, now: Date, accountId: number, day: string, audit?: Audit) {
  const t = await teacherOfAccount(db, accountId);
  const w = weekRange(day);
  const mine = and(eq(classes.teacherId, t.id), gte(classes.startsAt, w.from), lt(classes.startsAt, w.to), eq(classes.status, 'open'));
  await passScheduleTime(db, now, mine);
  return decide(db, async (tx) => {
    const confirmed: number[] = [];
    for (const { from, to } of scheduleMoves('schedule.confirm')) {
      const rows = await tx
        .update(classes)
        .set({ teacherState: to, teacherDeclineReason: null })
        .where(and(mine, eq(classes.teacherState, from), gt(classes.startsAt, now)))
        .returning({ id: classes.id });
      confirmed.push(...rows.map((r) => r.id));
    }
    for (const id of confirmed) await audit?.(tx, { action: 'class.teacher-confirm', subjectKind: 'class', subjectId: id });
    return { confirmed: confirmed.sort((a, b) => a - b) };
  });
}

/**
 * Staff assign (or reassign) a teacher to a class: the chart's `schedule.assign`, which asks the
 * teacher; the deadline is `hours` before the start, or the start itself when that has passed.
 * Members booked on the class are told when its teacher changes.
 */
export async function assignTeacher(db: Db, now: Date, hours: number, classId: number, teacherId: number, audit?: Audit) {
  return decide(db, async (tx) => {
    const c = await lockClass(tx, classId);
    if (now.getTime() >= c.startsAt.getTime()) throw new ApiError(Errors.scheduleClassStarted);
    const [t] = await tx.select().from(teachers).where(eq(teachers.id, teacherId));
    if (!t) throw new ApiError(Errors.notFound, { field: 'teacherId' });
    const asked = await askTeacher(tx, now, hours, c, teacherId);
    await audit?.(tx, { action: 'class.assign-teacher', subjectKind: 'class', subjectId: c.id });
    return { id: c.id, state: asked.teacherState, teacherId, confirmBy: asked.teacherConfirmBy!.toISOString() };
  });
}

/**
 * Asks `teacherId` to teach the class (locked by the caller): the chart's `schedule.assign` with its
 * deadline, a notice to the teacher, and to the members holding a place when the teacher changed from
 * `previous` (the class's teacher before the caller's own change; the row's by default). Returns the row.
 */
export async function askTeacher(
  tx: Tx,
  now: Date,
  hours: number,
  c: ClassRow,
  teacherId: number,
  previous = c.teacherId,
): Promise<ClassRow> {
  const [t] = await tx.select().from(teachers).where(eq(teachers.id, teacherId));
  const deadline = new Date(c.startsAt.getTime() - hours * 3_600_000);
  const confirmBy = deadline.getTime() > now.getTime() ? deadline : c.startsAt;
  const state = await move(tx, c, 'schedule.assign', { teacherId, teacherConfirmBy: confirmBy, teacherDeclineReason: null });
  if (t?.accountId) await tx.insert(notifications).values({ accountId: t.accountId, createdAt: now, ...askedNotice(c, confirmBy) });
  if (previous !== null && previous !== teacherId) {
    const booked = await tx
      .selectDistinct({ accountId: bookings.accountId })
      .from(bookings)
      .where(and(eq(bookings.classId, c.id), inArray(bookings.state, BOOKING_OPEN_STATES)));
    if (booked.length)
      await tx.insert(notifications).values(booked.map((b) => ({ accountId: b.accountId, createdAt: now, ...teacherChangedNotice(c) })));
  }
  return { ...c, teacherId, teacherState: state, teacherConfirmBy: confirmBy, teacherDeclineReason: null };
}

/** A notice to every staff account. */
async function tellStaff(tx: Db | Tx, now: Date, notice: ReturnType<typeof lapsedNotice>): Promise<void> {
  const staff = await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.role, 'staff'));
  if (staff.length) await tx.insert(notifications).values(staff.map((s) => ({ accountId: s.id, createdAt: now, ...notice })));
}

/**
 * The confirmation deadline passing (decision 018's job, decision 029): every class the chart moves on
 * `schedule.deadline` whose deadline has come is written so, and staff are told. `only` narrows it to
 * some classes (a decision on one class catches it up first). Returns the classes moved.
 */
export async function passScheduleTime(db: Db | Tx, now: Date, only?: SQL): Promise<number> {
  let moved = 0;
  for (const m of scheduleMoves('schedule.deadline')) {
    const rows = await db
      .update(classes)
      .set({ teacherState: m.to })
      .where(and(eq(classes.teacherState, m.from), lte(classes.teacherConfirmBy, now), only))
      .returning({ title: classes.title, titleEn: classes.titleEn, startsAt: classes.startsAt, teacherId: classes.teacherId });
    for (const r of rows) {
      const [t] = r.teacherId === null ? [] : await db.select({ name: teachers.name }).from(teachers).where(eq(teachers.id, r.teacherId));
      await tellStaff(db, now, lapsedNotice(r, t?.name ?? ''));
    }
    moved += rows.length;
  }
  return moved;
}
