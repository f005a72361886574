import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatYuan } from '../../src/domain/money';
import { gotoHydrated, startOwnServer, useBrowser } from './support/browser';
import { logInFromMessagingApp } from './support/checkout';
import type { RunningServer } from './support/server';

interface Goods {
  id: number;
  kind: string;
  name: string;
  listPriceCents: number;
  memberPriceCents?: number;
  isUable: boolean;
  newCustomersOnly: boolean;
  perPersonLimit: number | null;
  phases?: unknown[];
  teachers?: unknown[];
}
interface Card {
  id: number;
  name: string;
  number: string;
  status: string;
}

const MEMBER = { phone: '13800000001', password: 'yoga1234' };

let server: RunningServer;

beforeAll(async () => {
  // a fresh seed: this file buys goods
  server = await startOwnServer();
});
afterAll(async () => {
  await server?.stop();
});

async function call<T>(path: string, opts: { token?: string; body?: unknown } = {}): Promise<T> {
  const headers: Record<string, string> = { cookie: 'lang=zh', 'content-type': 'application/json' };
  if (opts.token) headers['Authorization-token'] = opts.token;
  const res = await fetch(`${server.url}/api${path}`, {
    method: opts.body === undefined ? 'GET' : 'POST',
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const body = (await res.json()) as { code: number; data: T };
  if (body.code !== 200) throw new Error(`${path}: ${JSON.stringify(body)}`);
  return body.data;
}

/** Logs the browser context in through the API (the server sets the session cookies); the token. */
async function logIn(page: Page): Promise<string> {
  const r = await page
    .context()
    .request.post('/api/oauth/login', { data: { username: MEMBER.phone, password: MEMBER.password, loginType: 'password' } });
  const body = (await r.json()) as { code: number; token: string };
  expect(body.code).toBe(200);
  return body.token;
}

/**
 * Buys goods through the API: an order, then the balance (the demo member's ¥3,000), or the
 * messaging-app payment paid at its stand-in (a signed notification settles it).
 */
async function buy(token: string, goodsId: number, method: 'balance' | 'wechat'): Promise<string> {
  const order = await call<{ orderNo: string; amountToPayCents: number }>('/orders/create', {
    token,
    body: { goodsId, agreementAccepted: true },
  });
  const paying = await call<{ payment: { prepayId: string } | null }>('/orders/pay', { token, body: { orderNo: order.orderNo, method } });
  if (method === 'wechat') await call('/dev/pay/wechat/simulate', { body: { prepayId: paying.payment!.prepayId, outcome: 'pay' } });
  const done = await call<{ state: string }>(`/orders/detail?orderNo=${order.orderNo}`, { token });
  expect(done.state).toBe('paid');
  return order.orderNo;
}

const plain = (g: Goods) => g.isUable && !g.newCustomersOnly && g.perPersonLimit === null && !g.phases?.length && !g.teachers?.length;

describe('membership cards (spec §2 /vipcard, /vipcard/vipcarddetail)', () => {
  const browser = useBrowser();

  it('a visitor sees the card products at list prices, filters by type, and is sent to log in on Buy', async () => {
    const { list } = await call<{ list: Goods[] }>('/product/goods/goodList?kind=card&pagenum=0&pagesize=10');
    expect(list.length).toBeGreaterThan(0);
    const { page } = await browser.newPage({ baseURL: server.url });
    await gotoHydrated(page, '/vipcard');
    await expect.poll(() => page.title()).toBe('会员卡');
    await page.locator('[data-vipcard=shop]').waitFor();
    const first = list[0]!;
    const row = page.locator(`[data-card-product="${first.id}"]`);
    await expect.poll(() => row.innerText()).toContain(first.name);
    expect(await row.locator('[data-price=list]').innerText()).toBe(formatYuan(first.listPriceCents));
    expect(await page.locator('[data-price=member]').count()).toBe(0);

    // the card types come from the dictionary; a type filters the products
    await page.locator('[data-card-type=count]').click();
    await page.waitForURL('**/vipcard?tab=shop&type=count');
    const counts = await call<{ list: Goods[] }>('/product/goods/goodList?kind=card&type=count&pagenum=0&pagesize=10');
    await expect.poll(() => page.locator('[data-card-product]').count()).toBe(counts.list.length);

    const g = counts.list.find(plain)!;
    await page.locator(`[data-card-product="${g.id}"]`).click();
    await page.waitForURL(`**/vipcard/vipcarddetail?id=${g.id}`);
    await expect.poll(() => page.title()).toBe('会员卡详情');
    await expect.poll(() => page.locator('[data-buy-bar]').getAttribute('data-buy-bar')).toBe('login');
    expect(await page.locator('[data-buy-bar] [data-price=list]').innerText()).toBe(formatYuan(g.listPriceCents));
    await page.locator('[data-action=buy]').click();
    await page.waitForURL(`**/login/${encodeURIComponent(`/agreement/payagreement?id=${g.id}`)}`);
  });

  it('at 320 px wide nothing runs off the side (DESIGN.md §5)', async () => {
    const { page } = await browser.newPage({ baseURL: server.url, viewport: { width: 320, height: 640 } });
    const cards = await call<Card[]>('/customers/cards', { token: await logIn(page) });
    for (const path of [
      '/vipcard?tab=shop',
      '/vipcard?tab=mine',
      '/vipcard/vipcarddetail?id=1',
      `/mine/carddetail?id=${cards[0]!.id}`,
      '/mycourse',
      '/myPurchaseHistory',
      '/mine',
      '/mine/balanceHistory',
    ]) {
      await gotoHydrated(page, path);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(320);
    }
  });

  it('an unknown card product answers the not-found state with a way back', async () => {
    const res = await fetch(`${server.url}/vipcard/vipcarddetail?id=999999`, { headers: { cookie: 'lang=zh' } });
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('href="/vipcard?tab=shop"');
  });

  it('the demo member sees their cards, opens one with its facts and history, and sees member prices', async () => {
    const { page } = await browser.newPage({ baseURL: server.url });
    const token = await logIn(page);
    const cards = await call<Card[]>('/customers/cards', { token });
    expect(cards.length).toBeGreaterThan(0);

    await gotoHydrated(page, '/vipcard');
    await page.locator('[data-vipcard=mine]').waitFor();
    for (const c of cards) await expect.poll(() => page.locator(`[data-my-card="${c.id}"]`).innerText()).toContain(c.name);

    // the card with a class in its history (the seeded annual card has a checked-in class)
    let withClass: Card | undefined;
    for (const c of cards) {
      const h = await call<{ list: { kind: string }[] }>(`/customers/cards/history?id=${c.id}&pagenum=0&pagesize=20`, { token });
      if (h.list.some((x) => x.kind === 'class')) withClass = c;
    }
    expect(withClass, 'a seeded card with a class in its history').toBeDefined();
    const detail = await call<{ clubName: string | null; extensionCount: number }>(`/customers/cards/detail?id=${withClass!.id}`, {
      token,
    });
    await page.locator(`[data-my-card="${withClass!.id}"]`).click();
    await page.waitForURL(`**/mine/carddetail?id=${withClass!.id}`);
    await expect.poll(() => page.title()).toBe('会员卡详情');
    const facts = page.locator('[data-card-facts]');
    await expect.poll(() => facts.innerText()).toContain(withClass!.number);
    const text = await facts.innerText();
    for (const label of ['卡名称', '卡号', '门店', '状态', '次数', '生效日期', '到期日期', '延期次数']) expect(text).toContain(label);
    expect(text).toContain(detail.clubName ?? '全部门店');
    expect(await page.locator('[data-card-extensions]').innerText()).toBe(String(detail.extensionCount));
    expect(await page.locator('[data-card-history=class]').count()).toBeGreaterThan(0);

    // the whole history on /mine/CardDetailPage
    const history = await call<{ total: number }>(`/customers/cards/history?id=${withClass!.id}&pagenum=0&pagesize=20`, { token });
    await gotoHydrated(page, `/mine/CardDetailPage?id=${withClass!.id}`);
    await expect.poll(() => page.title()).toBe('会员卡使用记录');
    expect(await page.locator('[data-card-number]').innerText()).toBe(withClass!.number);
    await expect.poll(() => page.locator('[data-card-history]').count()).toBe(Math.min(history.total, 20));

    // the shop part for a member shows the member price; Buy on a card opens the agreement (the checkout)
    await gotoHydrated(page, '/vipcard?tab=shop');
    await page.locator('[data-price=member]').first().waitFor();
    const g = (await call<{ list: Goods[] }>('/product/goods/goodList?kind=card&pagenum=0&pagesize=20', { token })).list.find(plain)!;
    await page.locator(`[data-card-product="${g.id}"]`).click();
    await page.waitForURL(`**/vipcard/vipcarddetail?id=${g.id}`);
    await expect.poll(() => page.locator('[data-buy-bar]').getAttribute('data-buy-bar')).toBe('buy');
    expect(await page.locator('[data-buy-bar] [data-price=member]').innerText()).toContain(formatYuan(g.memberPriceCents!));
    await page.locator('[data-action=buy]').click();
    await page.waitForURL(`**/agreement/payagreement?id=${g.id}`);
  });

  it("another member's card, or none, is the not-found state; a visitor is sent to log in", async () => {
    const res = await fetch(`${server.url}/mine/carddetail?id=1`, { headers: { cookie: 'lang=zh' }, redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`/login/${encodeURIComponent('/mine/carddetail?id=1')}`);
    const tracked = await browser.newPage({ baseURL: server.url });
    tracked.allowError(/status of 404/);
    const { page } = tracked;
    await logIn(page);
    const r = await gotoHydrated(page, '/mine/carddetail?id=999999');
    expect(r?.status()).toBe(404);
    await page.locator('[data-not-found]').waitFor();
  });

  it('after buying a card and a course, the member sees the new card inactive, the course with its uses, and what each cost', async () => {
    const { page } = await browser.newPage({ baseURL: server.url });
    // the card is paid by WeChat Pay: the member is in the messaging app, whose silent login bound the payer's open id
    const token = await logInFromMessagingApp(page, `o_e2e_cards_${Date.now()}`);
    const cardGoods = (await call<{ list: Goods[] }>('/product/goods/goodList?kind=card&pagenum=0&pagesize=20', { token })).list.find(
      plain,
    )!;
    const courseGoods = (await call<{ list: Goods[] }>('/product/goods/goodList?kind=workshop&pagenum=0&pagesize=20', { token })).list.find(
      plain,
    )!;
    const cardOrder = await buy(token, cardGoods.id, 'wechat');
    const courseOrder = await buy(token, courseGoods.id, 'balance');
    const purchases = await call<{ list: { orderNo: string; amountToPayCents: number; money: { paidCents: number } }[] }>(
      '/customers/purchases?pagenum=0&pagesize=10',
      {
        token,
      },
    );

    await gotoHydrated(page, '/vipcard?tab=mine');
    const bought = (await call<(Card & { goodsId?: number })[]>('/customers/cards', { token })).find((c) =>
      c.number.endsWith(cardOrder.slice(1)),
    );
    expect(bought?.status).toBe('inactive');
    const row = page.locator(`[data-my-card="${bought!.id}"]`);
    await expect.poll(() => row.getAttribute('data-status')).toBe('inactive');
    expect(await row.innerText()).toContain('未激活');

    // its detail: inactive, offers activation, and its history starts with the purchase
    const paidCard = purchases.list.find((x) => x.orderNo === cardOrder)!;
    await row.click();
    await page.waitForURL(`**/mine/carddetail?id=${bought!.id}`);
    await page.locator('[data-action=activate]').waitFor();
    expect(await page.locator('[data-card-history=bought]').innerText()).toContain(cardOrder);
    expect(await page.locator('[data-card-history=bought]').innerText()).toContain(formatYuan(paidCard.amountToPayCents));

    // activating it by hand (spec §4 activate): a confirm, then the card is in use with its dates and an activated line
    await page.locator('[data-action=activate]').click();
    await page.getByRole('button', { name: '确定激活' }).click();
    await expect.poll(() => page.locator('[data-card-header] [data-card-status]').getAttribute('data-card-status')).toBe('in_use');
    await page.locator('[data-card-valid-until]').waitFor();
    expect(await page.locator('[data-action=activate]').count()).toBe(0);
    await page.locator('[data-card-history=activated]').waitFor();

    await gotoHydrated(page, '/mycourse');
    await expect.poll(() => page.title()).toBe('我的课程');
    await expect.poll(() => page.locator('[data-my-course]').first().innerText()).toContain(courseGoods.name);

    await gotoHydrated(page, '/myPurchaseHistory');
    await expect.poll(() => page.title()).toBe('购买记录');
    for (const no of [cardOrder, courseOrder]) {
      const p = purchases.list.find((x) => x.orderNo === no)!;
      const el = page.locator(`[data-purchase="${no}"]`);
      // 实付 is the sum of the payers' lines, the balance included (decision 101)
      await expect.poll(() => el.locator('[data-money-line=paid]').innerText()).toContain(formatYuan(p.money.paidCents));
    }
    expect(await page.locator(`[data-purchase="${cardOrder}"] [data-purchase-name]`).innerText()).toBe(cardGoods.name);
    expect(await page.locator(`[data-purchase="${courseOrder}"]`).innerText()).toContain('余额支付');

    // a purchase opens its order
    await page.locator(`[data-purchase="${courseOrder}"]`).click();
    await page.waitForURL(`**/orderdetail?orderNo=${courseOrder}`);

    // the balance history comes rendered from the server: the newest change is the course bought by balance, with its order
    const history = await page.context().request.get('/mine/balanceHistory');
    expect(history.status()).toBe(200);
    const html = await history.text();
    expect(html.match(/data-reason="(\w+)"/)?.[1]).toBe('order');
    expect(html).toContain(`data-ledger-order="${courseOrder}"`);
    expect(html).toContain(`-${formatYuan(purchases.list.find((x) => x.orderNo === courseOrder)!.amountToPayCents)}`);
  });
});
