import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatYuan } from '../../src/domain/money';
import { shanghaiTomorrow } from './support/booking';
import { gotoHydrated, startOwnServer, useBrowser, waitHydrated } from './support/browser';
import { buyable, memberToken, MEMBER, myCards, reviewAndAgree } from './support/checkout';
import type { RunningServer } from './support/server';
import { waitForSmsCode } from './support/sms';

/**
 * The member's daily loop, walked as a member lives it, in Chinese and then in English on
 * the same phone: log in (by SMS code), search for yoga, book a class from the schedule, buy a card
 * with the balance, look at the card, switch language, and the same again. Each step through the
 * screens, checked on the screen and against what the server then holds.
 */
const CJK = /[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]/;

let server: RunningServer;
let token: string;
beforeAll(async () => {
  // a fresh seed: this file books and buys
  server = await startOwnServer();
  token = await memberToken(server.url);
});
afterAll(async () => {
  await server?.stop();
});

/** Search from the Homepage: the classes found are yoga classes. */
async function search(page: Page, words: string) {
  await gotoHydrated(page, '/');
  await page.fill('form[role=search] input[name=keywords]', words);
  await page.press('form[role=search] input[name=keywords]', 'Enter');
  await page.waitForURL((u) => u.searchParams.get('keywords') === words);
  await waitHydrated(page);
  await expect.poll(() => page.locator('[data-search-class]').count(), { timeout: 10_000 }).toBeGreaterThan(0);
}

/** Book tomorrow's first class the member can book, through detail, confirm and the dialog. */
async function book(page: Page, confirmName: RegExp): Promise<number> {
  await gotoHydrated(page, `/takecourse/bookcourse?date=${shanghaiTomorrow()}`);
  // not one that clashes with a booking of the member's (the schedule marks those)
  const row = page.locator('[data-class]:has([data-class-state=bookable]):not(:has([data-clash]))').first();
  await row.waitFor();
  const classId = Number(await row.getAttribute('data-class'));
  await row.click();
  await page.waitForURL((u) => u.pathname === '/takecourse/bookcourse/bookcoursedetail');
  await page.locator('[data-action=book]').click();
  await page.waitForURL((u) => u.pathname === '/takecourse/bookcourse/bookcourseconfirm');
  await page.locator('[data-card-choice]').waitFor();
  // the member notice is ticked once; a member who agreed before finds it ticked
  if (!(await page.locator('input[name=agreeNotice]').first().isChecked()))
    await page.locator('label:has([name=agreeNotice])').first().click();
  await page.locator('[data-action=submit-booking]').click();
  await page.getByRole('button', { name: confirmName }).last().click();
  await page.locator('[data-booking-result=booked]').waitFor();
  return classId;
}

/** Buy a card from the card shop with the balance; then its page. */
async function buyAndLook(page: Page): Promise<void> {
  const before = (await myCards(server.url, token)).length;
  const card = await buyable(server.url, token, 'card', (g) => (g.memberPriceCents ?? g.listPriceCents) <= 100_000);
  await gotoHydrated(page, `/agreement/payagreement?id=${card.id}`);
  await page.locator('form[data-checkout-reviewing]').waitFor();
  await page.locator('[data-balance-toggle]').click();
  await expect.poll(() => page.locator('[data-amount-to-pay]').innerText()).toBe(formatYuan(0));
  await reviewAndAgree(page);
  await page.locator('[data-action="pay"]').click();
  await page.waitForURL((u) => u.pathname === '/payf');
  await page.locator('[data-payment-result="paid"]').waitFor();
  const cards = await myCards(server.url, token);
  expect(cards.length).toBe(before + 1);
  const mine = cards.find((c) => c.name === card.name)!;
  await gotoHydrated(page, `/mine/carddetail?id=${mine.id}`);
  // the card's name as the server gives it in the page's language
  const detail = await page
    .context()
    .request.get(`/api/customers/cards/detail?id=${mine.id}`, { headers: { 'Authorization-token': token } });
  const name = ((await detail.json()) as { data: { name: string } }).data.name;
  await expect.poll(() => page.locator('[data-card-header]').innerText()).toContain(name);
}

describe("the member's daily loop, in Chinese and in English", { timeout: 240_000 }, () => {
  const browser = useBrowser();

  it('log in by code, search, book, buy with the balance, look at the card; switch to English; again', async () => {
    const { page } = await browser.newPage({ baseURL: server.url });
    await gotoHydrated(page, '/login');
    await page.fill('input[name=phone]', MEMBER.phone);
    await page.locator('[data-testid=send-code]').click();
    await page.fill('input[name=code]', await waitForSmsCode(server.url, MEMBER.phone));
    await page.locator('label:has(input[name=agreement])').first().click();
    await page.locator('[data-testid=login-submit]').click();
    await page.waitForURL(`${server.url}/`);

    await search(page, '瑜伽');
    const first = await book(page, /确定/);
    await buyAndLook(page);

    await gotoHydrated(page, '/mine');
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'English' }).click()]);
    await waitHydrated(page);
    expect((await page.context().cookies()).find((c) => c.name === 'lang')?.value).toBe('en');

    await search(page, 'yoga');
    const second = await book(page, /^OK$/);
    expect(second).not.toBe(first);
    await buyAndLook(page);
    // the card page in English: no Chinese outside the card's own (seeded) names
    const text = await page.locator('[data-card-actions], [data-action]').allInnerTexts();
    expect(text.join(' '), 'the card page speaks English').not.toMatch(CJK);

    const booked = await fetch(`${server.url}/api/customers/classes/mine?scope=upcoming&pagesize=50`, {
      headers: { 'Authorization-token': token },
    });
    const ids = ((await booked.json()) as { data: { list: Array<{ class: { id: number } }> } }).data.list.map((b) => b.class.id);
    expect(ids).toEqual(expect.arrayContaining([first, second]));
  });
});
