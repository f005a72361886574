import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { gotoHydrated } from './browser';

/** The first demo member (spec demo accounts); the seed gives them a ¥3,000 balance. */
export const MEMBER = { phone: '13800000001', password: 'yoga1234' };

export interface Envelope<T> {
  code: number;
  status: boolean;
  data: T;
}

/** Calls the server's API as a member (or a visitor without token). */
export async function apiCall<T>(
  base: string,
  method: 'GET' | 'POST',
  path: string,
  opts: { token?: string; body?: unknown } = {},
): Promise<Envelope<T>> {
  const res = await fetch(`${base}/api${path}`, {
    method,
    headers: { cookie: 'lang=zh', 'content-type': 'application/json', ...(opts.token ? { 'Authorization-token': opts.token } : {}) },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  return (await res.json()) as Envelope<T>;
}

/** A token for the demo member, for checking what the server holds. */
export async function memberToken(base: string): Promise<string> {
  const r = (await apiCall<unknown>(base, 'POST', '/oauth/login', {
    body: { username: MEMBER.phone, password: MEMBER.password, loginType: 'password' },
  })) as Envelope<unknown> & { token: string };
  expect(r.code).toBe(200);
  return r.token;
}

/** Logs the page's browser in as the demo member (the server sets the session cookies). */
export async function logInPage(page: Page): Promise<void> {
  const r = await page
    .context()
    .request.post('/api/oauth/login', { data: { username: MEMBER.phone, password: MEMBER.password, loginType: 'password' } });
  expect(((await r.json()) as { code: number }).code).toBe(200);
}

/**
 * Logs the page's browser in as the demo member the way a member in the messaging app does
 * (decision 003): the silent authorization comes back as `openId` (the OAuth stand-in's identity
 * choice), finds it unbound and leaves a ticket; the phone login carries the ticket and binds the open
 * id, which is then the member's WeChat Pay payer. Returns the token.
 */
export async function logInFromMessagingApp(page: Page, openId: string): Promise<string> {
  await page.goto(`/api/dev/wechat/identity?as=${encodeURIComponent(openId)}`);
  await gotoHydrated(page, '/mine');
  const ticket = (await page.context().cookies()).find((c) => c.name === 'openId')?.value;
  expect(ticket, 'the silent authorization left an open-id ticket').toBeTruthy();
  const r = await page.context().request.post('/api/oauth/login', {
    data: { username: MEMBER.phone, password: MEMBER.password, loginType: 'password', openid: ticket },
  });
  const body = (await r.json()) as { code: number; token: string; data: { wxBound?: boolean } };
  expect(body.code).toBe(200);
  expect(body.data.wxBound).toBe(true);
  return body.token;
}

export interface GoodsRow {
  id: number;
  kind: string;
  cardType: string | null;
  name: string;
  memberPriceCents?: number;
  listPriceCents: number;
  isUable: boolean;
}

/** The first goods of a kind (and card type) that can be bought now, as the member sees it. */
export async function buyable(base: string, token: string, kind: string, pick: (g: GoodsRow) => boolean = () => true): Promise<GoodsRow> {
  const r = await apiCall<{ list: GoodsRow[] }>(base, 'GET', `/product/goods/goodList?kind=${kind}&pagenum=0&pagesize=50`, { token });
  const g = r.data.list.find((x) => x.isUable && pick(x));
  if (!g) throw new Error(`the seed has no buyable ${kind}`);
  return g;
}

export interface OrderRow {
  orderNo: string;
  state: string;
  goodsId: number;
  amountToPayCents: number;
  balanceUsedCents: number;
  payMethod: string | null;
}

export async function myOrders(base: string, token: string): Promise<OrderRow[]> {
  return (await apiCall<{ list: OrderRow[] }>(base, 'GET', '/orders/mine?pagenum=0&pagesize=50', { token })).data.list;
}

export interface MyCardRow {
  id: number;
  name: string;
  status: string;
  usesLeft: number | null;
  validFrom: string | null;
}

/** The member's cards as the server holds them (`GET /customers/cards`). */
export async function myCards(base: string, token: string): Promise<MyCardRow[]> {
  return (await apiCall<MyCardRow[]>(base, 'GET', '/customers/cards', { token })).data;
}

export async function balanceOf(base: string, token: string): Promise<number> {
  return (await apiCall<{ balanceCents: number }>(base, 'GET', '/customers/balance', { token })).data.balanceCents;
}

/** Waits for the agreement page to show the server's price, ticks the agreement. */
export async function reviewAndAgree(page: Page): Promise<void> {
  await page.locator('form[data-checkout-reviewing]').waitFor();
  await page.locator('label:has([name=agreePurchase]), label:has-text("我已阅读并同意")').first().click();
}
