import { createActor, getNextSnapshot, type StateValue } from 'xstate';
import type { BookingRowState } from '../../src/domain/booking-rules';
import { storedStates, storedStatesTagged } from './chart-states';
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

/** What the chart needs beyond the stored state: a stored seat may have come from the queue. */
export interface BookingFactsForChart {
  promoted?: boolean;
}

/** The chart's top-level state of a value ('booked' for { booked: 'promoted' }). */
const topOf = (value: StateValue): string => (typeof value === 'string' ? value : Object.keys(value)[0]!);

function chartValue(state: BookingRowState, facts: BookingFactsForChart): StateValue {
  if (state === 'booked') return { booked: facts.promoted ? 'promoted' : 'direct' };
  return CHART_STATE[state];
}

/**
 * Where a booking in `state` goes on `event`, by the chart; null when the chart refuses the change.
 * Pure (xstate's getNextSnapshot): the server's one way to accept or refuse a booking change.
 */
export function nextBookingState(
  state: BookingRowState,
  event: BookingEvent['type'],
  facts: BookingFactsForChart = {},
): BookingRowState | null {
  const snapshot = bookingMachine.resolveState({ value: chartValue(state, facts), context: { classFull: state === 'queued' } });
  if (!snapshot.can({ type: event } as BookingEvent)) return null;
  const next = getNextSnapshot(bookingMachine, snapshot, { type: event } as BookingEvent);
  return ROW_STATE[topOf(next.value)] ?? null;
}

/** Whether the chart allows `event` in `state`. */
export function canApply(state: BookingRowState, event: BookingEvent['type'], facts: BookingFactsForChart = {}): boolean {
  return nextBookingState(state, event, facts) !== null;
}

/**
 * The chart's first state for each input, asked once per chart: keyed on the chart's config, so a
 * chart put in its place (`npm run mutants` plants each mutant into this very machine object) is
 * asked afresh.
 */
const firstStates = new WeakMap<object, Map<boolean, BookingRowState>>();

/**
 * A new request's first state by the chart: a seat when the class has room, else its queue. Each
 * answer is the chart's, asked once per input: starting an actor for every booking of a crowd cost 5%
 * of the booking race's CPU (decision 048).
 */
export function initialBookingState(input: { classFull: boolean }): BookingRowState {
  let byInput = firstStates.get(bookingMachine.config);
  if (!byInput) firstStates.set(bookingMachine.config, (byInput = new Map()));
  let state = byInput.get(input.classFull);
  if (state === undefined) {
    state = ROW_STATE[topOf(createActor(bookingMachine, { input }).getSnapshot().value)]!;
    byInput.set(input.classFull, state);
  }
  return state;
}

/** The stored states a booking can still leave (the chart's states that are not final): a seat or a queue entry still to come. */
export const BOOKING_OPEN_STATES: BookingRowState[] = (Object.keys(CHART_STATE) as BookingRowState[]).filter(
  (state) => (bookingMachine.states[CHART_STATE[state]] as { type: string }).type !== 'final',
);

/** The stored states that hold a mat in the class (tag `seat`): what a class's booked count counts. */
export const BOOKING_SEAT_STATES = storedStatesTagged<BookingRowState>(bookingMachine, 'seat');

/** The events by which time moves a booking on: its class starting, then its class ending. */
export const BOOKING_TIME_EVENTS = ['class.start', 'class.end'] as const satisfies readonly BookingEvent['type'][];
export type BookingTimeEvent = (typeof BOOKING_TIME_EVENTS)[number];

/** One move the chart makes on a time event: a stored state (and whether the seat came from the queue) and where it goes. */
export interface BookingTimeMove {
  from: BookingRowState;
  promoted: boolean;
  to: BookingRowState;
}

/**
 * The moves the chart makes when `event` happens (a queue entry expires at the start; a seat ends
 * not checked in at the end), read from the chart each time it is asked: the time-passing job writes
 * exactly these, so what time does to a booking is the chart's, not a copy of it.
 */
export function bookingTimeMoves(event: BookingTimeEvent): BookingTimeMove[] {
  const out: BookingTimeMove[] = [];
  for (const from of Object.keys(CHART_STATE) as BookingRowState[]) {
    for (const promoted of from === 'booked' ? [false, true] : [false]) {
      const to = nextBookingState(from, event, { promoted });
      if (to !== null && to !== from) out.push({ from, promoted, to });
    }
  }
  return out;
}

/** Every value `bookings.state` may hold, from the chart. */
export const BOOKING_STORED_STATES = storedStates<BookingRowState>(bookingMachine);
