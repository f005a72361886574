import type { COMPLAINT_STATE_VALUES } from '../../src/domain/complaint';
import { complaintMachine, type ComplaintEvent } from './complaint.machine';
import { nextFlatState, storedStates, storedStatesTagged } from './chart-states';

/** A complaint's stored state (`complaints.state`). */
export type ComplaintState = (typeof COMPLAINT_STATE_VALUES)[number];

/** Every value `complaints.state` may hold, from the chart. */
export const COMPLAINT_STATES = storedStates<ComplaintState>(complaintMachine);

/** A new complaint's state (the chart's initial state). */
export const COMPLAINT_INITIAL = complaintMachine.config.initial as ComplaintState;

/** Complaints waiting for a reply (tag `awaitingReply`): the staff queue. */
export const AWAITING_REPLY_STATES = storedStatesTagged<ComplaintState>(complaintMachine, 'awaitingReply');

/** Complaints the member has rated (tag `rated`). */
export const RATED_STATES = storedStatesTagged<ComplaintState>(complaintMachine, 'rated');

/** Where a complaint in `state` goes on `event`, by the chart; null when the chart refuses the change. */
export function nextComplaintState(state: ComplaintState, event: ComplaintEvent['type']): ComplaintState | null {
  return nextFlatState<ComplaintState>(complaintMachine, state, event);
}
