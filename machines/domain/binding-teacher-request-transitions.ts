import type { TeacherRequestState } from '../../src/domain/binding';
import { nextFlatState, storedStates, storedStatesTagged } from './chart-states';
import { bindingTeacherRequestMachine, type TeacherRequestEvent } from './binding-teacher-request.machine';

/** The stored status of a new teacher's request, or none before the first. */
export type TeacherRequestStatus = 'none' | TeacherRequestState;

/** Where a new teacher's request goes on `event`, by the chart; null when the chart refuses it. */
export function nextTeacherRequestState(status: TeacherRequestStatus, event: TeacherRequestEvent['type']): TeacherRequestState | null {
  return nextFlatState<TeacherRequestStatus>(bindingTeacherRequestMachine, status, event) as TeacherRequestState | null;
}

/** Every value `teacher_requests.state` may hold, from the chart. */
export const TEACHER_REQUEST_STORED_STATES = storedStates<TeacherRequestState>(bindingTeacherRequestMachine);

/** The states staff still have to decide (their queue), from the chart's `open` tag. */
export const TEACHER_REQUEST_OPEN_STATES = storedStatesTagged<TeacherRequestState>(bindingTeacherRequestMachine, 'open');
