import { describe, expect, it } from 'vitest';
import { demoAccounts } from '../../src/server/db/seed/people';
import { baseUrl, gotoHydrated, useBrowser } from './support/browser';

const member =
  demoAccounts.find((a) => a.role === 'member' && !a.banned && a.level === '2') ??
  demoAccounts.find((a) => a.role === 'member' && !a.banned)!;

describe('an expired login (spec §7: HTTP 401 → toast, token cleared, /login/<from> after 2 s)', () => {
  const browser = useBrowser();

  it('a member whose session was revoked elsewhere sees the expired-login toast and is sent to /login/<from>', async () => {
    const tracked = await browser.newPage();
    tracked.allowError(/status of 401/);
    const { page } = tracked;
    await gotoHydrated(page, '/login');
    await page.getByRole('button', { name: /密码登录|Password/ }).click();
    await page.fill('input[name=phone]', member.phone);
    await page.fill('input[name=password]', member.password);
    await page.locator('label:has(input[name=agreement])').first().click();
    await page.locator('[data-testid=login-submit]').click();
    await page.waitForURL(`${baseUrl()}/`);
    const token = (await page.context().cookies()).find((c) => c.name === 'token')?.value;
    expect(token).toBeTruthy();

    // the member leaves the app (its page could otherwise meet the revocation on a call of its own,
    // show the toast there and clear the cookie before /mine is asked for), and the session ends on
    // the server (as after a password reset on another phone)
    await page.goto('about:blank');
    const out = await fetch(`${baseUrl()}/api/oauth/logout`, { method: 'POST', headers: { 'Authorization-token': token! } });
    expect(out.status).toBe(200);
    expect((await page.context().cookies()).find((c) => c.name === 'token')?.value, 'the browser still holds the dead token').toBe(token);

    await page.goto('/mine', { waitUntil: 'domcontentloaded' });
    await expect.poll(() => page.locator('body').innerText(), { timeout: 10_000 }).toContain('当前登录已失效，请重新登录');
    await page.waitForURL(`${baseUrl()}/login/${encodeURIComponent('/mine')}`, { timeout: 15_000 });
    const after = (await page.context().cookies()).find((c) => c.name === 'token')?.value ?? '';
    expect(after).toBe('');
  });
});
