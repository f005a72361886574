import { setupI18n } from '@lingui/core';
import { act, configure, render, screen, within, type RenderResult } from '@testing-library/react';
import { userEvent, type UserEvent } from '@testing-library/user-event';
import { createMemoryRouter } from 'react-router-dom';
import { beforeEach } from 'vitest';
import { AppRoot, resolveLazy, startBrowserApi, type AppRouter } from '../../../src/app/app-root';
import { setBrowserClock } from '../../../src/app/app-clock';
import { routeObjects } from '../../../src/app/routes';
import { catalogFor, type Locale } from '../../../src/server/i18n';
import { startTestServer, type TestServer } from '../../server/support/harness';
import { CookieJar } from './cookie-jar';

// findBy* and waitFor wait for what the screen will show; their 1 s default is a deadline a loaded CI
// machine misses (a clean-clone run failed a reset-password path waiting 1 s for the code request's
// countdown). They check what appears, not how fast: 10 s is the safety net.
configure({ asyncUtilTimeout: 10_000 });

/** The origin the in-process API answers on (no port: requests go to app.request). */
const ORIGIN = 'http://app.test';

export interface OpenScreen extends RenderResult {
  router: AppRouter;
  user: UserEvent;
  /** where the app is now: path and search */
  path(): string;
  /** waits until the app is at this path (a navigation, a redirect after a loader) */
  waitForPath(path: string | RegExp, timeoutMs?: number): Promise<void>;
}

export interface ScreenHarness {
  server: TestServer;
  /** the member's cookies as the browser would hold them (HttpOnly ones included) */
  jar: CookieJar;
  /** logs in through the real API (POST /api/oauth/login), keeping the cookies the server sets */
  logIn(phone: string, password: string): Promise<void>;
  /** whether the open app's router is loading a route (its loaders' requests are in flight) */
  routeLoading(): boolean;
  /** renders the app at a URL: the real route table, loaders, screens, machines and server */
  open(url: string, opts?: { locale?: Locale; state?: unknown }): Promise<OpenScreen>;
  /**
   * Puts a hand between the app and the server (path tests hold a request until the path says how
   * it ends); `undefined` takes it away. `forward` sends the request on to the real server.
   */
  intercept(hand: RequestHand | undefined): void;
}

/** An API request the app sent, with its body read. */
export interface SentRequest {
  method: string;
  /** path and query, e.g. `/api/customers/password` */
  path: string;
  body: unknown;
  /** its Idempotency-Key header, if any (a retry reuses it, a new intent has a new one) */
  key?: string;
}

export type RequestHand = (req: SentRequest, forward: () => Promise<Response>) => Promise<Response>;

/**
 * Screen tests without a browser or a port (decision 015): the real app in jsdom, its API answered
 * by the real server in-process on PGlite (or PostgreSQL with TEST_DB=postgres) through
 * app.request. Drive it by role and label (`screen.getByRole`, `user.click`); assert what the
 * screen shows and what the server stored. Keep the browser suite for what needs a browser (layout,
 * real navigation, service worker, hydration).
 *
 * Call once per file at the top level (`// @vitest-environment jsdom`): it starts the server
 * (closed after the file) and clears the cookies before each test.
 */
export async function startScreenHarness(opts: Parameters<typeof startTestServer>[0] = {}): Promise<ScreenHarness> {
  if (!shared) return startOwnHarness(opts);
  // one file that loads many path tests' specs (the end-state test) starts one server per set of
  // options, not one per spec: a server is most of a screen test's start
  const key = JSON.stringify(opts);
  let started = shared.get(key);
  if (!started) shared.set(key, (started = startOwnHarness(opts)));
  return started;
}

let shared: Map<string, Promise<ScreenHarness>> | undefined;

/**
 * While `run` runs, harnesses started with the same options are one (see `startScreenHarness`);
 * after it, each start is its own again (the next file in this worker starts its own server).
 */
export async function withSharedScreenHarnesses<T>(run: () => Promise<T>): Promise<T> {
  shared = new Map();
  try {
    return await run();
  } finally {
    shared = undefined;
  }
}

async function startOwnHarness(opts: Parameters<typeof startTestServer>[0]): Promise<ScreenHarness> {
  // vitest's jsdom puts jsdom's own Uint8Array on the global, so a Node Buffer is no longer one and
  // PGlite writes bytea as text; the in-process server needs Node's (the browser app never sees it)
  globalThis.Uint8Array = Object.getPrototypeOf(Buffer.prototype).constructor as Uint8ArrayConstructor;
  const server = await startTestServer(opts);
  const jar = new CookieJar(() => document);
  beforeEach(() => jar.clear());
  // jsdom lays nothing out: the screens' scroll-to-top after a navigation has nothing to do
  window.scrollTo = () => {};

  let hand: RequestHand | undefined;
  let openRouter: AppRouter | undefined;
  const apiFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    const url = new URL(req.url);
    const text = req.method === 'GET' || req.method === 'HEAD' ? undefined : await req.text();
    const forward = async () => {
      const headers = new Headers(req.headers);
      const cookie = jar.header();
      if (cookie) headers.set('cookie', cookie);
      const res = await server.app.request(url.pathname + url.search, { method: req.method, headers, body: text });
      jar.store(res.headers.getSetCookie());
      return res;
    };
    if (!hand) return forward();
    return hand(
      { method: req.method, path: url.pathname + url.search, body: parseBody(text), key: req.headers.get('idempotency-key') ?? undefined },
      forward,
    );
  }) as typeof fetch;

  return {
    server,
    jar,
    intercept(h) {
      hand = h;
    },
    routeLoading() {
      return !openRouter || !openRouter.state.initialized || openRouter.state.navigation.state === 'loading';
    },
    async logIn(phone, password) {
      const res = await apiFetch(`${ORIGIN}/api/oauth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ loginType: 'password', username: phone, password }),
      });
      const body = (await res.json()) as { code: number; msg?: string };
      if (body.code !== 200) throw new Error(`log in ${phone}: ${body.code} ${body.msg ?? ''}`);
    },
    async open(url, o = {}) {
      const locale = o.locale ?? 'zh';
      jar.setClientCookie('lang', locale);
      const i18n = setupI18n();
      i18n.load(locale, catalogFor(locale));
      i18n.activate(locale);
      // the app's today is the server's injected clock, as in the browser (app-clock.ts)
      setBrowserClock(server.clock);

      openRouter = undefined;
      const { api, routerRef } = startBrowserApi({
        baseURL: `${ORIGIN}/api`,
        fetch: apiFetch,
        here: () => pathOf(routerRef.current) ?? url,
      });
      // as the browser entry does: the first URL's screens loaded and its loaders run before the first
      // render (the server rendered their data), then the app takes over
      const routes = routeObjects();
      await resolveLazy(routes, new URL(url, ORIGIN));
      const first = new URL(url, ORIGIN);
      // a location state, as a navigation from another screen would carry it
      const r = createMemoryRouter(routes, { initialEntries: [{ pathname: first.pathname, search: first.search, state: o.state }] });
      routerRef.current = r;
      openRouter = r;
      const here = () => pathOf(r)!;
      await waitForIdle(r);
      const rendered = render(<AppRoot i18n={i18n} api={api} router={r} />);
      await waitForIdle(r);
      return {
        ...rendered,
        router: r,
        // no pause between keystrokes: the screens react to each synchronously. No hover before a tap
        // (the over/enter/move events a mouse sends on its way to the target): the app is tapped on
        // a phone and reacts to no hover (only Konsta's tap highlight listens, to paint itself), and
        // those events were a fifteenth of the screens' CPU
        user: userEvent.setup({ delay: null, skipHover: true }),
        path: here,
        async waitForPath(want, timeoutMs = 5000) {
          const ok = () => (typeof want === 'string' ? here() === want : want.test(here()));
          const until = Date.now() + timeoutMs;
          while (!ok()) {
            if (Date.now() > until) throw new Error(`the app is at ${here()}, not ${String(want)}`);
            await act(() => new Promise((resolve) => setTimeout(resolve, 10)));
          }
          await waitForIdle(r);
        },
      };
    },
  };
}

function parseBody(text: string | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function pathOf(router: AppRouter | undefined): string | undefined {
  return router ? router.state.location.pathname + router.state.location.search : undefined;
}

/** Waits for the router's loaders and lazy screens to settle. */
async function waitForIdle(router: AppRouter): Promise<void> {
  const until = Date.now() + 10_000;
  const settled = () => router.state.initialized && router.state.navigation.state === 'idle';
  while (!settled()) {
    if (Date.now() > until) throw new Error(`the router did not settle at ${router.state.location.pathname}`);
    await act(() => new Promise((resolve) => setTimeout(resolve, 5)));
  }
  await act(() => Promise.resolve());
}

export { screen, within };
