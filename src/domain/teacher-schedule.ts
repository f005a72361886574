/**
 * The teacher schedule states the API declares (spec §4; decision 029): the stored values of the
 * chart machines/domain/schedule-teacher-confirmation (test/server/state-checks.test.ts holds them equal).
 */
export const TEACHER_SCHEDULE_STATE_VALUES = ['not_started', 'waiting', 'confirmed', 'unconfirmed'] as const;
export type TeacherScheduleState = (typeof TEACHER_SCHEDULE_STATE_VALUES)[number];

/** The staff week's confirmations at a glance (decision 041), in the order shown. */
export const GLANCE_KEYS = ['confirmed', 'waiting', 'declined', 'noTeacher'] as const;
export type GlanceKey = (typeof GLANCE_KEYS)[number];

/** Which glance count a schedule state adds to: unconfirmed (declined or lapsed) is "declined", not started is "no teacher". */
export const GLANCE_OF_STATE: Record<TeacherScheduleState, GlanceKey> = {
  confirmed: 'confirmed',
  waiting: 'waiting',
  unconfirmed: 'declined',
  not_started: 'noTeacher',
};
