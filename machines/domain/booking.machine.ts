import { setup } from 'xstate';

/** What can happen to one booking or queue entry. */
export type BookingEvent =
  | { type: 'booking.cancel' }
  | { type: 'queue.cancel' }
  | { type: 'queue.promote' }
  | { type: 'queue.skip' }
  | { type: 'class.start' }
  | { type: 'booking.checkin' }
  | { type: 'class.end' };

/** A request for a seat: a full class puts the member in its queue. */
export interface BookingInput {
  classFull: boolean;
}

export interface BookingContext {
  classFull: boolean;
}

/**
 * The lifecycle of one booking (spec §4). A member either books a seat or, when the class is
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
      description:
        'The member asked for a place; the server decides at once: a mat while the class has room, else a place in its queue. Never stored.',
      always: [{ guard: 'classFull', target: 'queued' }, { target: 'booked' }],
    },
    // a seat: booked directly, or promoted from the queue (the member was told so)
    booked: {
      tags: ['seat'],
      description:
        "The member holds a mat: the class is in my bookings with a cancel button until the cancel deadline, the card's use is held, and the front desk expects them.",
      initial: 'direct',
      states: {
        direct: { description: 'Booked straight away: there was a free mat when the member asked.' },
        promoted: {
          description: 'Booked from the queue: a booked member cancelled, the first in the queue got the mat and a notice (候补成功).',
        },
      },
      on: {
        'booking.cancel': 'cancelled',
        'booking.checkin': 'checkedIn',
        'class.end': 'notCheckedIn',
      },
    },
    queued: {
      description:
        'The class was full: the member waits in its queue at a shown position and may leave it; promoted in queue order when a mat frees up, until the class starts.',
      on: {
        'queue.promote': 'booked.promoted',
        'queue.cancel': 'queueCancelled',
        'queue.skip': 'queueCancelled',
        'class.start': 'expired',
      },
    },
    cancelled: {
      description:
        "The member cancelled before the deadline: the mat is free again (the queue's first is promoted) and the card's use is given back.",
      type: 'final',
    },
    queueCancelled: {
      description:
        'Off the queue without a mat: the member left it, or was passed over at promotion because their card could no longer book the class.',
      type: 'final',
    },
    checkedIn: {
      tags: ['seat'],
      description: 'The member checked in (the class code or the front desk): the use is spent.',
      type: 'final',
    },
    notCheckedIn: {
      tags: ['seat'],
      description: 'The class ended and the member never checked in (written by the time-passing job): the use is spent, a no-show.',
      type: 'final',
    },
    expired: {
      description:
        'Still queued when the class started (written by the time-passing job): the wait ended without a mat; nothing was spent.',
      type: 'final',
    },
  },
});
