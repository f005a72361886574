import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { shanghaiDate } from '../../../src/domain/time';
import { devSmsCode } from './sms';
import { gotoHydrated } from './browser';

/** The booking browser tests' view of the API: envelope data, or a thrown error naming the code. */
export async function api<T>(
  base: string,
  path: string,
  opts: { token?: string; body?: unknown; key?: string } = {},
): Promise<{ code: number; data: T }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (opts.token) headers['Authorization-token'] = opts.token;
  if (opts.key) headers['Idempotency-Key'] = opts.key;
  const res = await fetch(`${base}/api${path}`, {
    method: opts.body === undefined ? 'GET' : 'POST',
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  return (await res.json()) as { code: number; data: T };
}

/** A password login through the API: the member's token. */
export async function passwordToken(base: string, phone: string, password: string): Promise<string> {
  const res = await fetch(`${base}/api/oauth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: phone, password, loginType: 'password' }),
  });
  const body = (await res.json()) as { code: number; token?: string };
  if (body.code !== 200 || !body.token) throw new Error(`login of ${phone} refused: ${JSON.stringify(body)}`);
  return body.token;
}

/** A code login through the API (the seeded classmates have no password): the member's token. */
export async function codeToken(base: string, phone: string): Promise<string> {
  await fetch(`${base}/api/oauth/valid-code?phone=${phone}`);
  const code = await devSmsCode(base, phone);
  const res = await fetch(`${base}/api/oauth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: phone, password: code, loginType: 'code' }),
  });
  const body = (await res.json()) as { code: number; token?: string };
  if (body.code !== 200 || !body.token) throw new Error(`code login of ${phone} refused: ${JSON.stringify(body)}`);
  return body.token;
}

/** Logs the page in with a password through the login screen, then opens `to`. */
export async function loginInPage(page: Page, base: string, phone: string, password: string, to: string): Promise<void> {
  await gotoHydrated(page, `${base}/login/${encodeURIComponent(to)}`);
  await page.getByRole('button', { name: /密码登录|Password/ }).click();
  await page.fill('input[name=phone]', phone);
  await page.fill('input[name=password]', password);
  await page.locator('label:has(input[name=agreement])').first().click();
  await page.locator('[data-testid=login-submit]').click();
  await page.waitForURL(`${base}${to}`);
}

/** The footer's booking badge: its number, or '' when there is none. */
export async function footerBadge(page: Page): Promise<string> {
  const tab = page.locator('[data-tab=book]');
  if ((await tab.count()) === 0) return 'no footer';
  const text = (await tab.innerText()).replace(/\s+/g, ' ');
  const n = /\d+/.exec(text);
  return n ? n[0] : '';
}

/** Tomorrow in Shanghai ("YYYY-MM-DD"), inside every member's booking window. */
export function shanghaiTomorrow(now = new Date()): string {
  return shanghaiDate(new Date(now.getTime() + 86_400_000));
}

/** Waits for the footer badge to read `want` ('' for none). */
export async function expectBadge(page: Page, want: string): Promise<void> {
  await expect.poll(() => footerBadge(page), { timeout: 10_000 }).toBe(want);
}
