import { describe, expect, it } from 'vitest';
import { baseUrl, gotoHydrated, useBrowser } from './support/browser';
import { waitForSmsCode } from './support/sms';

/** A phone of its own, so this test has its own SMS limits and account. */
function freshPhone(): string {
  return `137${String(Date.now()).slice(-8)}`;
}

describe('password reset (spec §2 /login/forgetpassword, /login/newpass; §5 password rules)', () => {
  const browser = useBrowser();

  it('a member verifies the phone by code, sets a new password, and logs in with it', async () => {
    const tracked = await browser.newPage();
    tracked.allowError(/status of 400/);
    const { page } = tracked;
    const phone = freshPhone();

    await gotoHydrated(page, '/login/forgetpassword');
    await page.fill('input[name=phone]', phone);
    await page.locator('[data-testid=send-code]').click();
    const code = await waitForSmsCode(baseUrl(), phone);
    await page.fill('input[name=code]', code);
    await page.locator('form button[type=submit]').click();
    await page.waitForURL(`${baseUrl()}/login/newpass`);

    // the two entries must match (spec §5), checked before anything is sent
    await page.fill('input[name=password]', 'newpass123');
    await page.fill('input[name=again]', 'newpass124');
    await page.locator('form button[type=submit]').click();
    await expect.poll(() => page.getByRole('alert').innerText()).not.toBe('');

    await page.fill('input[name=again]', 'newpass123');
    await page.locator('form button[type=submit]').click();
    await page.waitForURL(`${baseUrl()}/login`);

    await page.getByRole('button', { name: /密码登录|Password/ }).click();
    await page.fill('input[name=phone]', phone);
    await page.fill('input[name=password]', 'newpass123');
    await page.locator('label:has(input[name=agreement])').first().click();
    await page.locator('[data-testid=login-submit]').click();
    await page.waitForURL(`${baseUrl()}/`);
    const token = (await page.context().cookies()).find((c) => c.name === 'token')?.value ?? '';
    expect(token.length).toBeGreaterThan(10);
  });

  it('opening the second step without a verified phone goes back to step one', async () => {
    const { page } = await browser.newPage();
    await gotoHydrated(page, '/login/newpass');
    await page.waitForURL(`${baseUrl()}/login/forgetpassword`);
  });
});
