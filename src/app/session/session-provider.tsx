import { createActorContext } from '@xstate/react';
import { fromPromise } from 'xstate';
import { authSessionMachine } from '../../../machines/auth-session.machine';
import type { Api } from '../../api/index';
import { forgetSessionCookies } from './session-cookies';

/** The session actor for the whole app; screens select from it and send events. */
export const SessionContext = createActorContext(authSessionMachine);

/**
 * The session machine with the real API as its actors. `forget` clears the app's cookie copies
 * (default: the browser's session cookies; nothing on the server).
 */
export function provideSession(api: Pick<Api, 'auth'>, opts: { forget?: () => void } = {}) {
  const forget = opts.forget ?? forgetSessionCookies;
  return authSessionMachine.provide({
    actors: {
      fetchBookedCount: fromPromise(async () => {
        const r = await api.auth.bookedCount();
        return r.code === 200 ? r.data : 0;
      }),
      logout: fromPromise(async () => {
        await api.auth.logout();
      }),
    },
    actions: {
      forgetSession: () => forget(),
    },
  });
}

/** The footer badge: booked classes (spec §2). */
export function useBookedCount(): number {
  return SessionContext.useSelector((s) => s.context.bookedNum);
}

/** Whether a member is logged in. */
export function useIsMember(): boolean {
  return SessionContext.useSelector((s) => !s.matches('visitor'));
}
