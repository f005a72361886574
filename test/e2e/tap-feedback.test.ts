import { describe, expect, it } from 'vitest';
import { demoAccounts } from '../../src/server/db/seed/people';
import { api, passwordToken, shanghaiTomorrow } from './support/booking';
import { baseUrl, holdRequests, useBrowser } from './support/browser';

const member1 = demoAccounts.find((a) => a.phone === '13800000001')!;

interface ScheduleItem {
  id: number;
  state: string;
  startsAt: string;
}

/**
 * Every tap shows its effect: a tap whose answer has to come over the network shows at
 * once that it was taken. Measured as the member meets it on a slow network, without a clock: the
 * network's answer is held, and the page must already show the tap's effect while it is held.
 * The booking's confirm (its dialog is a chunk of its own) showed nothing for 0.85 s on a slow
 * network: now its backdrop shows on the tap, and the dialog follows when the chunk arrives.
 */
describe('a tap shows its effect before the network answers', () => {
  const browser = useBrowser();

  it("booking: the confirm's backdrop shows on the tap while its dialog is still on its way; going back books nothing", async () => {
    const token = await passwordToken(baseUrl(), member1.phone, member1.password);
    const schedule = await api<ScheduleItem[]>(baseUrl(), `/customers/classes/schedule?date=${shanghaiTomorrow()}&type=regular`, { token });
    const cls = schedule.data.find((c) => c.state === 'bookable');
    expect(cls, 'a class member 1 can book tomorrow').toBeTruthy();

    const { page } = await browser.newPage();
    // the dialog's chunk is held until the test lets it go
    const chunk = await holdRequests(page, '**/assets/confirm-view-*.js');
    await page.goto(`${baseUrl()}/login`);
    const r = await page
      .context()
      .request.post('/api/oauth/login', { data: { username: member1.phone, password: member1.password, loginType: 'password' } });
    expect(r.status()).toBe(200);
    await page.goto(`${baseUrl()}/takecourse/bookcourse/bookcourseconfirm?id=${cls!.id}`);
    await page.locator('[data-card-choice]').waitFor();
    await page.locator('label:has([name=agreeNotice]), label:has-text("我已阅读并同意")').first().click();
    await page.locator('[data-action=submit-booking]').click();
    // the tap's effect, with the dialog's chunk still held
    await page.locator('[data-confirm-loading]').waitFor();
    expect(chunk.asked(), 'the chunk was asked for').toBeGreaterThan(0);
    expect(await page.getByRole('button', { name: '返回' }).count()).toBe(0);
    chunk.release();
    await page.getByRole('button', { name: '返回' }).last().click();
    await expect.poll(() => page.locator('[data-confirm-loading]').count()).toBe(0);
    const mine = await api<{ list: Array<{ class: { id: number } }> }>(baseUrl(), '/customers/classes/mine?scope=upcoming&pagesize=50', {
      token,
    });
    expect(mine.data.list.map((b) => b.class.id)).not.toContain(cls!.id);
  });

  it("a footer tab tapped is active at once, while the data of its page is still on its way (a member's Book tab)", async () => {
    const { page } = await browser.newPage();
    const r = await page.context().request.post(`${baseUrl()}/api/oauth/login`, {
      data: { username: member1.phone, password: member1.password, loginType: 'password' },
    });
    expect(r.status()).toBe(200);
    await page.goto(`${baseUrl()}/`);
    await page.locator('html[data-hydrated]').waitFor();
    const api = await holdRequests(page, '**/api/**');
    await page.locator('nav [data-tab="book"]').click();
    await expect.poll(() => page.locator('nav [data-tab][aria-current="page"]').getAttribute('data-tab')).toBe('book');
    // then its page loads (its data held): the tab stays active, the page has not changed yet
    await expect.poll(() => api.asked(), { message: "the Book tab's page is waiting for its data" }).toBeGreaterThan(0);
    expect(new URL(page.url()).pathname, 'still on the Homepage: the tab shows before the page changes').toBe('/');
    expect(await page.locator('nav [data-tab][aria-current="page"]').getAttribute('data-tab')).toBe('book');
    api.release();
    await page.waitForURL((u) => u.pathname !== '/');
    expect(await page.locator('nav [data-tab][aria-current="page"]').getAttribute('data-tab')).toBe('book');
  });

  it("once a page settles, the screens its links lead to are loaded ahead, so a tap does not wait for a screen's code", async () => {
    const { page } = await browser.newPage();
    const chunks: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') chunks.push(new URL(r.url()).pathname);
    });
    await page.goto(`${baseUrl()}/`);
    await page.locator('html[data-hydrated]').waitFor();
    // the footer's Mine tab and the Homepage's links: their screens arrive with no tap
    await expect.poll(() => chunks.some((c) => /\/mine-screen-[\w-]+\.js$/.test(c)), { timeout: 10_000 }).toBe(true);
    const before = chunks.length;
    await page.locator('nav [data-tab="mine"]').click();
    await page.waitForURL((u) => u.pathname === '/mine');
    expect(
      chunks.slice(before).filter((c) => /\/mine-screen-/.test(c)),
      'the tap fetched the screen again',
    ).toEqual([]);
  });

  it("a card on /vipcard tapped is marked as opening at once, before its page's data is asked for", async () => {
    const { page } = await browser.newPage();
    await page.goto(`${baseUrl()}/vipcard`);
    await page.locator('html[data-hydrated]').waitFor();
    const row = page.locator('[data-card-product]').first();
    await row.waitFor();
    // whether the row was ever marked busy: the mark lasts from the tap until the page's skeleton
    // replaces the list, a frame or more, so it is recorded rather than polled
    await page.evaluate(() => {
      const w = window as unknown as { __rowBusy: boolean };
      w.__rowBusy = false;
      new MutationObserver(() => {
        if (document.querySelector('[data-card-product][aria-busy="true"]')) w.__rowBusy = true;
      }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['aria-busy'] });
    });
    const api = await holdRequests(page, '**/api/**');
    await row.click();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { __rowBusy: boolean }).__rowBusy), {
        message: 'the tapped card was marked as opening',
      })
      .toBe(true);
    expect(new URL(page.url()).pathname, 'still on the list: the mark shows before the page changes').toBe('/vipcard');
    api.release();
    await page.waitForURL((u) => u.pathname === '/vipcard/vipcarddetail');
  });
});
