import { getNextSnapshot } from 'xstate';
import type { BookingRowState } from '../../src/domain/booking-rules';
import { bookingMachine, type BookingEvent } from './booking.machine';

/** The chart's state name for each stored booking state (one to one). */
const CHART_STATE: Record<BookingRowState, string> = {
  booked: 'booked',
  queued: 'queued',
  cancelled: 'cancelled',
  queue_cancelled: 'queueCancelled',
  checked_in: 'checkedIn',
  not_checked_in: 'notCheckedIn',
  expired: 'expired',
};
const ROW_STATE = Object.fromEntries(Object.entries(CHART_STATE).map(([row, chart]) => [chart, row])) as Record<string, BookingRowState>;

/**
 * Where a booking in `state` goes on `event`, by the chart; null when the chart refuses the change.
 * Pure (xstate's getNextSnapshot): the server's one way to accept or refuse a booking change.
 */
export function nextBookingState(state: BookingRowState, event: BookingEvent['type']): BookingRowState | null {
  const snapshot = bookingMachine.resolveState({ value: CHART_STATE[state], context: { classFull: state === 'queued' } });
  const next = getNextSnapshot(bookingMachine, snapshot, { type: event } as BookingEvent);
  const value = next.value as string;
  if (value === CHART_STATE[state]) return null;
  return ROW_STATE[value] ?? null;
}

/** Whether the chart allows `event` in `state`. */
export function canApply(state: BookingRowState, event: BookingEvent['type']): boolean {
  return nextBookingState(state, event) !== null;
}

/**
 * The state a member sees: a stored seat or queue entry moves on by the clock (a queue entry
 * expires at the start, a seat not checked in by the end) without a job having to write it.
 */
export function effectiveBookingState(state: BookingRowState, startsAt: Date, endsAt: Date, now: Date): BookingRowState {
  let s = state;
  if (now.getTime() >= startsAt.getTime()) s = nextBookingState(s, 'class.start') ?? s;
  if (now.getTime() >= endsAt.getTime()) s = nextBookingState(s, 'class.end') ?? s;
  return s;
}
