import { assign, fromPromise, setup } from 'xstate';
import type { LoginRequest, ValidCodeEnvelope } from '../src/api/auth';
import { isOk, type LoginEnvelope } from '../src/domain/envelope';
import { SMS_RESEND_COOLDOWN_S } from '../src/domain/limits';
import { isFilled, isValidPhone, trimInput } from '../src/domain/validation';
import type { SessionUser } from './session.machine';

export interface LoginInput {
  /** the open-id ticket from the `openId` cookie; the next phone login binds it */
  openIdTicket?: string;
  /** seconds before a code can be sent again (60 in the app; tests shorten it) */
  cooldownSeconds?: number;
}

export interface LoginContext {
  phone: string;
  code: string;
  password: string;
  agreed: boolean;
  loginType: 'code' | 'password';
  openIdTicket?: string;
  cooldownSeconds: number;
  /** seconds left before the code can be sent again */
  remaining: number;
  /** the server's refusal of the login (DESIGN.md §7), shown translated */
  errorCode?: number;
  /** the server's refusal to send a code (10007, 10008, 10009, 10010) */
  sendErrorCode?: number;
  token?: string;
  user?: SessionUser;
}

export type LoginEvent =
  | { type: 'login.tab.code' }
  | { type: 'login.tab.password' }
  | { type: 'login.phone.change'; value: string }
  | { type: 'login.code.change'; value: string }
  | { type: 'login.password.change'; value: string }
  | { type: 'login.agreement.change'; agreed: boolean }
  | { type: 'login.code.send' }
  | { type: 'login.submit' };

export interface LoginOutput {
  token: string;
  user: SessionUser;
}

/** The login request of spec §3: phone and secret trimmed, the open-id ticket sent as `openid`. */
function loginRequest(c: LoginContext): LoginRequest {
  return {
    username: trimInput(c.phone),
    password: trimInput(c.loginType === 'code' ? c.code : c.password),
    loginType: c.loginType,
    ...(c.openIdTicket ? { openid: c.openIdTicket } : {}),
  };
}

/** The member the login answer describes (spec §3: data.id is the customer id, data.level the level). */
function userFrom(e: LoginEnvelope, phone: string): SessionUser {
  const d = e.data as LoginEnvelope['data'] & { wxAvatar?: string | null; wxNickname?: string | null };
  return {
    customerId: d.id,
    username: d.username || trimInput(phone),
    userLevel: String(d.level ?? ''),
    ...(d.wxAvatar ? { wxAvatar: d.wxAvatar } : {}),
    ...(d.wxNickname ? { wxNicName: d.wxNickname } : {}),
  };
}

/**
 * Login by phone with a verification code or a password (spec §5, §7). Three regions run side by
 * side: the tab, the form (field errors and the server's refusals are named states) and the code
 * sender with its resend countdown (one `after` tick per second). Effects are provided: actors
 * sendCode and login, action handOver (give the session the token and the member).
 */
export const loginMachine = setup({
  types: {
    context: {} as LoginContext,
    events: {} as LoginEvent,
    input: {} as LoginInput,
    output: {} as LoginOutput,
  },
  actors: {
    sendCode: fromPromise<ValidCodeEnvelope, { phone: string }>(async () => ({ code: 200, status: true, data: null })),
    login: fromPromise<LoginEnvelope, LoginRequest>(async () => {
      throw new Error('login is provided by the app');
    }),
  },
  actions: {
    useCode: assign({ loginType: 'code' as const }),
    usePassword: assign({ loginType: 'password' as const }),
    setPhone: assign({ phone: ({ event }) => (event.type === 'login.phone.change' ? event.value : '') }),
    setCode: assign({ code: ({ event }) => (event.type === 'login.code.change' ? event.value : '') }),
    setPassword: assign({ password: ({ event }) => (event.type === 'login.password.change' ? event.value : '') }),
    setAgreed: assign({ agreed: ({ event }) => event.type === 'login.agreement.change' && event.agreed }),
    keepSession: assign((_, params: { envelope: LoginEnvelope; phone: string }) => ({
      token: params.envelope.token,
      user: userFrom(params.envelope, params.phone),
      errorCode: undefined,
    })),
    keepRefusal: assign({ errorCode: (_, params: { code: number }) => params.code }),
    keepSendRefusal: assign({ sendErrorCode: (_, params: { code: number }) => params.code }),
    startCooldown: assign({ remaining: ({ context }) => context.cooldownSeconds, sendErrorCode: undefined }),
    tick: assign({ remaining: ({ context }) => context.remaining - 1 }),
    /** provided by the app: hands the token and the member to the session */
    handOver: () => {},
  },
  guards: {
    phoneValid: ({ context }) => isValidPhone(context.phone),
    phoneInvalid: ({ context }) => !isValidPhone(context.phone),
    codeMissing: ({ context }) => context.loginType === 'code' && !isFilled(context.code),
    passwordMissing: ({ context }) => context.loginType === 'password' && !isFilled(context.password),
    agreementMissing: ({ context }) => !context.agreed,
    loginAccepted: (_, params: { envelope: LoginEnvelope }) => isOk(params.envelope) && !!params.envelope.token,
    codeSent: (_, params: { envelope: ValidCodeEnvelope }) => isOk(params.envelope),
    cooldownLeft: ({ context }) => context.remaining > 1,
  },
}).createMachine({
  id: 'login',
  context: ({ input }) => ({
    phone: '',
    code: '',
    password: '',
    agreed: false,
    loginType: 'code',
    openIdTicket: input.openIdTicket || undefined,
    cooldownSeconds: input.cooldownSeconds ?? SMS_RESEND_COOLDOWN_S,
    remaining: 0,
  }),
  initial: 'active',
  states: {
    active: {
      type: 'parallel',
      states: {
        tab: {
          initial: 'code',
          states: {
            code: { entry: 'useCode', on: { 'login.tab.password': 'password' } },
            password: { entry: 'usePassword', on: { 'login.tab.code': 'code' } },
          },
        },
        form: {
          initial: 'editing',
          states: {
            editing: {
              initial: 'clean',
              states: {
                clean: {},
                phoneInvalid: {},
                codeMissing: {},
                passwordMissing: {},
                agreementMissing: {},
                refused: {},
                unreachable: {},
              },
              on: {
                'login.tab.code': '.clean',
                'login.tab.password': '.clean',
                'login.phone.change': { target: '.clean', actions: 'setPhone' },
                'login.code.change': { target: '.clean', actions: 'setCode' },
                'login.password.change': { target: '.clean', actions: 'setPassword' },
                'login.agreement.change': { target: '.clean', actions: 'setAgreed' },
                'login.code.send': { guard: 'phoneInvalid', target: '.phoneInvalid' },
                'login.submit': [
                  { guard: 'phoneInvalid', target: '.phoneInvalid' },
                  { guard: 'codeMissing', target: '.codeMissing' },
                  { guard: 'passwordMissing', target: '.passwordMissing' },
                  { guard: 'agreementMissing', target: '.agreementMissing' },
                  { target: 'submitting' },
                ],
              },
            },
            submitting: {
              invoke: {
                id: 'login',
                src: 'login',
                input: ({ context }) => loginRequest(context),
                onDone: [
                  {
                    guard: { type: 'loginAccepted', params: ({ event }) => ({ envelope: event.output }) },
                    target: '#login.loggedIn',
                    actions: { type: 'keepSession', params: ({ context, event }) => ({ envelope: event.output, phone: context.phone }) },
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
                'login.phone.change': '.idle',
                'login.code.send': { guard: 'phoneValid', target: 'sending' },
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
    loggedIn: {
      type: 'final',
      entry: 'handOver',
    },
  },
  output: ({ context }) => ({ token: context.token!, user: context.user! }),
});
