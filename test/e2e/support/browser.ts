import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, inject } from 'vitest';

/** Debian's chromium package (playwright's own browser download cannot work here: STACK-NOTES.md). */
export const CHROMIUM = process.env.CHROME_PATH || '/usr/bin/chromium';

/** Flags from STACK-NOTES.md: without the background-networking ones Chromium keeps dialling out. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The messaging app's in-app browser on an iPhone (the app detects "MicroMessenger"). */
export const WECHAT_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.50(0x1800323b) NetType/4G Language/zh_CN';

/** A phone: 390x844 CSS px at 3x, touch, in the messaging app's browser, Chinese first. */
export const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 3,
  isMobile: true,
  hasTouch: true,
  userAgent: WECHAT_UA,
  locale: 'zh-CN',
};

/** Launches headless Chromium with the project's flags; a missing binary gets a clear message. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium (sudo apt-get install -y chromium) or set CHROME_PATH`);
  }
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
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

/** The base URL of the server the browser tests' global setup started. */
export function baseUrl(): string {
  return inject('baseUrl');
}

/**
 * Registers one browser per test file and fresh-context pages per test. After each test, any
 * console error, uncaught page error or hydration report in its pages fails it.
 */
export function useBrowser(): { newPage(options?: BrowserContextOptions): Promise<TrackedPage> } {
  let browser: Browser | undefined;
  let open: TrackedPage[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
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
      const context = await browser.newContext({ ...PHONE, baseURL: baseUrl(), ...options });
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
