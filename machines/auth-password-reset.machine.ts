import { assign, fromPromise, sendTo, setup } from 'xstate';
import type { PlainEnvelope, ResetVerifyEnvelope } from '../src/api/auth';
import { isOk } from '../src/domain/envelope';
import { isFilled, isValidPhone, newPasswordProblem, trimInput } from '../src/domain/validation';
import { authSmsCodeMachine } from './auth-sms-code.machine';

export interface ResetPasswordInput {
  /** a ticket from step one (the new-password screen gets it in the location state) */
  ticket?: string;
  phone?: string;
}

export interface ResetPasswordContext {
  phone: string;
  code: string;
  password: string;
  again: string;
  /** the single-use reset ticket of step one (10 minutes) */
  ticket?: string;
  /** the server's refusal (10003 wrong code, 10011 length, 10012 ticket expired, …) */
  errorCode?: number;
}

export type ResetPasswordEvent =
  | { type: 'reset.phone.change'; value: string }
  | { type: 'reset.code.change'; value: string }
  | { type: 'reset.code.send' }
  | { type: 'reset.verify' }
  | { type: 'reset.password.change'; value: string }
  | { type: 'reset.again.change'; value: string }
  | { type: 'reset.save' }
  | { type: 'reset.restart' };

/**
 * Forgotten password (spec §7): step one proves the phone with an SMS code and gets a ticket
 * (POST /oauth/resetPasswordVerify); step two sets a new password twice (6-15, matching) and sends it
 * with the ticket (POST /oauth/resetPassword). Step one's code sender with its resend countdown is
 * the child machine `smsCode` (auth-sms-code.machine.ts), invoked as `sms` while on step one (back from
 * step two it starts afresh). Effects are provided: actors smsCode (with its sendCode), verifyCode,
 * resetPassword.
 * Tags say what the line under either step's form says (src/app/screens/auth/auth-messages.ts keys
 * its messages by them): `phoneInvalid`, `codeMissing` (step one), `lengthInvalid`, `mismatch` (step
 * two) the field error of that name, `refused` the server's reason for its code, `unreachable`
 * "network unreachable".
 */
export const authPasswordResetMachine = setup({
  types: {
    context: {} as ResetPasswordContext,
    events: {} as ResetPasswordEvent,
    input: {} as ResetPasswordInput,
    tags: {} as 'phoneInvalid' | 'codeMissing' | 'lengthInvalid' | 'mismatch' | 'refused' | 'unreachable',
  },
  actors: {
    smsCode: authSmsCodeMachine,
    verifyCode: fromPromise<ResetVerifyEnvelope, { phone: string; code: string }>(async () => {
      throw new Error('verifyCode is provided by the app');
    }),
    resetPassword: fromPromise<PlainEnvelope, { ticket: string; password: string }>(async () => {
      throw new Error('resetPassword is provided by the app');
    }),
  },
  actions: {
    setPhone: assign({ phone: ({ event }) => (event.type === 'reset.phone.change' ? event.value : '') }),
    setCode: assign({ code: ({ event }) => (event.type === 'reset.code.change' ? event.value : '') }),
    setPassword: assign({ password: ({ event }) => (event.type === 'reset.password.change' ? event.value : '') }),
    setAgain: assign({ again: ({ event }) => (event.type === 'reset.again.change' ? event.value : '') }),
    keepTicket: assign({ ticket: (_, params: { ticket: string }) => params.ticket, errorCode: undefined }),
    /** step one again, as it starts: the phone kept, nothing else (no code sent yet, no refusal) */
    forgetTicket: assign({ ticket: undefined, code: '', password: '', again: '', errorCode: undefined }),
    keepRefusal: assign({ errorCode: (_, params: { code: number }) => params.code }),
    askCode: sendTo('sms', ({ context }) => ({ type: 'sms.send' as const, phone: trimInput(context.phone) })),
    phoneChanged: sendTo('sms', { type: 'sms.phone.change' as const }),
  },
  guards: {
    hasTicket: ({ context }) => !!context.ticket,
    phoneInvalid: ({ context }) => !isValidPhone(context.phone),
    codeMissing: ({ context }) => !isFilled(context.code),
    passwordLengthInvalid: ({ context }) => newPasswordProblem(context.password, context.again) === 'length',
    passwordsDiffer: ({ context }) => newPasswordProblem(context.password, context.again) === 'mismatch',
    ticketIssued: (_, params: { envelope: ResetVerifyEnvelope }) => isOk(params.envelope) && !!params.envelope.data?.ticket,
    accepted: (_, params: { envelope: PlainEnvelope }) => isOk(params.envelope),
  },
}).createMachine({
  id: 'authPasswordReset',
  context: ({ input }) => ({
    phone: input.phone ?? '',
    code: '',
    password: '',
    again: '',
    ticket: input.ticket || undefined,
  }),
  initial: 'starting',
  states: {
    starting: {
      description: 'Only passed through: a reset ticket brought from step one opens step two, otherwise step one.',
      always: [{ guard: 'hasTicket', target: 'newPassword' }, { target: 'verify' }],
    },
    verify: {
      description: 'Step one (/login/forgetpassword): the member proves the phone with an SMS code, then taps next.',
      type: 'parallel',
      invoke: { id: 'sms', src: 'smsCode' },
      on: {
        // get-code goes to the code sender when the form does not take it: the form says an invalid
        // phone, and a phone the form sent on was valid (the phone typed goes with the form's own
        // transition: the field only changes while editing)
        'reset.code.send': { actions: 'askCode' },
      },
      states: {
        form: {
          description: 'The form and the one line under it.',
          initial: 'editing',
          states: {
            editing: {
              description: 'The member types; next can be tapped.',
              initial: 'clean',
              states: {
                clean: { description: 'Nothing said about the form.' },
                phoneInvalid: {
                  tags: ['phoneInvalid'],
                  description: 'Next or get code was tapped with a phone that is not 11 digits: "enter a correct phone number" is said.',
                },
                codeMissing: { tags: ['codeMissing'], description: 'Next was tapped without a code: "enter the code" is said.' },
                refused: { tags: ['refused'], description: 'The server refused the code (wrong or expired): this is said.' },
                unreachable: {
                  tags: ['unreachable'],
                  description: 'The check did not reach the server: "network unreachable" is said; the member can tap next again.',
                },
              },
              on: {
                'reset.phone.change': { target: '.clean', actions: ['setPhone', 'phoneChanged'] },
                'reset.code.change': { target: '.clean', actions: 'setCode' },
                'reset.code.send': { guard: 'phoneInvalid', target: '.phoneInvalid' },
                'reset.verify': [
                  { guard: 'phoneInvalid', target: '.phoneInvalid' },
                  { guard: 'codeMissing', target: '.codeMissing' },
                  { target: 'verifying' },
                ],
              },
            },
            verifying: {
              description: 'The phone and code were sent: the button reads "verifying…" and is disabled.',
              invoke: {
                id: 'verifyCode',
                src: 'verifyCode',
                input: ({ context }) => ({ phone: trimInput(context.phone), code: trimInput(context.code) }),
                onDone: [
                  {
                    guard: { type: 'ticketIssued', params: ({ event }) => ({ envelope: event.output }) },
                    target: '#authPasswordReset.newPassword',
                    actions: { type: 'keepTicket', params: ({ event }) => ({ ticket: event.output.data!.ticket }) },
                  },
                  {
                    target: 'editing.refused',
                    actions: { type: 'keepRefusal', params: ({ event }) => ({ code: event.output.code }) },
                  },
                ],
                onError: 'editing.unreachable',
              },
            },
          },
        },
      },
    },
    newPassword: {
      description: 'Step two (/login/newpass): the member types the new password twice and saves it, within 10 minutes of step one.',
      initial: 'editing',
      states: {
        editing: {
          description: 'The member types; save can be tapped.',
          initial: 'clean',
          states: {
            clean: { description: 'Nothing said about the form.' },
            lengthInvalid: { tags: ['lengthInvalid'], description: 'The new password is not 6 to 15 characters: this is said.' },
            mismatch: { tags: ['mismatch'], description: 'The two entries differ: this is said.' },
            refused: {
              tags: ['refused'],
              description: 'The ticket expired: "verify the phone again" is said with a button back to step one (the phone kept).',
            },
            unreachable: {
              tags: ['unreachable'],
              description: 'The save did not reach the server: "network unreachable" is said; the member can save again.',
            },
          },
          on: {
            'reset.password.change': { target: '.clean', actions: 'setPassword' },
            'reset.again.change': { target: '.clean', actions: 'setAgain' },
            'reset.save': [
              { guard: 'passwordLengthInvalid', target: '.lengthInvalid' },
              { guard: 'passwordsDiffer', target: '.mismatch' },
              { target: 'saving' },
            ],
          },
        },
        saving: {
          description: 'The new password was sent: the button shows it is working.',
          invoke: {
            id: 'resetPassword',
            src: 'resetPassword',
            input: ({ context }) => ({ ticket: context.ticket!, password: trimInput(context.password) }),
            onDone: [
              {
                guard: { type: 'accepted', params: ({ event }) => ({ envelope: event.output }) },
                target: '#authPasswordReset.done',
              },
              {
                target: 'editing.refused',
                actions: { type: 'keepRefusal', params: ({ event }) => ({ code: event.output.code }) },
              },
            ],
            onError: 'editing.unreachable',
          },
        },
      },
      on: {
        'reset.restart': { target: 'verify', actions: 'forgetTicket' },
      },
    },
    done: {
      description: 'The password is reset: the member is on the login page, told to log in with the new password.',
      type: 'final',
    },
  },
});
