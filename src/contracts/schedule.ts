import { z } from '@hono/zod-openapi';
import { CLASS_TYPES, type ClassTypeKey } from '../domain/catalog';
import { CLASS_TITLE_MAX, DECLINE_REASON_MAX } from '../domain/limits';
import { TEACHER_SCHEDULE_STATE_VALUES } from '../domain/teacher-schedule';
import { CalendarDay, IdField, IdParam } from './common';

/**
 * The teacher schedule (decision 029): a teacher's classes by week with their confirmation
 * state, confirm and decline; staff's week of classes and teacher assignment. The server documents and
 * checks them; the app reads their inferred types (src/api/schedule.ts).
 */

const IsoTime = z.string().openapi({ example: '2026-11-21T01:00:00.000Z' });

/** Any Shanghai calendar day of the week asked for; the week runs Monday to Sunday. Today's week by default. */
export const WeekQuery = z.object({
  week: CalendarDay.optional().openapi({
    param: { name: 'week', in: 'query' },
    example: '2026-11-23',
    description: 'a day of the week (Shanghai); this week by default',
  }),
});
export type WeekQuery = z.infer<typeof WeekQuery>;

const ScheduleState = z.enum(TEACHER_SCHEDULE_STATE_VALUES).openapi({ description: 'spec §4 teacher schedule state (decision 029)' });

/** One class of a teacher's week. */
export const TeacherClass = z
  .object({
    id: z.number().int(),
    title: z.string(),
    clubName: z.string(),
    room: z.string(),
    startsAt: IsoTime,
    endsAt: IsoTime,
    state: ScheduleState,
    confirmBy: IsoTime.nullable().openapi({ description: 'when the teacher must have answered' }),
    declineReason: z.string().nullable(),
    canConfirm: z.boolean(),
    canDecline: z.boolean(),
    bookedCount: z.number().int(),
  })
  .openapi('TeacherClass');
export type TeacherClass = z.infer<typeof TeacherClass>;

/** A week of classes: Monday's date, the neighbouring weeks, and the classes in start order. */
export const TeacherWeek = z
  .object({
    week: z.string().openapi({ example: '2026-11-23', description: 'Monday of the week' }),
    prevWeek: z.string(),
    nextWeek: z.string(),
    teacherName: z.string(),
    classes: z.array(TeacherClass),
  })
  .openapi('TeacherWeek');
export type TeacherWeek = z.infer<typeof TeacherWeek>;

/**
 * The teacher's home (decision 097): today's classes (Shanghai calendar day) and every class still
 * waiting for the teacher's answer, soonest deadline first, whatever week it is in.
 */
export const TeacherHome = z
  .object({
    today: z.string().openapi({ example: '2026-11-23', description: 'the Shanghai calendar day' }),
    teacherName: z.string(),
    todayClasses: z.array(TeacherClass),
    waiting: z.array(TeacherClass),
  })
  .openapi('TeacherHome');
export type TeacherHome = z.infer<typeof TeacherHome>;

export const ClassIdPath = z.object({ id: IdParam.openapi({ param: { name: 'id', in: 'path' }, example: 1 }) });

export const DeclineBody = z
  .object({
    reason: z.string().trim().min(1).max(DECLINE_REASON_MAX).openapi({ description: 'why the teacher cannot teach it (required)' }),
  })
  .openapi('DeclineClass');
export type DeclineBody = z.input<typeof DeclineBody>;

export const ConfirmWeekBody = z.object({ week: CalendarDay.openapi({ example: '2026-11-23' }) }).openapi('ConfirmWeek');
export type ConfirmWeekBody = z.input<typeof ConfirmWeekBody>;

/** What confirming the week did: the classes it confirmed (those waiting and not started). */
export const ConfirmWeekAnswer = z.object({ confirmed: z.array(z.number().int()) }).openapi('ConfirmWeekAnswer');

/** One class of the staff week. */
export const StaffClass = TeacherClass.omit({ canConfirm: true, canDecline: true })
  .extend({
    teacherId: z.number().int().nullable(),
    teacherName: z.string().nullable(),
    canAssign: z.boolean(),
    /** decision 041: a class of the staff member's clubs that has not started may be edited or cancelled */
    canEdit: z.boolean(),
    clubId: z.number().int(),
    classType: z.string(),
    capacity: z.number().int(),
  })
  .openapi('StaffClass');
export type StaffClass = z.infer<typeof StaffClass>;

export const StaffWeek = z
  .object({
    week: z.string(),
    prevWeek: z.string(),
    nextWeek: z.string(),
    classes: z.array(StaffClass),
    teachers: z.array(z.object({ id: z.number().int(), name: z.string() })),
    /** the clubs this staff member works for, where they may create classes (decision 041) */
    clubs: z.array(z.object({ id: z.number().int(), name: z.string() })),
    /** confirmations at a glance (decision 041): confirmed, waiting, declined (unconfirmed: declined or lapsed), no teacher asked */
    counts: z.object({ confirmed: z.number().int(), waiting: z.number().int(), declined: z.number().int(), noTeacher: z.number().int() }),
  })
  .openapi('StaffWeek');
export type StaffWeek = z.infer<typeof StaffWeek>;

export const AssignBody = z.object({ teacherId: IdField.openapi({ example: 1 }) }).openapi('AssignTeacher');
export type AssignBody = z.input<typeof AssignBody>;

/** The teacher's check-in QR: the current or next class and its signed, short-lived link (null when nothing is scheduled). */
export const CheckinLink = z
  .object({
    class: z
      .object({
        id: z.number().int(),
        title: z.string(),
        clubName: z.string(),
        room: z.string(),
        startsAt: IsoTime,
        endsAt: IsoTime,
        opensAt: IsoTime.openapi({ description: 'check-in opens (an hour before the start)' }),
      })
      .nullable(),
    url: z.string().nullable().openapi({ description: '/signed?classId=&code=<expiry>.<signature>' }),
    expiresAt: IsoTime.nullable(),
  })
  .openapi('CheckinLink');
export type CheckinLink = z.infer<typeof CheckinLink>;

/** "HH:mm", a Shanghai wall-clock time of the class's day. */
const WallTime = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'HH:mm')
  .openapi({ example: '19:00' });

/**
 * A class staff create (decision 041): its club (one of theirs), type, title, room and capacity, its day and
 * Shanghai start and end, and optionally its teacher (who is then asked to confirm). Capacity is checked by the
 * server (70162) so the refusal says the range.
 */
export const ClassBody = z
  .object({
    clubId: IdField.openapi({ example: 1 }),
    classType: z.enum(CLASS_TYPES.map((t) => t.value) as [ClassTypeKey, ...ClassTypeKey[]]),
    title: z.string().trim().min(1).max(CLASS_TITLE_MAX),
    room: z.string().trim().min(1).max(CLASS_TITLE_MAX),
    capacity: z.number().int(),
    day: CalendarDay,
    start: WallTime,
    end: WallTime,
    teacherId: IdField.nullable().optional().openapi({ description: 'asked to confirm when given' }),
  })
  .openapi('NewClass');
export type ClassBody = z.input<typeof ClassBody>;
export type ClassInput = z.infer<typeof ClassBody>;

/** What staff may change of a class that has not started: its time, capacity and teacher (null: no teacher). */
export const ClassEditBody = ClassBody.pick({ capacity: true, day: true, start: true, end: true, teacherId: true }).openapi('EditClass');
export type ClassEditBody = z.input<typeof ClassEditBody>;
export type ClassEditInput = z.infer<typeof ClassEditBody>;

/** A class as staff saved it. */
export const ClassSaved = z
  .object({
    id: z.number().int(),
    status: z.enum(['open', 'cancelled']),
    startsAt: IsoTime,
    endsAt: IsoTime,
    capacity: z.number().int(),
    teacherId: z.number().int().nullable(),
    state: ScheduleState,
  })
  .openapi('ClassSaved');
export type ClassSaved = z.infer<typeof ClassSaved>;

/** What cancelling a class did: the bookings and queue places it ended and the uses given back. */
export const ClassCancelled = z
  .object({
    id: z.number().int(),
    status: z.literal('cancelled'),
    bookingsCancelled: z.number().int(),
    queueCleared: z.number().int(),
    usesReturned: z.number().int(),
  })
  .openapi('ClassCancelled');
export type ClassCancelled = z.infer<typeof ClassCancelled>;
