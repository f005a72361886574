import type { BrowserContext } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { baseUrl, gotoHydrated, useBrowser } from './support/browser';
import { logInPage, memberToken, myCards } from './support/checkout';
import { startServer } from './support/server';

describe('smoke: the built app is served and rendered on the server', () => {
  const browser = useBrowser();

  it('answers / with 200 and the Homepage content inside #root before any script runs', async () => {
    // a plain phone browser: the raw HTML, as it arrives, before any JavaScript
    const res = await fetch(`${baseUrl()}/`, {
      redirect: 'manual',
      headers: { 'user-agent': 'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const html = await res.text();
    const start = html.indexOf('<div id="root">');
    expect(start, 'the page has <div id="root">').toBeGreaterThan(-1);
    const afterRoot = html.slice(start + '<div id="root">'.length);
    const visibleText = afterRoot
      .replace(/<script[\s\S]*?<\/script>/g, '')
      .replace(/<style[\s\S]*?<\/style>/g, '')
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    expect(afterRoot.startsWith('<!--app-html-->'), 'the server filled #root').toBe(false);
    expect(visibleText.length, 'the root carries visible text, not a blank shell').toBeGreaterThan(20);
  });

  it('opens / in the messaging app browser on a phone without console, page or hydration errors', async () => {
    const { page } = await browser.newPage();
    const res = await gotoHydrated(page, '/');
    expect(res?.ok()).toBe(true);
    await expect.poll(() => page.title()).not.toBe('');
    expect(await page.locator('#root').innerText()).not.toBe('');
  });

  it('on PGlite, as `npm start` runs (the other browser files may run on PostgreSQL): migrates, seeds and serves a member their cards', async () => {
    // no template and no DATABASE_URL: a fresh PGlite data dir, migrated and seeded by the server itself
    const server = await startServer();
    let opened: BrowserContext | undefined;
    try {
      expect(server.output()).toMatch(/13800000001/);
      const { page, context } = await browser.newPage({ baseURL: server.url });
      opened = context;
      await logInPage(page);
      await gotoHydrated(page, '/vipcard');
      const cards = await myCards(server.url, await memberToken(server.url));
      expect(cards.length).toBeGreaterThan(0);
      await expect.poll(() => page.locator('main').innerText()).toContain(cards[0]!.name);
    } finally {
      // the page closes before its server stops: a settled page goes on loading the screens behind
      // its links (decision 050), and a request to a stopped server is a console error
      await opened?.close();
      await server.stop();
    }
    // migrating and seeding a PGlite data dir takes a loaded 2-core machine up to a minute
  }, 180_000);
});
