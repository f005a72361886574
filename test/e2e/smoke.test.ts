import { describe, expect, it } from 'vitest';
import { baseUrl, gotoHydrated, useBrowser } from './support/browser';

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
});
