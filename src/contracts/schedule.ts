import { z } from '@hono/zod-openapi';
import { DECLINE_REASON_MAX } from '../domain/limits';
import { TEACHER_SCHEDULE_STATE_VALUES } from '../domain/teacher-schedule';
import { CalendarDay, IdParam } from './common';

/**
 * The teacher schedule (issue 14, decision 029): a teacher's classes by week with their confirmation
 * state, confirm and decline; staff's week of classes and teacher assignment. The server documents and
 * checks them; the app reads their inferred types (src/api/schedule.ts).
 */

const IsoTime = z.string().openapi({ example: '2026-11-21T01:00:00.000Z' });

/** Any Shanghai calendar day of the week asked for; the week runs Monday to Sunday. Today's week by default. */
export const WeekQuery = z.object({
  week: CalendarDay.optional()
    .openapi({ param: { name: 'week', in: 'query' }, example: '2026-11-23', description: 'a day of the week (Shanghai); this week by default' }),
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

export const ClassIdPath = z.object({ id: IdParam.openapi({ param: { name: 'id', in: 'path' }, example: 1 }) });

export const DeclineBody = z
  .object({ reason: z.string().trim().min(1).max(DECLINE_REASON_MAX).openapi({ description: 'why the teacher cannot teach it (required)' }) })
  .openapi('DeclineClass');
export type DeclineBody = z.input<typeof DeclineBody>;

export const ConfirmWeekBody = z.object({ week: CalendarDay.openapi({ example: '2026-11-23' }) }).openapi('ConfirmWeek');
export type ConfirmWeekBody = z.input<typeof ConfirmWeekBody>;

/** What confirming the week did: the classes it confirmed (those waiting and not started). */
export const ConfirmWeekAnswer = z.object({ confirmed: z.array(z.number().int()) }).openapi('ConfirmWeekAnswer');

/** One class of the staff week. */
export const StaffClass = TeacherClass.omit({ canConfirm: true, canDecline: true })
  .extend({ teacherId: z.number().int().nullable(), teacherName: z.string().nullable(), canAssign: z.boolean() })
  .openapi('StaffClass');
export type StaffClass = z.infer<typeof StaffClass>;

export const StaffWeek = z
  .object({
    week: z.string(),
    prevWeek: z.string(),
    nextWeek: z.string(),
    classes: z.array(StaffClass),
    teachers: z.array(z.object({ id: z.number().int(), name: z.string() })),
  })
  .openapi('StaffWeek');
export type StaffWeek = z.infer<typeof StaffWeek>;

export const AssignBody = z.object({ teacherId: IdParam.openapi({ example: 1 }) }).openapi('AssignTeacher');
export type AssignBody = z.input<typeof AssignBody>;

/** The teacher's check-in QR: the current or next class and its signed, short-lived link (null when nothing is scheduled). */
export const CheckinLink = z
  .object({
    class: z
      .object({ id: z.number().int(), title: z.string(), clubName: z.string(), room: z.string(), startsAt: IsoTime, endsAt: IsoTime, opensAt: IsoTime.openapi({ description: 'check-in opens (an hour before the start)' }) })
      .nullable(),
    url: z.string().nullable().openapi({ description: '/signed?classId=&code=<expiry>.<signature>' }),
    expiresAt: IsoTime.nullable(),
  })
  .openapi('CheckinLink');
export type CheckinLink = z.infer<typeof CheckinLink>;
