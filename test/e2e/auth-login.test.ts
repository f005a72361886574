import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { demoAccounts } from '../../src/server/db/seed/people';
import { baseUrl, gotoHydrated, useBrowser } from './support/browser';
import { waitForSmsCode } from './support/sms';

const member = demoAccounts.find((a) => a.role === 'member' && !a.banned)!;
const CJK = /[\u4e00-\u9fff]/;

async function fillPasswordLogin(page: Page, phone: string, password: string) {
  await page.getByRole('button', { name: /密码登录|Password/ }).click();
  await page.fill('input[name=phone]', phone);
  await page.fill('input[name=password]', password);
  await page.locator('label:has(input[name=agreement])').first().click();
  await page.locator('[data-testid=login-submit]').click();
}

/** A fresh phone number, so each run gets its own SMS limits and its own new member. */
function freshPhone(): string {
  return `139${String(Date.now()).slice(-8)}`;
}

describe('login, logout, protected routes (spec §2, §5, §7)', () => {
  const browser = useBrowser();

  it('a visitor logs in with a code from the dev SMS endpoint, sees themselves on Mine, and logs out', async () => {
    const { page } = await browser.newPage();
    const phone = freshPhone();
    await gotoHydrated(page, '/login');
    await page.fill('input[name=phone]', phone);
    await page.locator('[data-testid=send-code]').click();
    const code = await waitForSmsCode(baseUrl(), phone);
    await expect.poll(() => page.locator('[data-testid=send-code]').innerText()).toMatch(/\d+/);
    await page.fill('input[name=code]', code);
    await page.locator('label:has(input[name=agreement])').first().click();
    await page.locator('[data-testid=login-submit]').click();
    await page.waitForURL(`${baseUrl()}/`);
    await gotoHydrated(page, '/mine');
    await expect.poll(() => page.locator('#root').innerText()).toContain(phone);

    await page.getByRole('button', { name: '退出登录' }).click();
    await page
      .getByRole('button', { name: /确定|OK/ })
      .last()
      .click();
    await expect.poll(() => page.locator('#root').innerText()).toContain('登录 / 注册');
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'token')?.value ?? '').toBe('');
  });

  it('a visitor logs in with a password and goes back to the from path', async () => {
    const { page } = await browser.newPage();
    await gotoHydrated(page, `/login/${encodeURIComponent('/mine')}`);
    await fillPasswordLogin(page, member.phone, member.password);
    await page.waitForURL(`${baseUrl()}/mine`);
    await expect.poll(() => page.locator('[data-testid=member-name]').innerText()).toBe(member.name);
  });

  it('a wrong password shows the refusal in Chinese, and in English after switching language', async () => {
    const tracked = await browser.newPage();
    tracked.allowError(/status of 400/);
    const { page } = tracked;
    await gotoHydrated(page, '/login');
    await fillPasswordLogin(page, member.phone, 'wrong-password');
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.innerText()).toBe('手机号或密码错误');

    await gotoHydrated(page, '/mine');
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'English' }).click()]);
    expect((await page.context().cookies()).find((c) => c.name === 'lang')?.value).toBe('en');
    await gotoHydrated(page, '/login');
    await fillPasswordLogin(page, member.phone, 'wrong-password');
    await expect.poll(() => alert.innerText()).not.toBe('');
    const english = await alert.innerText();
    expect(english, `the refusal in English: "${english}"`).not.toMatch(CJK);
  });

  it('a logged-in member visiting /login lands on Homepage (server redirect and in the app)', async () => {
    const { page } = await browser.newPage();
    await gotoHydrated(page, '/login');
    await fillPasswordLogin(page, member.phone, member.password);
    await page.waitForURL(`${baseUrl()}/`);
    const res = await gotoHydrated(page, '/login');
    expect(new URL(page.url()).pathname).toBe('/');
    expect(res?.request().redirectedFrom()?.url()).toContain('/login');
  });

  it('a visitor opening /mine/changepassword goes to /login/<from> and returns after login', async () => {
    const { page } = await browser.newPage();
    await gotoHydrated(page, '/mine/changepassword');
    expect(new URL(page.url()).pathname).toBe(`/login/${encodeURIComponent('/mine/changepassword')}`);
    await fillPasswordLogin(page, member.phone, member.password);
    await page.waitForURL(`${baseUrl()}/mine/changepassword`);
    await expect.poll(() => page.locator('input[name=oldPassword]').count()).toBe(1);
  });
});
