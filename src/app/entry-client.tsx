import { setupI18n, type Messages } from '@lingui/core';
import { startTransition, useEffect } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router-dom';
import { AppRoot, resolveLazy, startBrowserApi } from './app-root';
import { serverAlignedClock, setBrowserClock } from './app-clock';
import { BOOT_GLOBAL, STYLESHEET_ID, type BootData } from '../domain/boot-data';
import { adoptZoneSpans } from '../domain/time';
import { routeObjects } from './routes';
import { warmLinkedScreens } from './layout/warm-linked-screens';
import { safeStorage } from './safe-storage';
import { retryFailedStart, startSucceeded } from './start-retry';
import './styles.css';

/**
 * Marks <html data-hydrated> once the first render is hydrated and its effects ran: the moment the
 * page answers taps. Browser tests wait for it instead of for network silence.
 */
function HydrationMark() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
    startSucceeded(safeStorage('sessionStorage'));
  }, []);
  return null;
}

/** The language's catalog (its download began beside this module's, src/server/render.ts); one retry on a bad network. */
async function fetchMessages(url: string): Promise<Messages> {
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await fetch(url);
      if (res.ok) return (await res.json()) as Messages;
      if (attempt >= 2) throw new Error(`catalog ${url}: ${res.status}`);
    } catch (err) {
      if (attempt >= 2) throw err;
    }
  }
}

/**
 * The whole stylesheet, which the server adds after the first paint (its page inlined only the rules
 * its HTML uses): what the app renders after hydrating must find its rules.
 */
function stylesheetLoaded(): Promise<void> {
  const link = document.getElementById(STYLESHEET_ID) as HTMLLinkElement | null;
  if (!link || link.sheet) return Promise.resolve();
  return new Promise((done) => {
    link.addEventListener('load', () => done());
    link.addEventListener('error', () => done());
  });
}

async function start() {
  const here = () => window.location.pathname + window.location.search;

  // the silent open-id login is the server's (src/server/http/silent-login.ts): a first visit comes
  // here once, after the authorization
  // the provider's authorize URL ends in #wechat_redirect, which redirects carry along: drop it
  if (window.location.hash === '#wechat_redirect') window.history.replaceState(window.history.state, '', here());

  const boot = (window as unknown as Record<string, BootData>)[BOOT_GLOBAL]!;
  if (boot.now) setBrowserClock(serverAlignedClock(boot.now));
  // the server's answer for Shanghai's offsets: hydrating loads no time-zone data (decision 052)
  if (boot.zone) adoptZoneSpans(boot.zone);
  const routes = routeObjects();
  const { api, onExpired, routerRef } = startBrowserApi({ baseURL: '/api', here });

  const [messages] = await Promise.all([fetchMessages(boot.messages), resolveLazy(routes, window.location), stylesheetLoaded()]);
  const i18n = setupI18n();
  i18n.load(boot.locale, messages);
  i18n.activate(boot.locale);
  const router = createBrowserRouter(routes);
  routerRef.current = router;
  // the server found the token dead and rendered a visitor page (cookies already cleared): tell the member
  if (boot.expired) onExpired('http');

  warmLinkedScreens(router, routes);

  // hydration in a transition is cut into slices that yield to the browser between them (a tap or
  // a paint gets through), where a plain hydrateRoot holds the main thread for the whole page:
  // 80-320 ms of a phone's main thread (CPU 4x slower) on the Homepage
  startTransition(() => {
    hydrateRoot(
      document.getElementById('root')!,
      <AppRoot i18n={i18n} api={api} router={router}>
        <HydrationMark />
      </AppRoot>,
      {
        onRecoverableError(error) {
          console.error('hydration', error);
        },
      },
    );
  });
}

start().catch((err: unknown) => {
  console.error('start', err);
  retryFailedStart(safeStorage('sessionStorage'), window.location.pathname + window.location.search, () => window.location.reload());
});
