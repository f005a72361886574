import { assign, fromPromise, setup } from 'xstate';
import type { CancelAnswer } from '../src/api/booking';
import type { BookingRowState } from '../src/domain/booking-rules';
import type { Envelope } from '../src/domain/envelope';
import { isOk } from '../src/domain/envelope';
import { canApply } from './domain/booking-transitions';

export interface BookingItemInput {
  bookingId: number;
  /** the stored state (the domain chart says which change it allows) */
  state: BookingRowState;
}

export interface BookingItemContext extends BookingItemInput {
  /** one per intent (the member's confirm), reused by its retries */
  idempotencyKey?: string;
  /** the server's refusal, e.g. 20008 class expired */
  errorCode?: number;
}

export type BookingItemEvent =
  | { type: 'booking.cancel' }
  | { type: 'queue.cancel' }
  | { type: 'confirm.accept' }
  | { type: 'confirm.dismiss' }
  | { type: 'retry' };

const newKey = () => globalThis.crypto.randomUUID();

/**
 * One row of my bookings (/takecourse/takelistm): cancel a seat or leave a queue, each through a
 * confirm step, then submitting, done, refused with the server's code, or unreachable with retry.
 * Which change a row offers is the domain chart's (machines/domain/booking.machine.ts) answer.
 * Effects are provided: actors cancelBooking and cancelQueue; action bookingChanged (the footer badge).
 */
export const bookingItemMachine = setup({
  types: {
    context: {} as BookingItemContext,
    events: {} as BookingItemEvent,
    input: {} as BookingItemInput,
  },
  actors: {
    cancelBooking: fromPromise<Envelope<CancelAnswer>, { bookingId: number; idempotencyKey: string }>(async () => {
      throw new Error('cancelBooking is provided by the app');
    }),
    cancelQueue: fromPromise<Envelope<CancelAnswer>, { bookingId: number; idempotencyKey: string }>(async () => {
      throw new Error('cancelQueue is provided by the app');
    }),
  },
  actions: {
    newIntent: assign({ idempotencyKey: () => newKey(), errorCode: undefined }),
    keepCode: assign({ errorCode: (_, params: { code: number }) => params.code }),
    keepState: assign({ state: (_, params: { state: BookingRowState }) => params.state }),
    bookingChanged: () => {},
  },
  guards: {
    seatCancellable: ({ context }) => canApply(context.state, 'booking.cancel'),
    queueCancellable: ({ context }) => canApply(context.state, 'queue.cancel'),
    refused: (_, params: { envelope: Envelope<unknown> }) => !isOk(params.envelope),
  },
}).createMachine({
  id: 'bookingItem',
  context: ({ input }) => ({ bookingId: input.bookingId, state: input.state }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        'booking.cancel': { guard: 'seatCancellable', target: 'cancellingSeat' },
        'queue.cancel': { guard: 'queueCancellable', target: 'leavingQueue' },
      },
    },
    cancellingSeat: {
      initial: 'confirming',
      states: {
        confirming: {
          on: {
            'confirm.accept': { target: 'submitting', actions: 'newIntent' },
            'confirm.dismiss': '#bookingItem.idle',
          },
        },
        submitting: {
          invoke: {
            id: 'cancelBooking',
            src: 'cancelBooking',
            input: ({ context }) => ({ bookingId: context.bookingId, idempotencyKey: context.idempotencyKey! }),
            onDone: [
              { guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) }, target: 'refused', actions: { type: 'keepCode', params: ({ event }) => ({ code: event.output.code }) } },
              { target: '#bookingItem.cancelled', actions: { type: 'keepState', params: ({ event }) => ({ state: event.output.data.state }) } },
            ],
            onError: 'unreachable',
          },
        },
        refused: {
          on: { 'confirm.dismiss': '#bookingItem.idle' },
        },
        unreachable: {
          on: { retry: 'submitting', 'confirm.dismiss': '#bookingItem.idle' },
        },
      },
    },
    leavingQueue: {
      initial: 'confirming',
      states: {
        confirming: {
          on: {
            'confirm.accept': { target: 'submitting', actions: 'newIntent' },
            'confirm.dismiss': '#bookingItem.idle',
          },
        },
        submitting: {
          invoke: {
            id: 'cancelQueue',
            src: 'cancelQueue',
            input: ({ context }) => ({ bookingId: context.bookingId, idempotencyKey: context.idempotencyKey! }),
            onDone: [
              { guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) }, target: 'refused', actions: { type: 'keepCode', params: ({ event }) => ({ code: event.output.code }) } },
              { target: '#bookingItem.leftQueue', actions: { type: 'keepState', params: ({ event }) => ({ state: event.output.data.state }) } },
            ],
            onError: 'unreachable',
          },
        },
        refused: {
          on: { 'confirm.dismiss': '#bookingItem.idle' },
        },
        unreachable: {
          on: { retry: 'submitting', 'confirm.dismiss': '#bookingItem.idle' },
        },
      },
    },
    cancelled: {
      type: 'final',
      entry: 'bookingChanged',
    },
    leftQueue: {
      type: 'final',
      entry: 'bookingChanged',
    },
  },
});
