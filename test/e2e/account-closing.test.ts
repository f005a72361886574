import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAccounts } from '../../src/server/db/seed/people';
import { loginInPage } from './support/booking';
import { gotoHydrated, startOwnServer, useBrowser } from './support/browser';
import { apiCall, type Envelope } from './support/checkout';
import type { RunningServer } from './support/server';

const staff = demoAccounts.find((a) => a.role === 'staff')!;
const PHONE = '13912345057';
const PASSWORD = 'close-me-57';

/** Logs in by password through the API: the login answer (its token at the top level). */
const login = (base: string, phone: string, password: string) =>
  apiCall<unknown>(base, 'POST', '/oauth/login', { body: { username: phone, password, loginType: 'password' } }) as Promise<
    Envelope<unknown> & { token: string }
  >;

describe('closing an account on phones (PIPL; decision 057)', () => {
  const browser = useBrowser();
  let server: RunningServer;
  beforeAll(async () => {
    server = await startOwnServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('a member downloads their data from Mine, asks to close their account, staff confirm it from the console, and the member can no longer log in', async () => {
    const base = server.url;
    // a new member registered at the front desk, who set their own password (decision 054)
    const staffToken = (await login(base, staff.phone, staff.password)).token;
    const registered = await apiCall<{ initialPassword: string }>(base, 'POST', '/staff/members', {
      token: staffToken,
      body: { phone: PHONE, name: '林小雨' },
    });
    expect(registered.code).toBe(200);
    const first = await login(base, PHONE, registered.data.initialPassword);
    expect(first.code).toBe(200);
    expect(
      (
        await apiCall(base, 'POST', '/customers/password', {
          token: first.token,
          body: { oldPassword: registered.data.initialPassword, newPassword: PASSWORD },
        })
      ).code,
    ).toBe(200);

    // the member opens 注销账号 from Mine, reads what is erased and kept, asks and confirms
    const member = await browser.newPage({ baseURL: base });
    const { page } = member;
    // the last login, with the closed account's phone and password, is refused (400, 10002): expected
    member.allowError(/status of 400/);
    await loginInPage(page, base, PHONE, PASSWORD, '/mine');
    // first, a copy of everything held about them: a JSON file with their own account in it
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-my-data]').click()]);
    expect(download.suggestedFilename()).toMatch(/^yoga-club-my-data-\d+-\d{4}-\d{2}-\d{2}\.json$/);
    const file = JSON.parse(await readFile((await download.path())!, 'utf8')) as { code: number; data: Record<string, unknown> };
    expect(file.code).toBe(200);
    expect(JSON.stringify(file.data)).toContain(PHONE);
    await page.getByRole('link', { name: '注销账号' }).click();
    await page.waitForURL(`${base}/mine/closeAccount`);
    await expect.poll(() => page.locator('[data-close-kept]').innerText()).toContain('发票');
    expect(await page.locator('[data-close-erased]').innerText()).toContain('身份证号');
    await page.getByRole('button', { name: '申请注销账号' }).click();
    await page.getByRole('alertdialog', { name: '确认注销' }).getByRole('button', { name: '确定注销' }).click();
    await expect
      .poll(() => page.locator('[data-close-pending] [data-close-state]').innerText(), { timeout: 15_000 })
      .toBe('注销申请审核中');
    // still there after a reload: it is the server's state
    await gotoHydrated(page, `${base}/mine/closeAccount`);
    await expect.poll(() => page.locator('[data-close-pending]').count()).toBe(1);

    // staff, on their own phone, confirm it from the console's 注销申请 section
    const desk = await browser.newPage({ baseURL: base });
    await loginInPage(desk.page, base, staff.phone, staff.password, '/staff');
    await desk.page.locator('[data-section=account-closings]').click();
    await desk.page.waitForURL(`${base}/staff/accountClosings`);
    const row = desk.page.locator('[data-staff-closing]', { hasText: PHONE });
    await expect.poll(() => row.count()).toBe(1);
    await row.getByRole('button', { name: '确认注销' }).click();
    // the confirm names whose account goes before anything is sent (decision 102)
    const asked = desk.page.getByRole('dialog');
    await expect.poll(() => asked.innerText()).toContain(PHONE);
    await asked.getByRole('button', { name: '确定注销' }).click();
    await expect.poll(() => desk.page.locator('[data-staff-closing]', { hasText: PHONE }).count(), { timeout: 15_000 }).toBe(0);

    // the member's session is gone: the next screen sends them to log in
    await gotoHydrated(page, `${base}/mine/closeAccount`);
    await page.waitForURL(/\/login/, { timeout: 15_000 });
    // and their phone and password open nothing
    await page.getByRole('button', { name: /密码登录|Password/ }).click();
    await page.fill('input[name=phone]', PHONE);
    await page.fill('input[name=password]', PASSWORD);
    await page.locator('label:has(input[name=agreement])').first().click();
    await page.locator('[data-testid=login-submit]').click();
    await expect.poll(() => page.getByText('手机号或密码错误').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    expect(page.url()).toContain('/login');
    const again = await login(base, PHONE, PASSWORD);
    expect([again.code, again.status]).toEqual([10002, false]);

    // the decision is in the audit log
    const audit = await apiCall<Array<{ action: string; subjectKind: string }>>(
      base,
      'GET',
      '/staff/audit?action=account-closing.confirm',
      { token: staffToken },
    );
    expect(audit.data.map((e) => e.subjectKind)).toEqual(['account-closing']);
  });
});
