import type { I18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { StrictMode, type ReactNode } from 'react';
import { matchRoutes, RouterProvider, type createBrowserRouter, type RouteObject } from 'react-router-dom';
import Cookies from 'universal-cookie';
import { createApi, type Api } from '../api/index';
import { setBrowserApi } from './api-context';
import { AppProviders } from './providers';
import { NEW_PASSWORD_PAGE, newPasswordFirstPath } from '../domain/initial-password';
import { loginPath } from './session/request-session';
import { reactExpiryEffects, SessionExpiryBridge } from './session/session-bridge';
import { SecurityCheckBridge, solveSecurityCheck } from './ui/security-check';
import { createExpiryHandler } from './session/session-expiry';

/** The app's router in the browser (a browser router; the screen tests use a memory router). */
export type AppRouter = ReturnType<typeof createBrowserRouter>;

/** Resolves the lazy screens of the first URL before the first render, so it matches the server's. */
export async function resolveLazy(routes: RouteObject[], location: string | { pathname: string }): Promise<void> {
  const matches = matchRoutes(routes, location) ?? [];
  await Promise.all(
    matches
      .filter((m) => m.route.lazy)
      .map(async (m) => {
        const mod = await (m.route.lazy as () => Promise<Partial<RouteObject>>)();
        Object.assign(m.route, { ...mod, lazy: undefined });
      }),
  );
}

/**
 * The client side's one API: the token from the cookie jar, and spec §7's expiry (toast,
 * session.expired, then /login/<from>) wired to the router once it exists. Sets it as the app's API.
 */
export function startBrowserApi(opts: { baseURL: string; fetch?: typeof globalThis.fetch; here: () => string }) {
  const cookies = new Cookies(undefined, { path: '/' });
  const routerRef: { current?: AppRouter } = {};
  const onExpired = createExpiryHandler(() => {
    const fx = reactExpiryEffects();
    const r = routerRef.current;
    if (!fx || !r) return undefined;
    return {
      ...fx,
      here: opts.here,
      navigate: (to: string) => void r.navigate(to),
      loggedIn: () => Boolean(cookies.get('token', { doNotParse: true })),
    };
  }, loginPath);
  const api = createApi({
    baseURL: opts.baseURL,
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
    getToken: () => cookies.get('token', { doNotParse: true }) || undefined,
    onExpired,
    // a session from an initial password reached past the change page (back button, a link): back to it;
    // the login screen sends there itself, with where the member was going
    onCaptcha: solveSecurityCheck,
    onPasswordChangeRequired: () => {
      const here = opts.here();
      if (!here.startsWith(NEW_PASSWORD_PAGE) && !here.startsWith('/login'))
        void routerRef.current?.navigate(newPasswordFirstPath(here), { replace: true });
    },
  });
  setBrowserApi(api);
  return { api, onExpired, routerRef };
}

/** Everything the client renders: translations, providers, the expiry bridge and the router. */
export function AppRoot(props: { i18n: I18n; api: Api; router: AppRouter; children?: ReactNode }) {
  const cookies = new Cookies(undefined, { path: '/' }).getAll({ doNotParse: true }) as Record<string, string>;
  return (
    <StrictMode>
      <I18nProvider i18n={props.i18n}>
        <AppProviders api={props.api} cookies={cookies}>
          <SessionExpiryBridge />
          <SecurityCheckBridge />
          <RouterProvider router={props.router} />
          {props.children}
        </AppProviders>
      </I18nProvider>
    </StrictMode>
  );
}
