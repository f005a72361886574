import { assign, fromPromise, setup } from 'xstate';
import type { PlainEnvelope, ResetVerifyEnvelope, ValidCodeEnvelope } from '../src/api/auth';
import { isOk } from '../src/domain/envelope';
import { SMS_RESEND_COOLDOWN_S } from '../src/domain/limits';
import { isFilled, isValidPhone, newPasswordProblem, trimInput } from '../src/domain/validation';

export interface ResetPasswordInput {
  /** a ticket from step one (the new-password screen gets it in the location state) */
  ticket?: string;
  phone?: string;
  /** seconds before a code can be sent again (60 in the app; tests shorten it) */
  cooldownSeconds?: number;
}

export interface ResetPasswordContext {
  phone: string;
  code: string;
  password: string;
  again: string;
  /** the single-use reset ticket of step one (10 minutes) */
  ticket?: string;
  cooldownSeconds: number;
  remaining: number;
  /** the server's refusal (10003 wrong code, 10011 length, 10012 ticket expired, …) */
  errorCode?: number;
  sendErrorCode?: number;
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
 * with the ticket (POST /oauth/resetPassword). Effects are provided: actors sendCode, verifyCode,
 * resetPassword.
 */
export const resetPasswordMachine = setup({
  types: {
    context: {} as ResetPasswordContext,
    events: {} as ResetPasswordEvent,
    input: {} as ResetPasswordInput,
  },
  actors: {
    sendCode: fromPromise<ValidCodeEnvelope, { phone: string }>(async () => ({ code: 200, status: true, data: null })),
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
    forgetTicket: assign({ ticket: undefined, code: '', password: '', again: '', remaining: 0, errorCode: undefined, sendErrorCode: undefined }),
    keepRefusal: assign({ errorCode: (_, params: { code: number }) => params.code }),
    keepSendRefusal: assign({ sendErrorCode: (_, params: { code: number }) => params.code }),
    startCooldown: assign({ remaining: ({ context }) => context.cooldownSeconds, sendErrorCode: undefined }),
    tick: assign({ remaining: ({ context }) => context.remaining - 1 }),
  },
  guards: {
    hasTicket: ({ context }) => !!context.ticket,
    phoneValid: ({ context }) => isValidPhone(context.phone),
    phoneInvalid: ({ context }) => !isValidPhone(context.phone),
    codeMissing: ({ context }) => !isFilled(context.code),
    passwordLengthInvalid: ({ context }) => newPasswordProblem(context.password, context.again) === 'length',
    passwordsDiffer: ({ context }) => newPasswordProblem(context.password, context.again) === 'mismatch',
    ticketIssued: (_, params: { envelope: ResetVerifyEnvelope }) => isOk(params.envelope) && !!params.envelope.data?.ticket,
    accepted: (_, params: { envelope: PlainEnvelope }) => isOk(params.envelope),
    codeSent: (_, params: { envelope: ValidCodeEnvelope }) => isOk(params.envelope),
    cooldownLeft: ({ context }) => context.remaining > 1,
  },
}).createMachine({
  id: 'resetPassword',
  context: ({ input }) => ({
    phone: input.phone ?? '',
    code: '',
    password: '',
    again: '',
    ticket: input.ticket || undefined,
    cooldownSeconds: input.cooldownSeconds ?? SMS_RESEND_COOLDOWN_S,
    remaining: 0,
  }),
  initial: 'starting',
  states: {
    starting: {
      always: [{ guard: 'hasTicket', target: 'newPassword' }, { target: 'verify' }],
    },
    verify: {
      type: 'parallel',
      states: {
        form: {
          initial: 'editing',
          states: {
            editing: {
              initial: 'clean',
              states: {
                clean: {},
                phoneInvalid: {},
                codeMissing: {},
                refused: {},
                unreachable: {},
              },
              on: {
                'reset.phone.change': { target: '.clean', actions: 'setPhone' },
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
              invoke: {
                id: 'verifyCode',
                src: 'verifyCode',
                input: ({ context }) => ({ phone: trimInput(context.phone), code: trimInput(context.code) }),
                onDone: [
                  {
                    guard: { type: 'ticketIssued', params: ({ event }) => ({ envelope: event.output }) },
                    target: '#resetPassword.newPassword',
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
        sender: {
          initial: 'ready',
          states: {
            ready: {
              initial: 'idle',
              states: {
                idle: {},
                refused: {},
                unreachable: {},
              },
              on: {
                'reset.phone.change': '.idle',
                'reset.code.send': { guard: 'phoneValid', target: 'sending' },
              },
            },
            sending: {
              invoke: {
                id: 'sendCode',
                src: 'sendCode',
                input: ({ context }) => ({ phone: trimInput(context.phone) }),
                onDone: [
                  {
                    guard: { type: 'codeSent', params: ({ event }) => ({ envelope: event.output }) },
                    target: 'coolingDown',
                    actions: 'startCooldown',
                  },
                  {
                    target: 'ready.refused',
                    actions: { type: 'keepSendRefusal', params: ({ event }) => ({ code: event.output.code }) },
                  },
                ],
                onError: 'ready.unreachable',
              },
            },
            coolingDown: {
              after: {
                1000: [
                  { guard: 'cooldownLeft', target: 'coolingDown', reenter: true, actions: 'tick' },
                  { target: 'ready' },
                ],
              },
            },
          },
        },
      },
    },
    newPassword: {
      initial: 'editing',
      states: {
        editing: {
          initial: 'clean',
          states: {
            clean: {},
            lengthInvalid: {},
            mismatch: {},
            refused: {},
            unreachable: {},
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
          invoke: {
            id: 'resetPassword',
            src: 'resetPassword',
            input: ({ context }) => ({ ticket: context.ticket!, password: trimInput(context.password) }),
            onDone: [
              {
                guard: { type: 'accepted', params: ({ event }) => ({ envelope: event.output }) },
                target: '#resetPassword.done',
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
      type: 'final',
    },
  },
});
