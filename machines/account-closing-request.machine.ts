import { assign, fromPromise, setup } from 'xstate';
import type { MyAccountClosing } from '../src/api/account-closing';
import type { Envelope } from '../src/domain/envelope';
import { isOk } from '../src/domain/envelope';

export interface CloseAccountContext {
  /** my latest request as the server last said (null: never asked) */
  request: MyAccountClosing | null;
  /** the server's refusal of the last ask or withdraw */
  errorCode?: number;
}

export interface CloseAccountInput {
  request: MyAccountClosing | null;
}

export type CloseAccountEvent =
  | { type: 'closing.ask' }
  | { type: 'closing.confirm' }
  | { type: 'closing.cancel' }
  | { type: 'closing.withdraw' }
  | { type: 'network.retry' };

/**
 * Closing my account on /mine/closeAccount (PIPL; decision 057). The screen says what is erased and
 * what is kept. With no open request the member asks, confirms once more, and the request is sent:
 * the server may refuse it while they hold something of value (the reason said: a live card, an
 * order, a balance, a booking, an application); sent, it waits for staff and can be withdrawn. A
 * refused request shows staff's reason and may be asked for again. Effects are provided: the actors
 * `ask` and `withdraw` send the requests.
 * Tags: `end` a state where the request is over though the member may ask again (refused by staff):
 * the screen offers what to do next (decision 103).
 */
export const accountClosingRequestMachine = setup({
  types: {
    context: {} as CloseAccountContext,
    events: {} as CloseAccountEvent,
    input: {} as CloseAccountInput,
    tags: {} as 'end',
  },
  actors: {
    ask: fromPromise<Envelope<MyAccountClosing>>(async () => {
      throw new Error('ask is provided by the app');
    }),
    withdraw: fromPromise<Envelope<MyAccountClosing>>(async () => {
      throw new Error('withdraw is provided by the app');
    }),
  },
  actions: {
    keepRequest: assign({ request: (_, params: { request: MyAccountClosing }) => params.request, errorCode: undefined }),
    keepRefusal: assign({ errorCode: (_, params: { envelope: Envelope<unknown> }) => params.envelope.code }),
    clearRefusal: assign({ errorCode: undefined }),
  },
  guards: {
    pending: ({ context }) => context.request?.state === 'requested',
    refusedByStaff: ({ context }) => context.request?.state === 'refused',
    refused: (_, params: { envelope: Envelope<unknown> }) => !isOk(params.envelope),
  },
}).createMachine({
  id: 'accountClosingRequest',
  context: ({ input }) => ({ request: input.request }),
  initial: 'deciding',
  states: {
    deciding: {
      description: 'Where the member starts, from their latest request: waiting for staff, refused by staff, or none open.',
      always: [{ guard: 'pending', target: 'pending' }, { guard: 'refusedByStaff', target: 'refusedByStaff' }, { target: 'idle.clean' }],
    },
    idle: {
      description: 'No open request: what closing erases and what is kept, and the button to ask.',
      initial: 'clean',
      states: {
        clean: { description: 'Nothing said yet.' },
        blocked: { description: 'The server refused the request: what the member still holds is said (10030-10035); nothing was stored.' },
        withdrawn: { description: 'The request was just withdrawn: "withdrawn, your account stays as it is" is said.' },
      },
      on: { 'closing.ask': 'confirming' },
    },
    refusedByStaff: {
      tags: ['end'],
      description: 'Staff refused the last request: their reason is shown; the member may ask again.',
      on: { 'closing.ask': 'confirming' },
    },
    confirming: {
      description: 'Asked once more: "after staff confirm, you cannot log in and your data cannot be recovered"; confirm or cancel.',
      on: { 'closing.confirm': 'asking', 'closing.cancel': 'idle.clean' },
    },
    asking: {
      description: 'The request is being sent; the member waits.',
      invoke: {
        id: 'ask',
        src: 'ask',
        onDone: [
          {
            guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) },
            target: 'idle.blocked',
            actions: { type: 'keepRefusal', params: ({ event }) => ({ envelope: event.output }) },
          },
          { target: 'pending', actions: { type: 'keepRequest', params: ({ event }) => ({ request: event.output.data }) } },
        ],
        onError: 'askUnreachable',
      },
    },
    askUnreachable: {
      description: 'The request did not reach the server: "network unreachable" with a retry that sends the same request again.',
      on: { 'network.retry': 'asking' },
    },
    pending: {
      description: 'Waiting for staff: "under review", the date asked, and the button to withdraw it.',
      initial: 'waiting',
      states: {
        waiting: { description: 'Nothing more said.' },
        withdrawRefused: { description: 'The withdrawal was refused (staff decided meanwhile: 10036): the reason is said.' },
      },
      on: { 'closing.withdraw': { target: 'withdrawing', actions: 'clearRefusal' } },
    },
    withdrawing: {
      description: 'The withdrawal is being sent; the member waits.',
      invoke: {
        id: 'withdraw',
        src: 'withdraw',
        onDone: [
          {
            guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) },
            target: 'pending.withdrawRefused',
            actions: { type: 'keepRefusal', params: ({ event }) => ({ envelope: event.output }) },
          },
          { target: 'idle.withdrawn', actions: { type: 'keepRequest', params: ({ event }) => ({ request: event.output.data }) } },
        ],
        onError: 'withdrawUnreachable',
      },
    },
    withdrawUnreachable: {
      description: 'The withdrawal did not reach the server: "network unreachable" with a retry.',
      on: { 'network.retry': 'withdrawing' },
    },
  },
});
