import { assign, fromPromise, setup } from 'xstate';

/** The member shown by the app (spec §3 User), restored from cookies. */
export interface SessionUser {
  customerId: number;
  username: string;
  userLevel: string;
  wxAvatar?: string;
  wxNicName?: string;
}

export interface SessionInput {
  token?: string;
  user?: SessionUser;
}

export interface SessionContext {
  token?: string;
  user?: SessionUser;
  bookedNum: number;
}

export type SessionEvent =
  | { type: 'session.login'; token: string; user: SessionUser }
  | { type: 'session.logout' }
  | { type: 'session.expired' }
  | { type: 'booked.refresh' };

/**
 * The session: who is logged in and their booked-class count (spec §2 footer badge).
 * Effects are provided actors: fetchBookedCount, logout.
 */
export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as SessionInput,
  },
  actors: {
    fetchBookedCount: fromPromise<number, { token: string }>(async () => 0),
    logout: fromPromise<void, { token: string }>(async () => {}),
  },
  guards: {
    hasToken: ({ context }) => !!context.token,
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({ token: input.token, user: input.user, bookedNum: 0 }),
  initial: 'restoring',
  states: {
    restoring: {
      always: [{ guard: 'hasToken', target: 'member' }, { target: 'visitor' }],
    },
    visitor: {
      on: {
        'session.login': {
          target: 'member',
          actions: assign(({ event }) => ({ token: event.token, user: event.user, bookedNum: 0 })),
        },
      },
    },
    member: {
      initial: 'refreshing',
      states: {
        idle: {
          on: { 'booked.refresh': 'refreshing' },
        },
        refreshing: {
          invoke: {
            src: 'fetchBookedCount',
            input: ({ context }) => ({ token: context.token! }),
            onDone: { target: 'idle', actions: assign({ bookedNum: ({ event }) => event.output }) },
            onError: 'idle',
          },
          on: { 'booked.refresh': { target: 'refreshing', reenter: true } },
        },
      },
      on: {
        'session.login': {
          target: '.refreshing',
          actions: assign(({ event }) => ({ token: event.token, user: event.user, bookedNum: 0 })),
        },
        'session.logout': 'loggingOut',
        'session.expired': { target: 'visitor', actions: assign({ token: undefined, user: undefined, bookedNum: 0 }) },
      },
    },
    loggingOut: {
      invoke: {
        src: 'logout',
        input: ({ context }) => ({ token: context.token! }),
        onDone: { target: 'visitor', actions: assign({ token: undefined, user: undefined, bookedNum: 0 }) },
        onError: { target: 'visitor', actions: assign({ token: undefined, user: undefined, bookedNum: 0 }) },
      },
    },
  },
});
