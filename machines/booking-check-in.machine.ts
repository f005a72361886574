import { assign, fromPromise, setup } from 'xstate';
import type { CheckinAnswer } from '../src/api/booking';
import type { Envelope } from '../src/domain/envelope';
import { isOk } from '../src/domain/envelope';
import { newIntentKey } from '../src/domain/intent-key';

export interface CheckInInput {
  classId: number;
  /** what the class's QR code carried */
  code: string;
}

export interface CheckInContext extends CheckInInput {
  /** one per tap, reused by its retries: a double tap checks in once */
  idempotencyKey?: string;
  /** the server's refusal, e.g. 70043 outside the check-in time, 70041 already signed */
  errorCode?: number;
}

export type CheckInEvent = { type: 'checkin.submit' } | { type: 'network.retry' };

/**
 * Checking in by the class's QR code (/signed?classId=&code=, decision 007): ready, submitting,
 * checked in, refused with the server's code (the member may try again, e.g. once check-in opens),
 * or unreachable with a retry under the same key. Effects are provided: actor checkIn.
 * Tags say what the page shows (ready carries none: the check-in button): `submitting` the button is
 * working, `refused` the server's reason above it, `unreachable` "network unreachable" and the button
 * says retry, `checkedIn` the class is checked in.
 * `end` a state where the flow is over though the chart still answers there (refused, tap again): the screen
 * offers the next thing to do (decision 103).
 */
export const bookingCheckInMachine = setup({
  types: {
    context: {} as CheckInContext,
    events: {} as CheckInEvent,
    input: {} as CheckInInput,
    tags: {} as 'submitting' | 'refused' | 'unreachable' | 'checkedIn' | 'end',
  },
  actors: {
    checkIn: fromPromise<Envelope<CheckinAnswer>, { classId: number; code: string; idempotencyKey: string }>(async () => {
      throw new Error('checkIn is provided by the app');
    }),
  },
  actions: {
    newIntent: assign({ idempotencyKey: () => newIntentKey(), errorCode: undefined }),
    keepCode: assign({ errorCode: (_, params: { code: number }) => params.code }),
  },
  guards: {
    refused: (_, params: { envelope: Envelope<unknown> }) => !isOk(params.envelope),
  },
}).createMachine({
  id: 'bookingCheckIn',
  context: ({ input }) => ({ classId: input.classId, code: input.code }),
  initial: 'ready',
  states: {
    ready: {
      description: 'The check-in page of a booked class: the class and a check-in button the member can tap.',
      on: { 'checkin.submit': { target: 'submitting', actions: 'newIntent' } },
    },
    submitting: {
      tags: ['submitting'],
      description: 'The check-in was sent: the button shows it is working and cannot be tapped again.',
      invoke: {
        id: 'checkIn',
        src: 'checkIn',
        input: ({ context }) => ({ classId: context.classId, code: context.code, idempotencyKey: context.idempotencyKey ?? '' }),
        onDone: [
          {
            guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) },
            target: 'refused',
            actions: { type: 'keepCode', params: ({ event }) => ({ code: event.output.code }) },
          },
          { target: 'checkedIn' },
        ],
        onError: 'unreachable',
      },
    },
    refused: {
      tags: ['refused', 'end'],
      description:
        'The server refused the check-in (not booked, not the time to check in, wrong code); the reason is shown and the member can tap check-in again.',
      on: { 'checkin.submit': { target: 'submitting', actions: 'newIntent' } },
    },
    unreachable: {
      tags: ['unreachable'],
      description: 'The check-in did not reach the server: "network unreachable" is shown with a retry that sends the same check-in again.',
      on: { 'network.retry': 'submitting' },
    },
    checkedIn: { tags: ['checkedIn'], description: 'Checked in: the page says so; nothing more to do.', type: 'final' },
  },
});
