import { KonstaProvider } from 'konsta/react';
import type { ReactNode } from 'react';
import type { Api } from '../api/index';
import { provideSession, SessionContext } from './session/session-provider';
import { sessionInputFromCookies } from './session/session-cookies';
import { SharedActorsProvider } from './shared-actors';
import { ConfirmProvider } from './ui/confirm';
import { ToastProvider } from './ui/toast';

/** Everything a screen may reach, the same on the server render and in the browser. */
export function AppProviders(props: { api: Api; cookies: Record<string, string | undefined>; children: ReactNode }) {
  return (
    <SessionContext.Provider logic={provideSession(props.api)} options={{ input: sessionInputFromCookies(props.cookies) }}>
      {/* Konsta's iOS theme for the toast and dialog too (the root layout draws the app's own box) */}
      <KonstaProvider theme="ios" dark>
        <ToastProvider>
          <ConfirmProvider>
            <SharedActorsProvider>{props.children}</SharedActorsProvider>
          </ConfirmProvider>
        </ToastProvider>
      </KonstaProvider>
    </SessionContext.Provider>
  );
}
