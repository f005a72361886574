import { assign, fromPromise, setup } from 'xstate';
import type { CancelAnswer } from '../src/api/booking';
import type { BookingRowState } from '../src/domain/booking-rules';
import type { Envelope } from '../src/domain/envelope';
import { isOk } from '../src/domain/envelope';
import { canApply } from './domain/booking-transitions';
import { newIntentKey } from '../src/domain/intent-key';

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
  | { type: 'network.retry' };

/**
 * One row of my bookings (/takecourse/takelistm): cancel a seat or leave a queue. Both go the same
 * way, so one shape carries them (the change in the context): a confirm step, then submitting, then
 * changed, or refused with the server's code (said, and the row reloaded), or unreachable with retry.
 * Which change a row offers is the domain chart's answer (machines/domain/booking.machine.ts).
 * Effects are provided: actor applyChange (the request for the change); actions bookingChanged (the
 * footer badge, the screen's data), sayChanged and sayRefused (the message the member reads).
 * Tags, as on the card charts, say what the row shows: `busy` the change is in flight (its button is
 * disabled), `unreachable` the retry in place of the button.
 */
export const bookingItemMachine = setup({
  types: {
    context: {} as BookingItemContext,
    events: {} as BookingItemEvent,
    input: {} as BookingItemInput,
    tags: {} as 'busy' | 'unreachable',
  },
  actors: {
    applyChange: fromPromise<Envelope<CancelAnswer>, { change: BookingChange; bookingId: number; idempotencyKey: string }>(async () => {
      throw new Error('applyChange is provided by the app');
    }),
  },
  actions: {
    choose: assign({ change: (_, params: { change: BookingChange }) => params.change }),
    newIntent: assign({ idempotencyKey: () => newIntentKey(), errorCode: undefined }),
    keepCode: assign({ errorCode: (_, params: { code: number }) => params.code }),
    keepState: assign({ state: (_, params: { state: BookingRowState }) => params.state }),
    bookingChanged: () => {},
    sayChanged: (_, _params: { change: BookingChange }) => {},
    sayRefused: (_, _params: { code: number }) => {},
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
      description:
        'A booking in my bookings: class, time and state; a booked seat offers "cancel" and a place in the queue "leave the queue" while the rules allow. After a refusal (cancelled on another phone, the class too close) the reason is said and the row shows as the server has it now.',
      on: {
        'booking.cancel': { guard: 'seatCancellable', target: 'changing', actions: { type: 'choose', params: { change: 'seat' } } },
        'queue.cancel': { guard: 'queueCancellable', target: 'changing', actions: { type: 'choose', params: { change: 'queue' } } },
      },
    },
    changing: {
      description: 'The member is cancelling the seat or leaving the queue.',
      initial: 'confirming',
      states: {
        // "not now" from the confirm, "close" on a failure: the row as it was
        confirming: {
          description: 'A confirm asks whether to cancel the booking (or leave the queue): the member accepts or says not now.',
          on: { 'confirm.accept': { target: 'submitting', actions: 'newIntent' }, 'confirm.dismiss': '#bookingItem.idle' },
        },
        submitting: {
          tags: ['busy'],
          description: 'The cancellation was sent: the confirm shows it is working.',
          invoke: {
            id: 'applyChange',
            src: 'applyChange',
            input: ({ context }) => ({ change: context.change!, bookingId: context.bookingId, idempotencyKey: context.idempotencyKey! }),
            onDone: [
              {
                guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) },
                // refused: the reason is said and, as the booking may have changed elsewhere, the screen reloads it
                target: '#bookingItem.idle',
                actions: [
                  { type: 'keepCode', params: ({ event }) => ({ code: event.output.code }) },
                  'bookingChanged',
                  { type: 'sayRefused', params: ({ event }) => ({ code: event.output.code }) },
                ],
              },
              {
                target: '#bookingItem.changed',
                actions: { type: 'keepState', params: ({ event }) => ({ state: event.output.data.state }) },
              },
            ],
            onError: 'unreachable',
          },
        },
        unreachable: {
          tags: ['unreachable'],
          description: 'The cancellation did not reach the server: the member can retry (the same request, so it happens once) or close.',
          on: { 'network.retry': 'submitting', 'confirm.dismiss': '#bookingItem.idle' },
        },
      },
    },
    changed: {
      description: 'Cancelled, or out of the queue: the row shows its new state and the number of classes booked is fetched again.',
      type: 'final',
      entry: ['bookingChanged', { type: 'sayChanged', params: ({ context }) => ({ change: context.change! }) }],
    },
  },
});
