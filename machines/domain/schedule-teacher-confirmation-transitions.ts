import type { TeacherScheduleState } from '../../src/domain/teacher-schedule';
import { nextFlatState, storedName, storedStates, storedStatesTagged } from './chart-states';
import { scheduleTeacherConfirmationMachine, type TeacherScheduleEvent } from './schedule-teacher-confirmation.machine';

/** A class's stored teacher schedule state (`classes.teacher_state`); the API's list is held equal to the chart's. */
export type { TeacherScheduleState };

/** Every value `classes.teacher_state` may hold, from the chart. */
export const TEACHER_SCHEDULE_STATES = storedStates<TeacherScheduleState>(scheduleTeacherConfirmationMachine);

/** The states in which members see the class's teacher (tag `teacherShown`). */
export const TEACHER_SHOWN_STATES = storedStatesTagged<TeacherScheduleState>(scheduleTeacherConfirmationMachine, 'teacherShown');

/** The states staff must act on: no teacher asked, or the teacher did not confirm (tag `needsTeacher`). */
export const NEEDS_TEACHER_STATES = storedStatesTagged<TeacherScheduleState>(scheduleTeacherConfirmationMachine, 'needsTeacher');

/** The chart's name of a stored state: stored snake_case, charted camelCase (`not_started` is `notStarted`). */
export const chartStateOf = (state: TeacherScheduleState): string => state.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** Where a class's teacher schedule goes on `event`, by the chart; null when the chart refuses it. */
export function nextTeacherScheduleState(state: TeacherScheduleState, event: TeacherScheduleEvent['type']): TeacherScheduleState | null {
  const next = nextFlatState<string>(scheduleTeacherConfirmationMachine, chartStateOf(state), event);
  return next === null ? null : (storedName(next) as TeacherScheduleState);
}

/** Every state the chart leaves on `event`, and where to: what a set-based write of that event moves. */
export function scheduleMoves(event: TeacherScheduleEvent['type']): Array<{ from: TeacherScheduleState; to: TeacherScheduleState }> {
  return TEACHER_SCHEDULE_STATES.flatMap((from) => {
    const to = nextTeacherScheduleState(from, event);
    return to ? [{ from, to }] : [];
  });
}
