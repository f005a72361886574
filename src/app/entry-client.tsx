import { setupI18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { StrictMode, useEffect } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, matchRoutes, RouterProvider, type RouteObject } from 'react-router-dom';
import Cookies from 'universal-cookie';
import { createApi } from '../api/index';
import { setBrowserApi } from './api-context';
import { serverAlignedClock, setBrowserClock } from './app-clock';
import { BOOT_GLOBAL, type BootData } from './boot-data';
import { AppProviders } from './providers';
import { routeObjects } from './routes';
import { loginPath } from './session/request-session';
import { reactExpiryEffects, SessionExpiryBridge } from './session/session-bridge';
import { createExpiryHandler } from './session/session-expiry';
import { silentLoginUrl } from './session/silent-login';
import './styles.css';

/** Resolves the lazy screens of the first URL before hydrating, so the first render matches the server's. */
async function resolveLazy(routes: RouteObject[]) {
  const matches = matchRoutes(routes, window.location) ?? [];
  await Promise.all(
    matches
      .filter((m) => m.route.lazy)
      .map(async (m) => {
        const mod = await (m.route.lazy as () => Promise<Partial<RouteObject>>)();
        Object.assign(m.route, { ...mod, lazy: undefined });
      }),
  );
}

function sessionStorageOrUndefined(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

/**
 * Marks <html data-hydrated> once the first render is hydrated and its effects ran: the moment the
 * page answers taps. Browser tests wait for it instead of for network silence.
 */
function HydrationMark() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return null;
}

async function start() {
  const cookies = new Cookies(undefined, { path: '/' });
  const here = () => window.location.pathname + window.location.search;

  // the silent open-id login: once per browser session, before anything renders
  const silent = silentLoginUrl({
    userAgent: navigator.userAgent,
    cookies: cookies.getAll({ doNotParse: true }) as Record<string, string>,
    storage: sessionStorageOrUndefined(),
    path: here(),
  });
  if (silent) {
    window.location.replace(silent);
    return;
  }

  // the provider's authorize URL ends in #wechat_redirect, which redirects carry along: drop it
  if (window.location.hash === '#wechat_redirect') window.history.replaceState(window.history.state, '', here());

  const boot = (window as unknown as Record<string, BootData>)[BOOT_GLOBAL]!;
  if (boot.now) setBrowserClock(serverAlignedClock(boot.now));
  const i18n = setupI18n();
  i18n.load(boot.locale, boot.messages);
  i18n.activate(boot.locale);

  const routes = routeObjects();
  const routerRef: { current?: ReturnType<typeof createBrowserRouter> } = {};
  // spec §7: toast, session.expired (which clears the token cookie), then /login/<from> (2 s later for HTTP 401)
  const onExpired = createExpiryHandler(() => {
    const fx = reactExpiryEffects();
    const r = routerRef.current;
    if (!fx || !r) return undefined;
    return { ...fx, here, navigate: (to: string) => void r.navigate(to) };
  }, loginPath);
  const api = createApi({ baseURL: '/api', getToken: () => cookies.get('token', { doNotParse: true }) || undefined, onExpired });
  setBrowserApi(api);

  await resolveLazy(routes);
  const router = createBrowserRouter(routes);
  routerRef.current = router;
  // the server found the token dead and rendered a visitor page (cookies already cleared): tell the member
  if (boot.expired) onExpired('http');

  hydrateRoot(
    document.getElementById('root')!,
    <StrictMode>
      <I18nProvider i18n={i18n}>
        <AppProviders api={api} cookies={cookies.getAll({ doNotParse: true }) as Record<string, string>}>
          <SessionExpiryBridge />
          <RouterProvider router={router} />
          <HydrationMark />
        </AppProviders>
      </I18nProvider>
    </StrictMode>,
    {
      onRecoverableError(error) {
        console.error('hydration', error);
      },
    },
  );
}

void start();
