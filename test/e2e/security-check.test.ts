import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gotoHydrated, startOwnServer, useBrowser } from './support/browser';
import type { RunningServer } from './support/server';

/** A demo member (seed), on a server of this file's own with the product's per-phone threshold (3). */
const MEMBER = { phone: '13800000002', password: 'yoga1234' };

let server: RunningServer;
beforeAll(async () => {
  server = await startOwnServer({ env: { LOGIN_CAPTCHA_AFTER_PHONE_FAILURES: '3' } });
});
afterAll(async () => {
  await server?.stop();
});

async function passwordLogin(page: Page, password: string) {
  await page.fill('input[name=password]', password);
  await page.locator('[data-testid=login-submit]').click();
}

describe('the security check in the browser (decision 056)', () => {
  const { newPage } = useBrowser();

  /** The login page's password tab, the member's phone typed and the agreement ticked. */
  async function passwordTab(): Promise<Page> {
    const tracked = await newPage({ baseURL: server.url });
    tracked.allowError(/status of (400|429)/);
    const { page } = tracked;
    await gotoHydrated(page, `${server.url}/login`);
    await page.getByRole('button', { name: /密码登录|Password/ }).click();
    await page.fill('input[name=phone]', MEMBER.phone);
    await page.locator('label:has(input[name=agreement])').first().click();
    return page;
  }

  it('after 3 wrong passwords the login asks for the check (the stand-in widget in demo mode), then logs the member in', async () => {
    const page = await passwordTab();
    for (let i = 0; i < 3; i++) {
      await passwordLogin(page, `wrong-pw-${i}`);
      await expect.poll(() => page.locator('#root').innerText()).toContain('手机号或密码错误');
      // each wrong try after the threshold waits longer: the fourth is after the first second
    }
    await page.waitForTimeout(1100);
    await passwordLogin(page, MEMBER.password);
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.innerText(), { timeout: 10_000 }).toContain('安全验证');
    await dialog.getByRole('button', { name: /确定|OK/ }).click();
    await page.waitForURL(`${server.url}/`, { timeout: 15_000 });
  });

  it('closing the check leaves the member on the login page, told to complete it', async () => {
    const page = await passwordTab();
    // the phone's 3 wrong tries of the first test are still in the hour
    await page.waitForTimeout(1100);
    await passwordLogin(page, 'wrong-again');
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.innerText(), { timeout: 10_000 }).toContain('安全验证');
    await dialog.getByRole('button', { name: /取消|Cancel/ }).click();
    await expect.poll(() => page.locator('#root').innerText()).toContain('请先完成安全验证');
    expect(page.url()).toContain('/login');
  });
});
