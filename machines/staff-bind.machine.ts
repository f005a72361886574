import { assign, fromPromise, setup } from 'xstate';
import type { LoginEnvelope } from '../src/api/auth';
import { isOk } from '../src/domain/envelope';
import { Errors } from '../src/domain/errors';
import { isFilled, trimInput } from '../src/domain/validation';

export interface StaffBindContext {
  username: string;
  password: string;
  /** the server's refusal (spec §8 binding codes; 10015 too many wrong tries) */
  errorCode?: number;
}

export type StaffBindEvent =
  | { type: 'bind.username.change'; value: string }
  | { type: 'bind.password.change'; value: string }
  | { type: 'bind.submit' };

/**
 * A staff member binds their messaging identity with their staff account (/bindPage/userBind, spec
 * §5, decision 028): username and password, then POST /bind/staff with the open id of the silent
 * login. Bound: logged in as staff (handOver). Without an open id (60001) the page offers to run the
 * silent login again; wrong credentials (counted like wrong logins), not a staff account, already
 * bound are said by their code. Effects are provided: actor bindStaff, action handOver.
 */
export const staffBindMachine = setup({
  types: { context: {} as StaffBindContext, events: {} as StaffBindEvent },
  actors: {
    bindStaff: fromPromise<LoginEnvelope, { username: string; password: string }>(async () => {
      throw new Error('bindStaff is provided by the app');
    }),
  },
  actions: {
    setUsername: assign({ username: ({ event }) => (event.type === 'bind.username.change' ? event.value : '') }),
    setPassword: assign({ password: ({ event }) => (event.type === 'bind.password.change' ? event.value : '') }),
    keepRefusal: assign({ errorCode: (_, params: { code: number }) => params.code }),
    handOver: (_, _params: { envelope: LoginEnvelope }) => {},
  },
  guards: {
    usernameMissing: ({ context }) => !isFilled(context.username),
    passwordMissing: ({ context }) => !isFilled(context.password),
    accepted: (_, params: { envelope: LoginEnvelope }) => isOk(params.envelope),
    noOpenId: (_, params: { envelope: LoginEnvelope }) => params.envelope.code === Errors.emptyOpenId.code,
  },
}).createMachine({
  id: 'staffBind',
  context: { username: '', password: '' },
  initial: 'editing',
  states: {
    editing: {
      description: "The staff form: the staff account's username and password, and bind.",
      initial: 'clean',
      states: {
        clean: { description: 'Nothing said under the form: the staff member types.' },
        usernameMissing: { description: 'Bind was tapped without a username: "enter the username" is said.' },
        passwordMissing: { description: 'Bind was tapped without a password: "enter the password" is said.' },
        noOpenId: {
          description:
            'The server has no messaging identity for this browser (empty open id): this is said, with a button that runs the silent login again.',
        },
        refused: {
          description:
            'The server refused (wrong username or password, not a staff account, already bound, too many tries): the reason is said.',
        },
        unreachable: {
          description: 'The request did not reach the server: "network unreachable" is said; the staff member can bind again.',
        },
      },
      on: {
        'bind.username.change': { target: '.clean', actions: 'setUsername' },
        'bind.password.change': { target: '.clean', actions: 'setPassword' },
        'bind.submit': [
          { guard: 'usernameMissing', target: '.usernameMissing' },
          { guard: 'passwordMissing', target: '.passwordMissing' },
          { target: 'binding' },
        ],
      },
    },
    binding: {
      description: 'The username and password were sent: the bind button shows it is working.',
      invoke: {
        id: 'bindStaff',
        src: 'bindStaff',
        input: ({ context }) => ({ username: trimInput(context.username), password: trimInput(context.password) }),
        onDone: [
          {
            guard: { type: 'accepted', params: ({ event }) => ({ envelope: event.output }) },
            target: 'done',
            actions: { type: 'handOver', params: ({ event }) => ({ envelope: event.output }) },
          },
          { guard: { type: 'noOpenId', params: ({ event }) => ({ envelope: event.output }) }, target: 'editing.noOpenId' },
          { target: 'editing.refused', actions: { type: 'keepRefusal', params: ({ event }) => ({ code: event.output.code }) } },
        ],
        onError: 'editing.unreachable',
      },
    },
    done: { description: 'Bound: the staff member is logged in as staff and goes to the staff console.', type: 'final' },
  },
});
