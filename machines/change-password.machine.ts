import { assign, fromPromise, setup } from 'xstate';
import type { PlainEnvelope } from '../src/api/auth';
import { isOk } from '../src/domain/envelope';
import { isFilled, newPasswordProblem, trimInput } from '../src/domain/validation';

export interface ChangePasswordContext {
  oldPassword: string;
  password: string;
  again: string;
  /** the server's refusal: 10014 old password wrong, 10013 same as old, 10015 too many tries */
  errorCode?: number;
}

export type ChangePasswordEvent =
  | { type: 'password.old.change'; value: string }
  | { type: 'password.new.change'; value: string }
  | { type: 'password.again.change'; value: string }
  | { type: 'password.save' };

/**
 * A member changes their password (/mine/changepassword, spec §5): old password required, new one
 * 6-15 characters, both entries match, new differs from old; then POST /customers/password.
 * Effects are provided: actor changePassword.
 */
export const changePasswordMachine = setup({
  types: {
    context: {} as ChangePasswordContext,
    events: {} as ChangePasswordEvent,
  },
  actors: {
    changePassword: fromPromise<PlainEnvelope, { oldPassword: string; newPassword: string }>(async () => {
      throw new Error('changePassword is provided by the app');
    }),
  },
  actions: {
    setOld: assign({ oldPassword: ({ event }) => (event.type === 'password.old.change' ? event.value : '') }),
    setPassword: assign({ password: ({ event }) => (event.type === 'password.new.change' ? event.value : '') }),
    setAgain: assign({ again: ({ event }) => (event.type === 'password.again.change' ? event.value : '') }),
    keepRefusal: assign({ errorCode: (_, params: { code: number }) => params.code }),
  },
  guards: {
    oldMissing: ({ context }) => !isFilled(context.oldPassword),
    lengthInvalid: ({ context }) => newPasswordProblem(context.password, context.again, context.oldPassword) === 'length',
    passwordsDiffer: ({ context }) => newPasswordProblem(context.password, context.again, context.oldPassword) === 'mismatch',
    sameAsOld: ({ context }) => newPasswordProblem(context.password, context.again, context.oldPassword) === 'sameAsOld',
    accepted: (_, params: { envelope: PlainEnvelope }) => isOk(params.envelope),
  },
}).createMachine({
  id: 'changePassword',
  context: { oldPassword: '', password: '', again: '' },
  initial: 'editing',
  states: {
    editing: {
      initial: 'clean',
      states: {
        clean: {},
        oldMissing: {},
        lengthInvalid: {},
        mismatch: {},
        sameAsOld: {},
        refused: {},
        unreachable: {},
      },
      on: {
        'password.old.change': { target: '.clean', actions: 'setOld' },
        'password.new.change': { target: '.clean', actions: 'setPassword' },
        'password.again.change': { target: '.clean', actions: 'setAgain' },
        'password.save': [
          { guard: 'oldMissing', target: '.oldMissing' },
          { guard: 'lengthInvalid', target: '.lengthInvalid' },
          { guard: 'passwordsDiffer', target: '.mismatch' },
          { guard: 'sameAsOld', target: '.sameAsOld' },
          { target: 'saving' },
        ],
      },
    },
    saving: {
      invoke: {
        id: 'changePassword',
        src: 'changePassword',
        input: ({ context }) => ({ oldPassword: trimInput(context.oldPassword), newPassword: trimInput(context.password) }),
        onDone: [
          { guard: { type: 'accepted', params: ({ event }) => ({ envelope: event.output }) }, target: 'done' },
          { target: 'editing.refused', actions: { type: 'keepRefusal', params: ({ event }) => ({ code: event.output.code }) } },
        ],
        onError: 'editing.unreachable',
      },
    },
    done: {
      type: 'final',
    },
  },
});
