import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { baseUrl, MOBILE_CHROME_UA, useBrowser, waitHydrated } from './support/browser';

// A phone on a bad network: what the member meets when a download the app needs is lost. Each test
// is a phone's own browser, outside the messaging app, so no open-id detour adds page loads.

describe('a page whose start fails on a bad network tries once more (src/app/start-retry.ts)', { timeout: 60_000 }, () => {
  const browser = useBrowser();

  /** Opens the club list with the catalog file failing while `failing(documents)` says so; counts the page's document loads. */
  async function open(failing: (documents: number) => boolean): Promise<{ page: Page; documents: () => number }> {
    const tracked = await browser.newPage({ userAgent: MOBILE_CHROME_UA });
    // the failed start says so in the console (the first try, or both)
    tracked.allowError(/^console\.error at .*: start/);
    tracked.allowError(/net::ERR_FAILED/);
    const { page } = tracked;
    let documents = 0;
    page.on('request', (r) => {
      if (r.isNavigationRequest() && r.frame() === page.mainFrame()) documents += 1;
    });
    await page.route('**/i18n/*.json', (route) => (failing(documents) ? route.abort('failed') : route.continue()));
    await page.goto(`${baseUrl()}/club`);
    return { page, documents: () => documents };
  }

  it('the catalog lost twice on the first load: the page reloads once and starts', async () => {
    const { page, documents } = await open((docs) => docs < 2);
    await page.locator('html[data-hydrated]').waitFor({ timeout: 20_000 });
    expect(documents()).toBe(2);
    // started: the memory of the retry is gone, so a later failure may retry again
    expect(await page.evaluate(() => sessionStorage.getItem('start-retried'))).toBeNull();
  });

  it('the catalog lost on the retry too: the page stays as the server rendered it, with no reload loop', async () => {
    const { page, documents } = await open(() => true);
    await expect.poll(documents, { timeout: 15_000 }).toBe(2);
    await expect.poll(() => page.evaluate(() => sessionStorage.getItem('start-retried')), { timeout: 10_000 }).toBe('/club');
    await page.waitForTimeout(1500);
    expect(documents(), 'one reload, not more').toBe(2);
    expect(await page.locator('html[data-hydrated]').count()).toBe(0);
    // the server's page is still there to read
    expect((await page.locator('main').innerText()).length).toBeGreaterThan(0);
  });
});

describe('a screen whose code is lost on the way offers to try again (src/app/layout/route-error.tsx)', { timeout: 60_000 }, () => {
  const browser = useBrowser();

  it("the club list's code lost on a tap: the page says so with Retry, which loads it afresh once the network is back", async () => {
    const tracked = await browser.newPage({ userAgent: MOBILE_CHROME_UA });
    // the lost download, and the import that failed with it (the screens loaded ahead try it too)
    tracked.allowError(/net::ERR_FAILED|Failed to fetch dynamically imported module|error loading dynamically imported module/);
    const { page } = tracked;
    let lost = true;
    await page.route('**/assets/club-list-screen-*.js', (route) => (lost ? route.abort('failed') : route.continue()));
    await page.goto(`${baseUrl()}/`);
    await waitHydrated(page);
    await page.locator('main a[href="/club"]').first().click();
    const retry = page.locator('[data-action="retry-page"]');
    await retry.waitFor();
    expect(await page.locator('body').innerText()).toContain('页面加载失败');
    expect(new URL(page.url()).pathname).toBe('/club');
    // a browser keeps a failed module import failed for the page's life: only a new page gets it
    lost = false;
    await Promise.all([page.waitForEvent('load'), retry.click()]);
    await waitHydrated(page);
    await page.locator('a[href^="/club/detail?id="]').first().waitFor();
    expect(await retry.count()).toBe(0);
  });
});
