import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gotoHydrated, startOwnServer, useBrowser } from './support/browser';
import type { RunningServer } from './support/server';
import { balanceOf, logInPage, memberToken, myOrders, reviewAndAgree } from './support/checkout';
import { devSmsCode } from './support/sms';

interface Sale {
  id: number;
  goodsId: number;
  sellNumber: number;
  maxNumber: number;
  isUable: boolean;
  message: string | null;
  phase: string;
}

let server: RunningServer;

beforeAll(async () => {
  // a fresh seed (the Singles Day sale untouched); enough SMS codes from one network for 30 buyers
  server = await startOwnServer({ env: { SMS_PER_IP_PER_HOUR: '1000' } });
});
afterAll(async () => {
  await server?.stop();
});

async function call<T>(method: string, path: string, token?: string, body?: unknown): Promise<{ code: number; data: T; message?: string }> {
  const res = await fetch(`${server.url}/api${path}`, {
    method,
    headers: { cookie: 'lang=zh', 'content-type': 'application/json', ...(token ? { 'Authorization-token': token } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as { code: number; data: T; message?: string };
}

const sale = async (token?: string) => (await call<Sale>('GET', '/product/goods/activity', token)).data;

/** A member created by a code login (a phone's first code login creates the member). */
async function member(phone: string): Promise<string> {
  expect((await call('GET', `/oauth/valid-code?phone=${phone}`)).code).toBe(200);
  const code = await devSmsCode(server.url, phone);
  const r = (await call<unknown>('POST', '/oauth/login', undefined, { username: phone, password: code, loginType: 'code' })) as unknown as {
    code: number;
    token: string;
  };
  expect(r.code).toBe(200);
  return r.token;
}

async function logIn(page: Page, token: string): Promise<void> {
  await page.context().addCookies([{ name: 'token', value: token, url: server.url }]);
}

describe('the Singles Day flash sale in the browser (/event11, /eventactivi)', () => {
  const browser = useBrowser();

  it('a visitor sees the card, 0 of 30 taken and the countdown; Buy sends them to log in, then to the agreement', async () => {
    const s = await sale();
    expect(s).toMatchObject({ sellNumber: 0, maxNumber: 30, phase: 'live', isUable: true });
    const { page } = await browser.newPage({ baseURL: server.url });
    await gotoHydrated(page, '/event11');
    await expect.poll(() => page.title()).toBe('双十一限量抢购');
    const card = page.locator(`[data-flash-sale="${s.id}"]`);
    expect(await card.getAttribute('data-phase')).toBe('live');
    expect(await card.locator('[data-sell-number]').innerText()).toBe('0');
    expect(await card.locator('[data-max-number]').innerText()).toBe('30');
    expect(await card.locator('[data-countdown="live"]').innerText()).toMatch(/距结束 .*\d\d:\d\d:\d\d/);
    await page.locator('[data-action="buy"]').click();
    const agreement = `/agreement/payagreement?id=${s.goodsId}`;
    await page.waitForURL((u) => u.pathname === `/login/${encodeURIComponent(agreement)}`);
  });

  it('the rules page shows the sale’s numbers and leads back to it', async () => {
    const s = await sale();
    const { page } = await browser.newPage({ baseURL: server.url });
    await gotoHydrated(page, '/event11');
    await page.locator('[data-rules-link]').click();
    await page.waitForURL(`**/eventactivi?id=${s.id}`);
    await expect.poll(() => page.title()).toBe('抢购活动规则');
    expect(await page.locator('[data-event-rules] ol').innerText()).toContain('本场限量30张');
    await page.locator('[data-back-to-sale]').click();
    await page.waitForURL(`**/event11?id=${s.id}`);
  });

  it('a member’s Buy opens the agreement; once they hold a place the page says so and Buy is closed (one per person)', async () => {
    const token = await member('13911110000');
    const s = await sale(token);
    const { page } = await browser.newPage({ baseURL: server.url });
    await logIn(page, token);
    await gotoHydrated(page, '/event11');
    await page.locator('[data-action="buy"]').click();
    await page.waitForURL((u) => u.pathname === '/agreement/payagreement' && u.search === `?id=${s.goodsId}`);
    // leave the checkout before ordering behind its back (its quote would then say one per person)
    await page.goto('about:blank');

    // the order the checkout creates once the member accepts the agreement (the checkout's own tests walk that)
    expect((await call('POST', '/orders/create', token, { goodsId: s.goodsId, agreementAccepted: true })).code).toBe(200);
    await gotoHydrated(page, '/event11');
    expect(await page.locator('[data-sell-number]').innerText()).toBe('1');
    await page.locator('[data-mine]').waitFor();
    expect(await page.locator('[data-sale-message]').innerText()).toBe('该商品每人限购一次');
    // the place's order waits to be paid: the way to pay it, not the purchase history
    expect(await page.locator('[data-mine]').getAttribute('data-mine')).toBe('unpaid');
    expect(await page.locator('[data-my-order]').getAttribute('href')).toMatch(/^\/orderdetail\?orderNo=/);
    expect(await page.locator('[data-action="buy"]').isDisabled()).toBe(true);
  });

  it('the demo member buys the flash card through the checkout with balance: paid, the place counted, Buy closed after', async () => {
    const token = await memberToken(server.url);
    const s = await sale(token);
    const balance = await balanceOf(server.url, token);
    const { page } = await browser.newPage({ baseURL: server.url });
    await logInPage(page);
    await gotoHydrated(page, '/event11');
    await page.locator('[data-action="buy"]').click();
    await page.waitForURL((u) => u.pathname === '/agreement/payagreement' && u.search === `?id=${s.goodsId}`);
    await page.locator('form[data-checkout-reviewing]').waitFor();
    await page.locator('[data-balance-toggle]').click();
    await expect.poll(() => page.locator('[data-amount-to-pay]').innerText()).toBe('¥0');
    await reviewAndAgree(page);
    await page.locator('[data-action="pay"]').click();
    await page.waitForURL((u) => u.pathname === '/payf');
    await page.locator('[data-payment-result="paid"]').waitFor();
    const orderNo = new URL(page.url()).searchParams.get('orderNo')!;
    const order = (await myOrders(server.url, token)).find((o) => o.orderNo === orderNo)!;
    expect(order).toMatchObject({ state: 'paid', goodsId: s.goodsId });
    expect(await balanceOf(server.url, token)).toBe(balance - 99_900);
    expect(await sale(token)).toMatchObject({ sellNumber: s.sellNumber + 1, mine: true, isUable: false });
    await gotoHydrated(page, '/event11');
    expect(await page.locator('[data-sell-number]').innerText()).toBe(String(s.sellNumber + 1));
    expect(await page.locator('[data-action="buy"]').isDisabled()).toBe(true);
    // paid: the page says so, and leads to the order, not to "complete payment"
    expect(await page.locator('[data-mine]').innerText()).toContain('并已支付成功');
    expect(await page.locator('[data-my-order]').getAttribute('href')).toBe(`/orderdetail?orderNo=${orderNo}`);
  });

  it('sold out: a member watching sees the last place go (too slow); a fresh visit shows the hand-speed message; a late order is refused', async () => {
    const before = await sale();
    const buyers = await Promise.all(
      Array.from({ length: before.maxNumber - before.sellNumber }, (_, i) => member(`139222${String(i).padStart(5, '0')}`)),
    );
    const last = buyers.pop()!;
    for (const t of buyers)
      expect((await call('POST', '/orders/create', t, { goodsId: before.goodsId, agreementAccepted: true })).code).toBe(200);
    const late = await member('13933330000');

    const { page } = await browser.newPage({ baseURL: server.url });
    await logIn(page, late);
    await gotoHydrated(page, '/event11');
    const card = page.locator('[data-flash-sale]');
    expect(await card.locator('[data-sell-number]').innerText()).toBe(String(before.maxNumber - 1));
    expect(await page.locator('[data-action="buy"]').isDisabled()).toBe(false);
    // the last place goes while the member watches: the page refreshes the sale and says they were too slow
    expect((await call('POST', '/orders/create', last, { goodsId: before.goodsId, agreementAccepted: true })).code).toBe(200);
    await expect.poll(() => card.getAttribute('data-phase'), { timeout: 15_000 }).toBe('sold_out');
    expect(await page.locator('[data-sale-message]').innerText()).toBe('您慢了一步，最后的名额刚刚被抢光了');
    expect(await page.locator('[data-action="buy"]').isDisabled()).toBe(true);

    const refused = await call('POST', '/orders/create', late, { goodsId: before.goodsId, agreementAccepted: true });
    expect(refused).toMatchObject({ code: 50003, message: '手速不够快，商品已被抢光了' });
    await gotoHydrated(page, '/event11');
    expect(await card.getAttribute('data-phase')).toBe('sold_out');
    expect(await card.locator('[data-sell-number]').innerText()).toBe('30');
    expect(await page.locator('[data-sale-message]').innerText()).toBe('手速不够快，商品已被抢光了');
    expect(await page.locator('[data-phase-label]').innerText()).toBe('已抢光');
    expect(await page.locator('[data-action="buy"]').isDisabled()).toBe(true);
    expect(await page.locator('[data-countdown]').count()).toBe(0);
  });

  it('fits a 320 px wide phone; an unknown sale says so', async () => {
    const tracked = await browser.newPage({ baseURL: server.url, viewport: { width: 320, height: 640 } });
    tracked.allowError(/status of 404/);
    const { page } = tracked;
    for (const p of ['/event11', '/eventactivi']) {
      await gotoHydrated(page, p);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), p).toBeLessThanOrEqual(320);
    }
    const res = await gotoHydrated(page, '/event11?id=99999');
    expect(res?.status()).toBe(404);
    await page.locator('[data-not-found]').waitFor();
  });
});
