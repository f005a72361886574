import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SILENT_LOGIN_COOKIE } from '../../src/server/http/silent-login';
import { demoAccounts } from '../../src/server/db/seed/people';
import { baseUrl, gotoHydrated, useBrowser } from './support/browser';

/** The app pages (HTML documents answered 200, not redirects or API pages) the page loads from now on. */
function appDocuments(page: Page): string[] {
  const docs: string[] = [];
  page.on('response', (r) => {
    const url = new URL(r.url());
    if (
      r.request().isNavigationRequest() &&
      r.request().frame() === page.mainFrame() &&
      r.status() === 200 &&
      !url.pathname.startsWith('/api/')
    )
      docs.push(url.pathname);
  });
  return docs;
}

const member = demoAccounts.find((a) => a.role === 'member' && !a.banned && a.level === '2')!;

describe('silent open-id login through the local provider stand-in (spec §1, decision 003)', () => {
  const browser = useBrowser();

  it('an unbound open id browses as a visitor, a phone login binds it, and the next cold load logs in silently', async () => {
    const openId = `o_e2e_${Date.now()}`;

    // first visit: the stand-in answers our open id; nothing is bound yet, so a ticket comes back
    const first = await browser.newPage();
    await first.page.goto(`/api/dev/wechat/identity?as=${openId}`);
    const firstDocs = appDocuments(first.page);
    await gotoHydrated(first.page, '/mine');
    // the server sent the visitor through the authorization before any HTML: one page, rendered once
    expect(firstDocs).toEqual(['/mine']);
    expect(new URL(first.page.url()).pathname).toBe('/mine');
    const ticket = (await first.context.cookies()).find((c) => c.name === 'openId')?.value;
    expect(ticket, 'an open-id ticket cookie').toBeTruthy();
    await expect.poll(() => first.page.locator('#root').innerText()).toContain('登录 / 注册');

    // the phone login carries the ticket and binds the open id
    await gotoHydrated(first.page, `/login/${encodeURIComponent('/mine')}`);
    await first.page.getByRole('button', { name: '密码登录' }).click();
    await first.page.fill('input[name=phone]', member.phone);
    await first.page.fill('input[name=password]', member.password);
    await first.page.locator('label:has(input[name=agreement])').first().click();
    await first.page.locator('[data-testid=login-submit]').click();
    await first.page.waitForURL(`${baseUrl()}/mine`);

    // a new browser session of the same messaging-app user: one silent round trip, then logged in
    const second = await browser.newPage();
    await second.page.goto(`/api/dev/wechat/identity?as=${openId}`);
    const secondDocs = appDocuments(second.page);
    await gotoHydrated(second.page, '/mine');
    await expect.poll(() => second.page.locator('[data-testid=member-name]').innerText()).toBe(member.name);
    expect(new URL(second.page.url()).pathname).toBe('/mine');
    expect((await second.context.cookies()).find((c) => c.name === 'token')?.value).toBeTruthy();

    expect(secondDocs).toEqual(['/mine']);

    // the round trip happens once per browser session: a visitor who logs out is not sent again
    expect((await second.context.cookies()).find((c) => c.name === SILENT_LOGIN_COOKIE)?.value).toBe('1');
  });
});
