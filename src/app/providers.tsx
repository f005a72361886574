import { App as KonstaApp } from 'konsta/react';
import type { ReactNode } from 'react';
import type { Api } from '../api/index';
import { provideSession, SessionContext } from './session/session-provider';
import { sessionInputFromCookies } from './session/session-cookies';
import { ConfirmProvider } from './ui/confirm';
import { ToastProvider } from './ui/toast';

/** Everything a screen may reach, the same on the server render and in the browser. */
export function AppProviders(props: { api: Api; cookies: Record<string, string | undefined>; children: ReactNode }) {
  return (
    <SessionContext.Provider logic={provideSession(props.api)} options={{ input: sessionInputFromCookies(props.cookies) }}>
      {/* Konsta's iOS theme for every screen, and for the toast and dialog that sit beside them */}
      <KonstaApp theme="ios" safeAreas className="min-h-screen">
        <ToastProvider>
          <ConfirmProvider>{props.children}</ConfirmProvider>
        </ToastProvider>
      </KonstaApp>
    </SessionContext.Provider>
  );
}
