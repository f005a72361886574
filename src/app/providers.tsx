import type { ReactNode } from 'react';
import type { Api } from '../api/index';
import { provideSession, SessionContext } from './session/session-provider';
import { sessionInputFromCookies } from './session/session-cookies';

/** Everything a screen may reach, the same on the server render and in the browser. */
export function AppProviders(props: { api: Api; cookies: Record<string, string | undefined>; children: ReactNode }) {
  return (
    <SessionContext.Provider logic={provideSession(props.api)} options={{ input: sessionInputFromCookies(props.cookies) }}>
      {props.children}
    </SessionContext.Provider>
  );
}
