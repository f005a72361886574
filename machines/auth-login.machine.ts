import { assign, fromPromise, sendTo, setup } from 'xstate';
import type { LoginEnvelope, LoginRequest } from '../src/api/auth';
import { isOk } from '../src/domain/envelope';
import { isFilled, isValidPhone, trimInput } from '../src/domain/validation';
import type { SessionUser } from './auth-session.machine';
import { authSmsCodeMachine } from './auth-sms-code.machine';

export interface LoginInput {
  /** the open-id ticket from the `openId` cookie; the next phone login binds it */
  openIdTicket?: string;
}

export interface LoginContext {
  phone: string;
  code: string;
  password: string;
  agreed: boolean;
  loginType: 'code' | 'password';
  openIdTicket?: string;
  /** the server's refusal of the login (DESIGN.md §7), shown translated */
  errorCode?: number;
  token?: string;
  user?: SessionUser;
  /** the login used an initial password from the front desk (decision 054): the app goes to setting a new one first */
  mustChangePassword: boolean;
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
  mustChangePassword: boolean;
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
  const d = e.data;
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
 * side: the tab and the form (field errors and the server's refusals are named states); the code
 * sender with its resend countdown is the child machine `smsCode` (auth-sms-code.machine.ts), invoked as
 * `sms`, told when the member asks for a code with a valid phone and when the phone is typed.
 * Effects are provided: actors login and smsCode (with its sendCode), action handOver (give the
 * session the token and the member).
 * Tags say what the line under the form says (src/app/screens/auth/auth-messages.ts keys its messages
 * by them): `phoneInvalid`, `codeMissing`, `passwordMissing`, `agreementMissing` the field error of
 * that name, `refused` the server's reason for its code, `unreachable` "network unreachable".
 */
export const authLoginMachine = setup({
  types: {
    context: {} as LoginContext,
    events: {} as LoginEvent,
    input: {} as LoginInput,
    output: {} as LoginOutput,
    tags: {} as 'phoneInvalid' | 'codeMissing' | 'passwordMissing' | 'agreementMissing' | 'refused' | 'unreachable',
  },
  actors: {
    smsCode: authSmsCodeMachine,
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
      mustChangePassword: params.envelope.data.mustChangePassword === true,
      errorCode: undefined,
    })),
    keepRefusal: assign({ errorCode: (_, params: { code: number }) => params.code }),
    askCode: sendTo('sms', ({ context }) => ({ type: 'sms.send' as const, phone: trimInput(context.phone) })),
    phoneChanged: sendTo('sms', { type: 'sms.phone.change' as const }),
    /** provided by the app: hands the token and the member to the session */
    handOver: () => {},
  },
  guards: {
    phoneInvalid: ({ context }) => !isValidPhone(context.phone),
    codeMissing: ({ context }) => context.loginType === 'code' && !isFilled(context.code),
    passwordMissing: ({ context }) => context.loginType === 'password' && !isFilled(context.password),
    agreementMissing: ({ context }) => !context.agreed,
    loginAccepted: (_, params: { envelope: LoginEnvelope }) => isOk(params.envelope) && !!params.envelope.token,
  },
}).createMachine({
  id: 'authLogin',
  context: ({ input }) => ({
    phone: '',
    code: '',
    password: '',
    agreed: false,
    loginType: 'code',
    openIdTicket: input.openIdTicket || undefined,
    mustChangePassword: false,
  }),
  initial: 'active',
  states: {
    active: {
      description: 'The login form: phone, then a code or a password by tab, and the agreement.',
      type: 'parallel',
      invoke: { id: 'sms', src: 'smsCode' },
      on: {
        // get-code goes to the code sender when the form does not take it: the form says an invalid
        // phone, and a phone the form sent on was valid (the phone typed goes with the form's own
        // transition: the field only changes while editing)
        'login.code.send': { actions: 'askCode' },
      },
      states: {
        tab: {
          description: 'Which way the member logs in.',
          initial: 'code',
          states: {
            code: {
              description: 'Log in with an SMS code: the code field and its "get code" button show.',
              entry: 'useCode',
              on: { 'login.tab.password': 'password' },
            },
            password: {
              description: 'Log in with a password: the password field shows, no code button.',
              entry: 'usePassword',
              on: { 'login.tab.code': 'code' },
            },
          },
        },
        form: {
          description: 'The form and the one line under it.',
          initial: 'editing',
          states: {
            editing: {
              description: 'The member types; log in can be tapped.',
              initial: 'clean',
              states: {
                clean: { description: 'Nothing said about the form.' },
                phoneInvalid: {
                  tags: ['phoneInvalid'],
                  description: 'Log in or get code was tapped with a phone that is not 11 digits: "enter a correct phone number" is said.',
                },
                codeMissing: {
                  tags: ['codeMissing'],
                  description: 'Log in was tapped on the code tab without a code: "enter the code" is said.',
                },
                passwordMissing: {
                  tags: ['passwordMissing'],
                  description: 'Log in was tapped on the password tab without a password: "enter the password" is said.',
                },
                agreementMissing: {
                  tags: ['agreementMissing'],
                  description: 'Log in was tapped without ticking the agreement: "read and agree to the agreement first" is said.',
                },
                refused: {
                  tags: ['refused'],
                  description: 'The server refused the login (wrong phone or password, wrong or expired code, banned): the reason is said.',
                },
                unreachable: {
                  tags: ['unreachable'],
                  description: 'The login did not reach the server: "network unreachable" is said; the member can tap log in again.',
                },
              },
              on: {
                'login.tab.code': '.clean',
                'login.tab.password': '.clean',
                'login.phone.change': { target: '.clean', actions: ['setPhone', 'phoneChanged'] },
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
              description: 'The login was sent: the button reads "logging in…" and is disabled.',
              invoke: {
                id: 'login',
                src: 'login',
                input: ({ context }) => loginRequest(context),
                onDone: [
                  {
                    guard: { type: 'loginAccepted', params: ({ event }) => ({ envelope: event.output }) },
                    target: '#authLogin.loggedIn',
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
      },
    },
    loggedIn: {
      description: 'Logged in: the session has the member, who goes back where they came from (Homepage by default).',
      type: 'final',
      entry: 'handOver',
    },
  },
  output: ({ context }) => ({ token: context.token!, user: context.user!, mustChangePassword: context.mustChangePassword }),
});
