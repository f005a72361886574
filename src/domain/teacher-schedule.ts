/**
 * The teacher schedule states the API declares (spec §4; decision 029): the stored values of the
 * chart machines/domain/teacher-schedule (test/server/state-checks.test.ts holds them equal).
 */
export const TEACHER_SCHEDULE_STATE_VALUES = ['not_started', 'waiting', 'confirmed', 'unconfirmed'] as const;
export type TeacherScheduleState = (typeof TEACHER_SCHEDULE_STATE_VALUES)[number];
