import { type Browser, type BrowserContext, type BrowserContextOptions, type Page, type Response } from 'playwright-core';
import { afterEach, beforeAll, inject } from 'vitest';
import { launchChromium } from './chromium';
import { startServer, type RunningServer, type StartOptions } from './server';

/** The messaging app's in-app browser on an iPhone (the app detects "MicroMessenger"). */
export const WECHAT_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.50(0x1800323b) NetType/4G Language/zh_CN';

/** A phone's own browser, outside the messaging app: no open-id detour on a first visit. */
export const MOBILE_CHROME_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36';

/** A phone: 390x844 CSS px at 3x, touch, in the messaging app's browser, Chinese first. */
export const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 3,
  isMobile: true,
  hasTouch: true,
  userAgent: WECHAT_UA,
  locale: 'zh-CN',
};

/**
 * Holds the page's requests matching `pattern` (a Playwright route glob) until `release()`: a slow
 * network's answer, without a clock. `asked()` counts the requests held so far.
 */
export async function holdRequests(page: Page, pattern: string): Promise<{ release: () => void; asked: () => number }> {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let asked = 0;
  await page.route(pattern, async (route) => {
    asked += 1;
    await held;
    await route.continue();
  });
  return { release, asked: () => asked };
}

/** Counts the page's fetches in flight (window.__fetchesInFlight), from before any of its scripts run. */
export const COUNT_FETCHES = `(() => {
  let inFlight = 0;
  const fetch = window.fetch;
  window.fetch = function (...args) {
    inFlight += 1;
    return fetch.apply(this, args).finally(() => { inFlight -= 1; });
  };
  Object.defineProperty(window, '__fetchesInFlight', { get: () => inFlight });
})();`;

/** True once the app hydrated the page (entry-client's <html data-hydrated>) and no fetch is in flight. */
const settled = () =>
  document.documentElement?.dataset.hydrated === 'true' && (window as unknown as { __fetchesInFlight: number }).__fetchesInFlight === 0;

/**
 * Waits until the app has hydrated the current page and its requests are answered: the page a
 * member can tap. (Waiting for network silence instead costs 500 ms a page.) Follows redirects
 * made by script, such as the messaging app's silent login.
 */
export async function waitHydrated(page: Page): Promise<void> {
  await page.waitForFunction(settled, undefined, { polling: 50 });
}

/** page.goto, then waitHydrated: the response of the first document, as page.goto gives it. */
export async function gotoHydrated(page: Page, url: string): Promise<Response | null> {
  const res = await page.goto(url);
  await waitHydrated(page);
  return res;
}

/** page.reload, then waitHydrated. */
export async function reloadHydrated(page: Page): Promise<void> {
  await page.reload();
  await waitHydrated(page);
}

/** A page whose console errors, page errors and hydration errors fail the running test. */
export interface TrackedPage {
  page: Page;
  context: BrowserContext;
  /** what went wrong in the page so far (console errors, uncaught errors, hydration reports) */
  errors: string[];
  /** tolerate console errors matching this (e.g. the 400 of a wrong-password test), for this page only */
  allowError(pattern: RegExp): void;
}

/** This worker's Chromium (test files of a worker share its modules). */
let workerBrowser: Promise<Browser> | undefined;

/** This worker's slot (1..maxWorkers): its server and browser from the global setup. */
function workerSlot<T>(list: T[]): T {
  const slot = Math.max(1, Number(process.env.VITEST_POOL_ID ?? 1));
  return list[(slot - 1) % list.length]!;
}

/** The base URL of this worker's server, started by the browser tests' global setup. */
export function baseUrl(): string {
  return workerSlot(inject('baseUrls'));
}

/**
 * A server of the test file's own (fresh data, or other settings), started on a copy of the run's
 * migrated and seeded data dir (global setup): about 1 s instead of 6 s for migrating and seeding.
 */
export async function startOwnServer(opts: Omit<StartOptions, 'dataTemplate'> = {}): Promise<RunningServer> {
  const server = await startServer({ ...opts, dataTemplate: inject('dataTemplate') });
  ownServers.add(server.url);
  const stop = server.stop;
  return {
    ...server,
    stop: (...args: Parameters<typeof stop>) => {
      ownServers.delete(server.url);
      return stop(...args);
    },
  };
}

/**
 * The servers test files of this worker started for themselves and have not stopped. While one
 * runs, a page must say which server it talks to: a page left on the worker's shared server read
 * and changed data other files read (a coupon gift named a friend another file had renamed).
 */
const ownServers = new Set<string>();

/**
 * Connects to this worker's browser for the test file; each page is in a fresh context (its own
 * cookies and storage). After each test, any
 * console error, uncaught page error or hydration report in its pages fails it.
 */
export function useBrowser(): { newPage(options?: BrowserContextOptions): Promise<TrackedPage> } {
  let browser: Browser | undefined;
  let open: TrackedPage[] = [];

  beforeAll(async () => {
    // this worker's Chromium, launched by its first test file and kept for the next ones (the
    // worker's modules live on between files: isolate false); it closes when the worker exits
    browser = await (workerBrowser ??= launchChromium());
  });
  afterEach(async () => {
    const pages = open;
    open = [];
    const problems = pages.flatMap((p) => p.errors);
    await Promise.all(pages.map((p) => p.context.close().catch(() => {})));
    if (problems.length) throw new Error(`the page reported errors:\n  ${problems.join('\n  ')}`);
  });

  return {
    async newPage(options: BrowserContextOptions = {}) {
      if (!browser) throw new Error('useBrowser(): the browser is not launched yet (call newPage inside a test)');
      if (ownServers.size > 0 && options.baseURL === undefined)
        throw new Error(`this file started its own server (${[...ownServers].join(', ')}): pass its url as newPage({ baseURL })`);
      const context = await browser.newContext({ ...PHONE, baseURL: baseUrl(), ...options });
      await context.addInitScript(COUNT_FETCHES);
      const page = await context.newPage();
      const allowed: RegExp[] = [];
      const tracked: TrackedPage = { page, context, errors: [], allowError: (p) => void allowed.push(p) };
      const record = (what: string) => {
        if (!allowed.some((p) => p.test(what))) tracked.errors.push(what);
      };
      page.on('console', (msg) => {
        const text = msg.text();
        if (msg.type() === 'error') record(`console.error at ${page.url()}: ${text}`);
        else if (/^hydration/i.test(text)) record(`hydration at ${page.url()}: ${text}`);
      });
      page.on('pageerror', (err) => record(`uncaught at ${page.url()}: ${err.stack ?? err.message}`));
      open.push(tracked);
      return tracked;
    },
  };
}
