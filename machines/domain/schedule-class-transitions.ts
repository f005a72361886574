import { nextFlatState, storedStates, storedStatesTagged } from './chart-states';
import { scheduleClassMachine, type ClassEvent } from './schedule-class.machine';

/** A class's stored status (`classes.status`). */
export type ClassStatus = 'open' | 'cancelled';

/** Every value `classes.status` may hold, from the chart. */
export const CLASS_STATUSES = storedStates<ClassStatus>(scheduleClassMachine);

/** The statuses of classes the timetable lists (tag `listed`). */
export const LISTED_CLASS_STATUSES = storedStatesTagged<ClassStatus>(scheduleClassMachine, 'listed');

/** Where a class in `status` goes on `event`, by the chart; null when the chart refuses it. */
export function nextClassStatus(status: ClassStatus, event: ClassEvent['type']): ClassStatus | null {
  return nextFlatState<ClassStatus>(scheduleClassMachine, status, event);
}
