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
 * Tags say what the line under the form says (src/app/screens/auth/auth-messages.ts keys its
 * messages by them): `oldMissing`, `lengthInvalid`, `mismatch`, `sameAsOld` the field error of that
 * name, `refused` the server's reason for its code, `unreachable` "network unreachable".
 */
export const authPasswordChangeMachine = setup({
  types: {
    context: {} as ChangePasswordContext,
    events: {} as ChangePasswordEvent,
    tags: {} as 'oldMissing' | 'lengthInvalid' | 'mismatch' | 'sameAsOld' | 'refused' | 'unreachable',
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
  id: 'authPasswordChange',
  context: { oldPassword: '', password: '', again: '' },
  initial: 'editing',
  states: {
    editing: {
      description: 'The change-password form: old password, new password twice, and save.',
      initial: 'clean',
      states: {
        clean: { description: 'Nothing said under the form: the member types.' },
        oldMissing: { tags: ['oldMissing'], description: 'Save was tapped without the old password: "enter the old password" is said.' },
        lengthInvalid: { tags: ['lengthInvalid'], description: 'The new password is not 6 to 15 characters: this is said.' },
        mismatch: { tags: ['mismatch'], description: 'The new password was typed twice differently: "the two passwords differ" is said.' },
        sameAsOld: { tags: ['sameAsOld'], description: 'The new password is the old one: this is said.' },
        refused: {
          tags: ['refused'],
          description: 'The server refused: the old password is wrong, the same as the new, or too many tries; the reason is said.',
        },
        unreachable: {
          tags: ['unreachable'],
          description: 'The change did not reach the server: "network unreachable" is said; the member can save again.',
        },
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
      description: 'The new password was sent: the save button shows it is working.',
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
      description: 'The password is changed: the member is told and leaves the form.',
      type: 'final',
    },
  },
});
