import { assign, fromPromise, setup } from 'xstate';
import type { ClassCancelled, ClassSaved } from '../src/api/schedule';
import type { Envelope } from '../src/domain/envelope';
import { isOk } from '../src/domain/envelope';
import { newIntentKey } from '../src/domain/intent-key';

/** The form's fields, as typed (the server reads the Shanghai day and wall-clock times). */
export interface ClassFormValues {
  clubId: string;
  classType: string;
  title: string;
  room: string;
  capacity: string;
  day: string;
  start: string;
  end: string;
  /** '' for no teacher */
  teacherId: string;
}

export interface ClassFormInput {
  /** null: a new class; else the class edited (which may also be cancelled) */
  classId: number | null;
  values: ClassFormValues;
}

export interface ClassFormContext extends ClassFormInput {
  /** one per save tap, reused by its retries */
  saveKey?: string;
  /** one per confirmed cancel, reused by its retries */
  cancelKey?: string;
  /** the server's refusal and the field it names */
  errorCode?: number;
  errorField?: string;
}

export type ClassFormEvent =
  | { type: 'field.change'; field: keyof ClassFormValues; value: string }
  | { type: 'form.save' }
  | { type: 'network.retry' }
  | { type: 'cancel.ask' }
  | { type: 'cancel.back' }
  | { type: 'cancel.confirm' };

type Refusal = { code: number; field?: string };

/**
 * Staff creating or editing a class, and cancelling one, on /staff/classes/new and
 * /staff/classes/:id/edit (decision 041). Save sends the form; the server's refusal is shown
 * at the field it names until the form is changed; a network failure offers a retry under the same
 * key. An edited class may be cancelled after a confirm that says its bookings are cancelled and
 * the uses given back. Effects are provided: actors save, cancel; action done (back to the week).
 * Tags say what the form shows: `busy` its buttons are disabled (a save or cancel sent or done),
 * `asking` the cancel confirm shows in place of save, `submitting` the button sent (save, or confirm
 * cancel) says it is working, `refused` the server's reason (at the field it names, or under the
 * form), `unreachable` "network unreachable" and the button says retry. Save's states and cancel's
 * differ by `asking`.
 */
export const scheduleClassFormMachine = setup({
  types: {
    context: {} as ClassFormContext,
    events: {} as ClassFormEvent,
    input: {} as ClassFormInput,
    tags: {} as 'busy' | 'asking' | 'submitting' | 'refused' | 'unreachable',
  },
  actors: {
    save: fromPromise<Envelope<ClassSaved>, { classId: number | null; values: ClassFormValues; idempotencyKey: string }>(async () => {
      throw new Error('save is provided by the app');
    }),
    cancel: fromPromise<Envelope<ClassCancelled>, { classId: number; idempotencyKey: string }>(async () => {
      throw new Error('cancel is provided by the app');
    }),
  },
  actions: {
    change: assign({
      values: ({ context }, params: { field: keyof ClassFormValues; value: string }) => ({
        ...context.values,
        [params.field]: params.value,
      }),
      errorCode: undefined,
      errorField: undefined,
    }),
    newSaveKey: assign({ saveKey: () => newIntentKey(), errorCode: undefined, errorField: undefined }),
    newCancelKey: assign({ cancelKey: () => newIntentKey(), errorCode: undefined, errorField: undefined }),
    keepRefusal: assign({ errorCode: (_, params: Refusal) => params.code, errorField: (_, params: Refusal) => params.field }),
    done: () => {},
  },
  guards: {
    editing: ({ context }) => context.classId !== null,
    refused: (_, params: { envelope: Envelope<unknown> }) => !isOk(params.envelope),
  },
}).createMachine({
  id: 'scheduleClassForm',
  context: ({ input }) => ({ classId: input.classId, values: input.values }),
  initial: 'editing',
  states: {
    editing: {
      description:
        'The form: a new class (club, type, title, room, capacity, day, start, end, teacher) or the class edited (time, capacity, teacher), a save button, and for an edited class a cancel-class button.',
      on: {
        'field.change': { actions: { type: 'change', params: ({ event }) => ({ field: event.field, value: event.value }) } },
        'form.save': { target: 'saving', actions: 'newSaveKey' },
        'cancel.ask': { guard: 'editing', target: 'confirmingCancel' },
      },
    },
    saving: {
      tags: ['busy', 'submitting'],
      description: 'Sent: the save button shows it is working and cannot be tapped again.',
      invoke: {
        id: 'save',
        src: 'save',
        input: ({ context }) => ({ classId: context.classId, values: context.values, idempotencyKey: context.saveKey ?? '' }),
        onDone: [
          {
            guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) },
            target: 'refused',
            actions: { type: 'keepRefusal', params: ({ event }) => ({ code: event.output.code, field: event.output.field }) },
          },
          { target: 'saved', actions: 'done' },
        ],
        onError: 'unreachable',
      },
    },
    refused: {
      tags: ['refused'],
      description:
        'The server refused (end before start, a past start, capacity, a taken room, started): the reason is shown by the field it names; changing the form clears it.',
      on: {
        'field.change': {
          target: 'editing',
          actions: { type: 'change', params: ({ event }) => ({ field: event.field, value: event.value }) },
        },
        'cancel.ask': { guard: 'editing', target: 'confirmingCancel' },
      },
    },
    unreachable: {
      tags: ['unreachable'],
      description: 'The save did not reach the server: "network unreachable" with a retry that sends the same save again.',
      on: { 'network.retry': 'saving' },
    },
    saved: { tags: ['busy'], description: 'Saved: back to the week, which shows the class as it now is.', type: 'final' },
    confirmingCancel: {
      tags: ['asking'],
      description:
        'The cancel confirm: every booking of the class is cancelled, the uses given back, the queue cleared and the members told; confirm or go back.',
      on: {
        'cancel.back': 'editing',
        'cancel.confirm': { target: 'cancelling', actions: 'newCancelKey' },
      },
    },
    cancelling: {
      tags: ['asking', 'busy', 'submitting'],
      description: 'The cancel was sent: the confirm button shows it is working.',
      invoke: {
        id: 'cancel',
        src: 'cancel',
        input: ({ context }) => ({ classId: context.classId ?? 0, idempotencyKey: context.cancelKey ?? '' }),
        onDone: [
          {
            guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) },
            target: 'cancelRefused',
            actions: { type: 'keepRefusal', params: ({ event }) => ({ code: event.output.code }) },
          },
          { target: 'cancelled', actions: 'done' },
        ],
        onError: 'cancelUnreachable',
      },
    },
    cancelRefused: {
      tags: ['asking', 'refused'],
      description: 'The server refused the cancel (the class started meanwhile): the reason is shown; back to the form.',
      on: { 'cancel.back': 'editing' },
    },
    cancelUnreachable: {
      tags: ['asking', 'unreachable'],
      description: 'The cancel did not reach the server: "network unreachable" with a retry under the same key, or back to the form.',
      on: { 'network.retry': 'cancelling', 'cancel.back': 'editing' },
    },
    cancelled: { tags: ['busy'], description: 'Cancelled: back to the week, where the class is no longer listed.', type: 'final' },
  },
});
