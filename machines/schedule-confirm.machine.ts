import { assign, fromPromise, setup } from 'xstate';
import type { ScheduleMoved } from '../src/api/schedule';
import type { Envelope } from '../src/domain/envelope';
import { isOk } from '../src/domain/envelope';
import { newIntentKey } from '../src/domain/intent-key';

/** What the teacher answers for: one class (/bindPage/teacherConfirmForm) or a whole week (/bindPage/teacherConfirm). */
export type ScheduleTarget = { kind: 'class'; id: number } | { kind: 'week'; week: string };

export interface ScheduleConfirmInput {
  target: ScheduleTarget;
}

export interface ScheduleConfirmContext extends ScheduleConfirmInput {
  /** the decline reason as typed */
  reason: string;
  /** a decline was sent without a reason: the field says it is required */
  reasonMissing: boolean;
  /** one per tap, reused by its retries: a double tap answers once */
  idempotencyKey?: string;
  /** the server's refusal, e.g. 60050 not waiting for your confirmation, 60051 class started */
  errorCode?: number;
}

export type ScheduleConfirmEvent =
  | { type: 'schedule.confirm' }
  | { type: 'decline.start' }
  | { type: 'reason.change'; value: string }
  | { type: 'decline.submit' }
  | { type: 'decline.cancel' }
  | { type: 'network.retry' };

type Answer = Envelope<ScheduleMoved | { confirmed: number[] }>;

/**
 * A teacher confirming their schedule (spec §4 teacher schedule, decision 029): confirm one
 * class or the whole week, or decline one class with a reason (required). Each answer is sent once
 * per tap under an idempotency key that its retry reuses; a refusal shows the server's code; a
 * network failure offers a retry. Effects are provided: actors confirm (one class or the week) and decline.
 * Tags say what the page shows (ready carries none: the confirm and "cannot teach" buttons):
 * `declining` the reason form shows, `submitting` the answer sent (confirm, or the reason) is in
 * flight and its button says so, `unreachable` "network unreachable" and its button says retry
 * (with `declining`, the decline's), `refused` the server's reason, `confirmed` and `declined` the
 * answer given.
 */
export const scheduleConfirmMachine = setup({
  types: {
    context: {} as ScheduleConfirmContext,
    events: {} as ScheduleConfirmEvent,
    input: {} as ScheduleConfirmInput,
    tags: {} as 'declining' | 'submitting' | 'unreachable' | 'refused' | 'confirmed' | 'declined',
  },
  actors: {
    confirm: fromPromise<Answer, { target: ScheduleTarget; idempotencyKey: string }>(async () => {
      throw new Error('confirm is provided by the app');
    }),
    decline: fromPromise<Answer, { id: number; reason: string; idempotencyKey: string }>(async () => {
      throw new Error('decline is provided by the app');
    }),
  },
  actions: {
    newIntent: assign({ idempotencyKey: () => newIntentKey(), errorCode: undefined }),
    keepCode: assign({ errorCode: (_, params: { code: number }) => params.code }),
    keepReason: assign({ reason: (_, params: { value: string }) => params.value, reasonMissing: false }),
    flagMissing: assign({ reasonMissing: true }),
    clearMissing: assign({ reasonMissing: false }),
    changed: () => {},
  },
  guards: {
    refused: (_, params: { envelope: Envelope<unknown> }) => !isOk(params.envelope),
    oneClass: ({ context }) => context.target.kind === 'class',
    reasonGiven: ({ context }) => context.reason.trim().length > 0,
  },
}).createMachine({
  id: 'scheduleConfirm',
  context: ({ input }) => ({ target: input.target, reason: '', reasonMissing: false }),
  initial: 'ready',
  states: {
    ready: {
      description:
        'The class (or the week) with its confirmation state: a confirm button, and for one class a "cannot teach" button that asks for a reason.',
      on: {
        'schedule.confirm': { target: 'confirming', actions: 'newIntent' },
        'decline.start': { guard: 'oneClass', target: 'declining', actions: 'clearMissing' },
      },
    },
    confirming: {
      tags: ['submitting'],
      description: 'The confirmation was sent: the button shows it is working and cannot be tapped again.',
      invoke: {
        id: 'confirm',
        src: 'confirm',
        input: ({ context }) => ({ target: context.target, idempotencyKey: context.idempotencyKey ?? '' }),
        onDone: [
          {
            guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) },
            target: 'refused',
            actions: { type: 'keepCode', params: ({ event }) => ({ code: event.output.code }) },
          },
          { target: 'confirmed', actions: 'changed' },
        ],
        onError: 'confirmUnreachable',
      },
    },
    confirmUnreachable: {
      tags: ['unreachable'],
      description: 'The confirmation did not reach the server: "network unreachable" with a retry that sends the same confirmation again.',
      on: { 'network.retry': 'confirming' },
    },
    declining: {
      tags: ['declining'],
      description:
        'The reason form: the teacher types why they cannot teach the class; sending it without a reason says the reason is required; they may go back.',
      on: {
        'reason.change': { actions: { type: 'keepReason', params: ({ event }) => ({ value: event.value }) } },
        'decline.submit': [{ guard: 'reasonGiven', target: 'sendingDecline', actions: 'newIntent' }, { actions: 'flagMissing' }],
        'decline.cancel': 'ready',
      },
    },
    sendingDecline: {
      tags: ['declining', 'submitting'],
      description: 'The decline with its reason was sent: the form cannot be sent again meanwhile.',
      invoke: {
        id: 'decline',
        src: 'decline',
        input: ({ context }) => ({
          id: context.target.kind === 'class' ? context.target.id : 0,
          reason: context.reason.trim(),
          idempotencyKey: context.idempotencyKey ?? '',
        }),
        onDone: [
          {
            guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) },
            target: 'refused',
            actions: { type: 'keepCode', params: ({ event }) => ({ code: event.output.code }) },
          },
          { target: 'declined', actions: 'changed' },
        ],
        onError: 'declineUnreachable',
      },
    },
    declineUnreachable: {
      tags: ['declining', 'unreachable'],
      description: 'The decline did not reach the server: "network unreachable" with a retry that sends the same decline again.',
      on: { 'network.retry': 'sendingDecline' },
    },
    refused: {
      tags: ['refused'],
      description:
        'The server refused (no longer waiting for this teacher, the class has started): the reason is shown; nothing more to do here.',
      type: 'final',
    },
    confirmed: { tags: ['confirmed'], description: 'Confirmed: the class (or the week’s waiting classes) shows confirmed.', type: 'final' },
    declined: { tags: ['declined'], description: 'Declined: the class shows unconfirmed with the reason; staff are told.', type: 'final' },
  },
});
