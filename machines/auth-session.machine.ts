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
 * A token alone restores a member (DESIGN.md §5). Logout asks the server to revoke the token; the
 * member becomes a visitor whatever it answers. Expiry (spec §7: a 401) drops the session at once.
 * Effects are provided: actors fetchBookedCount and logout, action forgetSession (clear the app's
 * cookie copies).
 */
export const authSessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as SessionInput,
  },
  actors: {
    fetchBookedCount: fromPromise<number, { token: string }>(async () => 0),
    logout: fromPromise<void, { token: string }>(async () => {}),
  },
  actions: {
    keepLogin: assign(({ event }) => {
      if (event.type !== 'session.login') return {};
      return { token: event.token, user: event.user, bookedNum: 0 };
    }),
    dropLogin: assign({ token: undefined, user: undefined, bookedNum: 0 }),
    keepBookedCount: assign({ bookedNum: (_, params: { count: number }) => params.count }),
    /** provided by the app: clears the cookies it can (the server clears the rest on logout) */
    forgetSession: () => {},
  },
  guards: {
    hasToken: ({ context }) => !!context.token,
  },
}).createMachine({
  id: 'authSession',
  context: ({ input }) => ({ token: input.token, user: input.user, bookedNum: 0 }),
  initial: 'restoring',
  states: {
    restoring: {
      description: 'Only passed through at start: a saved login makes the visitor a member, none leaves them a visitor.',
      always: [{ guard: 'hasToken', target: 'member' }, { target: 'visitor' }],
    },
    visitor: {
      description: 'Not logged in: the public pages show; booking, my bookings and my account send the visitor to log in first.',
      on: {
        'session.login': { target: 'member', actions: 'keepLogin' },
      },
    },
    member: {
      description:
        'Logged in: the account pages show the member, who can book, see their bookings and log out. A 401 from the server (the session ended elsewhere) makes them a visitor again.',
      initial: 'refreshing',
      states: {
        idle: {
          description: 'The number of classes the member has booked is shown; a booking made or cancelled fetches it again.',
          on: { 'booked.refresh': 'refreshing' },
        },
        refreshing: {
          description: 'The number of classes booked is being fetched; the last number stays on screen meanwhile.',
          invoke: {
            id: 'fetchBookedCount',
            src: 'fetchBookedCount',
            input: ({ context }) => ({ token: context.token! }),
            onDone: { target: 'idle', actions: { type: 'keepBookedCount', params: ({ event }) => ({ count: event.output }) } },
            onError: 'idle',
          },
          on: { 'booked.refresh': { target: 'refreshing', reenter: true } },
        },
      },
      // no session.login here: the login screen sends a member home before they could log in again
      on: {
        'session.logout': 'loggingOut',
        'session.expired': { target: 'visitor', actions: ['dropLogin', 'forgetSession'] },
      },
    },
    loggingOut: {
      description:
        'The member tapped log out: the server is told to end the session, and whatever it answers they are a visitor afterwards.',
      invoke: {
        id: 'logout',
        src: 'logout',
        input: ({ context }) => ({ token: context.token! }),
        onDone: { target: 'visitor', actions: ['dropLogin', 'forgetSession'] },
        onError: { target: 'visitor', actions: ['dropLogin', 'forgetSession'] },
      },
    },
  },
});
