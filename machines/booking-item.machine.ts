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

/** The change a member asks of one booking: give the seat back, or leave the queue. */
export type BookingChange = 'seat' | 'queue';

export interface BookingItemContext extends BookingItemInput {
  /** the change being made (set when the member asks for it) */
  change?: BookingChange;
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
 * One row of my bookings (/takecourse/takelistm): cancel a seat or leave a queue. Both go the same
 * way, so one shape carries them (the change in the context): a confirm step, then submitting,
 * changed, refused with the server's code, or unreachable with retry. Which change a row offers is
 * the domain chart's answer (machines/domain/booking.machine.ts). Effects are provided: actor
 * applyChange (the request for the change); action bookingChanged (the footer badge, the screen's data).
 */
export const bookingItemMachine = setup({
  types: {
    context: {} as BookingItemContext,
    events: {} as BookingItemEvent,
    input: {} as BookingItemInput,
  },
  actors: {
    applyChange: fromPromise<Envelope<CancelAnswer>, { change: BookingChange; bookingId: number; idempotencyKey: string }>(async () => {
      throw new Error('applyChange is provided by the app');
    }),
  },
  actions: {
    choose: assign({ change: (_, params: { change: BookingChange }) => params.change }),
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
        'booking.cancel': { guard: 'seatCancellable', target: 'changing', actions: { type: 'choose', params: { change: 'seat' } } },
        'queue.cancel': { guard: 'queueCancellable', target: 'changing', actions: { type: 'choose', params: { change: 'queue' } } },
      },
    },
    changing: {
      initial: 'confirming',
      states: {
        // "not now" from the confirm, "close" on a refusal or a failure: the row as it was
        confirming: {
          on: { 'confirm.accept': { target: 'submitting', actions: 'newIntent' }, 'confirm.dismiss': '#bookingItem.idle' },
        },
        submitting: {
          invoke: {
            id: 'applyChange',
            src: 'applyChange',
            input: ({ context }) => ({ change: context.change!, bookingId: context.bookingId, idempotencyKey: context.idempotencyKey! }),
            onDone: [
              {
                guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) },
                // refused: the booking may have changed elsewhere, so the screen reloads it
                target: 'refused',
                actions: [{ type: 'keepCode', params: ({ event }) => ({ code: event.output.code }) }, 'bookingChanged'],
              },
              { target: '#bookingItem.changed', actions: { type: 'keepState', params: ({ event }) => ({ state: event.output.data.state }) } },
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
    changed: {
      type: 'final',
      entry: 'bookingChanged',
    },
  },
});
