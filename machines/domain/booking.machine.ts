import { setup } from 'xstate';

/** What can happen to one booking or queue entry. */
export type BookingEvent =
  | { type: 'booking.cancel' }
  | { type: 'queue.cancel' }
  | { type: 'queue.promote' }
  | { type: 'queue.skip' }
  | { type: 'class.start' }
  | { type: 'checkin' }
  | { type: 'class.end' };

/** A request for a seat: a full class puts the member in its queue. */
export interface BookingInput {
  classFull: boolean;
}

export interface BookingContext {
  classFull: boolean;
}

/**
 * The lifecycle of one booking (spec §4, issue 3). A member either books a seat or, when the class is
 * full, joins its queue. A queue entry is promoted to a seat (booked.promoted) when a booked member cancels, skipped
 * (it leaves the queue) when its card no longer qualifies, cancelled by the member, and expires
 * when the class starts. A seat is cancelled before the start, checked in, or ends not checked in.
 * The server checks every change against this chart; the app reads which actions a booking offers.
 */
export const bookingMachine = setup({
  types: {
    context: {} as BookingContext,
    events: {} as BookingEvent,
    input: {} as BookingInput,
  },
  guards: {
    classFull: ({ context }) => context.classFull,
  },
}).createMachine({
  id: 'booking',
  context: ({ input }) => ({ classFull: input.classFull }),
  initial: 'requested',
  states: {
    requested: {
      always: [{ guard: 'classFull', target: 'queued' }, { target: 'booked' }],
    },
    // a seat: booked directly, or promoted from the queue (the member was told so)
    booked: {
      initial: 'direct',
      states: {
        direct: {},
        promoted: {},
      },
      on: {
        'booking.cancel': 'cancelled',
        checkin: 'checkedIn',
        'class.end': 'notCheckedIn',
      },
    },
    queued: {
      on: {
        'queue.promote': 'booked.promoted',
        'queue.cancel': 'queueCancelled',
        'queue.skip': 'queueCancelled',
        'class.start': 'expired',
      },
    },
    cancelled: { type: 'final' },
    queueCancelled: { type: 'final' },
    checkedIn: { type: 'final' },
    notCheckedIn: { type: 'final' },
    expired: { type: 'final' },
  },
});
