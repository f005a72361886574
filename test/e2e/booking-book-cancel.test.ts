import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shanghaiDate } from '../../src/domain/time';
import { demoAccounts } from '../../src/server/db/seed/people';
import { expectBadge, loginInPage, shanghaiTomorrow } from './support/booking';
import { gotoHydrated, holdRequests, startOwnServer, useBrowser } from './support/browser';
import type { RunningServer } from './support/server';

const member1 = demoAccounts.find((a) => a.phone === '13800000001')!;

describe('a member filters, books, sees the badge go to 1, cancels', () => {
  const browser = useBrowser();
  let server: RunningServer;
  beforeAll(async () => {
    server = await startOwnServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('member 1 filters the schedule, books a class through detail and confirm, then cancels it from my bookings', async () => {
    const { page } = await browser.newPage({ baseURL: server.url });
    await loginInPage(page, server.url, member1.phone, member1.password, '/takecourse/takelistm?scope=upcoming');
    await expectBadge(page, '');
    await gotoHydrated(page, `${server.url}/takecourse/bookcourse/bookcoursefilter`);

    // the filter: tomorrow (inside a level-1 window), the flagship, regular classes' style left open
    const tomorrow = shanghaiTomorrow();
    await page.locator(`label:has(input[name=date][value="${tomorrow}"])`).click();
    await page.locator('label:has(input[name=clubId])').nth(1).click();
    await page.locator('[data-filter-submit]').click();
    await page.waitForURL(
      (u) => u.pathname === '/takecourse/bookcourse' && u.searchParams.get('date') === tomorrow && u.searchParams.has('clubId'),
    );
    // empty conditions are not kept in the URL
    expect(new URL(page.url()).search).not.toMatch(/=(&|$)/);

    // the strip says which days a level-1 member may book: today and tomorrow
    await expect
      .poll(() => page.locator('[data-booking-window]').getAttribute('data-booking-window'))
      .toBe(`${shanghaiDate(new Date())},${tomorrow}`);

    // the first class member 1 can book
    const row = page.locator('[data-class]:has([data-class-state=bookable])').first();
    await row.waitFor();
    const classId = await row.getAttribute('data-class');
    await row.click();
    await page.waitForURL((u) => u.pathname === '/takecourse/bookcourse/bookcoursedetail' && u.searchParams.get('id') === classId);
    await page.locator('[data-action=book]').click();
    await page.waitForURL((u) => u.pathname === '/takecourse/bookcourse/bookcourseconfirm');

    // submitting without a card and the notice is refused by the book-class machine
    await page.locator('[data-card-choice]').waitFor();
    await page.locator('[data-action=submit-booking]').click();
    await expect.poll(() => page.locator('[data-book-feedback]').innerText()).not.toBe('');
    await page.locator('[data-card][data-usable=true]').first().click();
    await page.locator('label:has([name=agreeNotice]), label:has-text("我已阅读并同意")').first().click();
    await page.locator('[data-action=submit-booking]').click();
    await page.getByRole('button', { name: '确定' }).last().click();
    await page.locator('[data-booking-result=booked]').waitFor();
    await page.locator('[data-booking-result] a[href="/takecourse/takelistm"]').click();
    await page.waitForURL((u) => u.pathname === '/takecourse/takelistm');
    await expectBadge(page, '1');

    // my bookings: the class is there, booked; cancelling asks first, then the badge goes away
    await gotoHydrated(page, `${server.url}/takecourse/takelistm`);
    const mine = page.locator('[data-booking-state=booked]').first();
    await mine.waitFor();
    await expectBadge(page, '1');
    await mine.locator('[data-action=cancel-booking]').click();
    await page.getByRole('button', { name: '确定' }).last().click();
    await expectBadge(page, '');
    await expect.poll(() => page.locator('[data-booking-state=booked]').count()).toBe(0);

    // the calendar (/takecourse) renders for the member with no booked dot left on tomorrow
    await gotoHydrated(page, `${server.url}/takecourse?month=${tomorrow.slice(0, 7)}&day=${tomorrow}`);
    await page.locator(`[data-date="${tomorrow}"]`).waitFor();
    expect(await page.locator(`[data-date="${tomorrow}"]`).getAttribute('data-mark')).not.toBe('booked');
  });

  it('a class beyond the level-1 window says when it opens instead of offering to book (decision 014)', async () => {
    const { page } = await browser.newPage({ baseURL: server.url });
    await loginInPage(page, server.url, member1.phone, member1.password, '/takecourse/bookcourse');
    const later = shanghaiDate(new Date(Date.now() + 3 * 86_400_000));
    await gotoHydrated(page, `${server.url}/takecourse/bookcourse?date=${later}`);
    expect(await page.locator(`[data-day="${later}"]`).getAttribute('data-bookable')).toBe('false');
    const row = page.locator('[data-class]:has([data-class-state=not-open])').first();
    await row.waitFor();
    await row.click();
    await page.waitForURL((u) => u.pathname === '/takecourse/bookcourse/bookcoursedetail');
    await page.locator('[data-action=not-open]').waitFor();
    expect(await page.locator('[data-opens-on]').getAttribute('data-opens-on')).toBe(shanghaiDate(new Date(Date.now() + 2 * 86_400_000)));
    expect(await page.locator('[data-action=book], [data-action=queue]').count()).toBe(0);
  });

  it('on a slow network the day tapped shows as chosen at once, its list a skeleton until its classes arrive', async () => {
    const { page } = await browser.newPage({ baseURL: server.url });
    await gotoHydrated(page, `${server.url}/takecourse/bookcourse`);
    const today = shanghaiDate(new Date());
    const tomorrow = shanghaiTomorrow();
    const day = await holdRequests(page, `**/api/customers/classes/schedule?*date=${tomorrow}*`);
    await page.locator(`[data-day="${tomorrow}"]`).click();
    // the day tapped is chosen at once, its list a skeleton until the answer comes
    await expect.poll(() => page.locator(`[data-day="${tomorrow}"]`).getAttribute('aria-current')).toBe('date');
    expect(await page.locator(`[data-schedule-skeleton="${tomorrow}"]`).getAttribute('aria-busy')).toBe('true');
    expect(await page.locator(`[data-schedule="${today}"]`).isVisible(), 'the day left is out of sight').toBe(false);
    day.release();
    await page.locator(`[data-schedule="${tomorrow}"]`).waitFor();
    expect(await page.locator(`[data-schedule="${tomorrow}"]`).getAttribute('aria-busy')).toBeNull();
  });

  it('the filter opened from the yoga schedule returns to it', async () => {
    const { page } = await browser.newPage({ baseURL: server.url });
    await gotoHydrated(page, `${server.url}/takecourse/bookcourse_yoga`);
    await page.locator('[data-filter-link]').click();
    await page.waitForURL((u) => u.pathname === '/takecourse/bookcourse/bookcoursefilter');
    await page.locator('label:has(input[name=courseAt][value=evening])').click();
    await page.locator('[data-filter-submit]').click();
    await page.waitForURL((u) => u.pathname === '/takecourse/bookcourse_yoga' && u.searchParams.get('courseAt') === 'evening');
  });
});
