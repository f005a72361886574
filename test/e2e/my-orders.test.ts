import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gotoHydrated, startOwnServer, useBrowser, waitHydrated } from './support/browser';
import { apiCall, buyable, logInFromMessagingApp, memberToken, myOrders, type GoodsRow } from './support/checkout';
import type { RunningServer } from './support/server';

/**
 * A member finds an order that is not paid (decision 096): from Mine to My orders, its to-pay tab,
 * the order's page, and acts on it there. In Chinese a WeChat payment left open is cancelled (it
 * then shows under cancelled); in English an unpaid order is paid by balance (it then shows under
 * paid). The real app in Chromium against the real server.
 */
let server: RunningServer;
let token: string;

beforeAll(async () => {
  // a fresh seed: no orders yet
  server = await startOwnServer();
  token = await memberToken(server.url);
});
afterAll(async () => {
  await server?.stop();
});

interface Words {
  myOrders: string;
  toPay: string;
  state: string;
  after: { tab: string; state: string };
}

describe('my orders', { timeout: 120_000 }, () => {
  const browser = useBrowser();

  /** An order of `goods` made through the API, paying by WeChat Pay when asked (its cashier never opened). */
  async function orderOf(goods: GoodsRow, paying: boolean): Promise<string> {
    const made = await apiCall<{ orderNo: string }>(server.url, 'POST', '/orders/create', {
      token,
      body: { goodsId: goods.id, agreementAccepted: true },
    });
    expect(made.code).toBe(200);
    if (paying) {
      const started = await apiCall<{ order: { state: string } }>(server.url, 'POST', '/orders/pay', {
        token,
        body: { orderNo: made.data.orderNo, method: 'wechat' },
      });
      expect(started.data.order.state).toBe('paying');
    }
    return made.data.orderNo;
  }

  /** From Mine to the order under to pay, and onto its page. */
  async function findIt(page: Page, goods: GoodsRow, orderNo: string, w: Words) {
    await gotoHydrated(page, '/mine');
    await page.getByRole('link', { name: w.myOrders, exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/mine/orders');
    await waitHydrated(page);
    await page.getByRole('link', { name: w.toPay, exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/mine/orders' && u.searchParams.get('status') === 'to_pay');
    const row = page.locator(`[data-my-order="${orderNo}"]`);
    await row.waitFor();
    expect(await page.locator('[data-my-order]').count(), 'the one order waiting for money').toBe(1);
    expect(await row.locator('[data-my-order-state]').innerText()).toBe(w.state);
    const rowText = await row.innerText();
    // the goods in the page's language (the seed names them in both); the same name heads its page
    if (w.myOrders === '我的订单') expect(rowText).toContain(goods.name);
    else expect(rowText).not.toContain(goods.name);
    await row.click();
    await page.waitForURL((u) => u.pathname === '/orderdetail' && u.searchParams.get('orderNo') === orderNo);
    await page.locator('[data-pay-panel="choosingMethod"]').waitFor();
    expect(await page.locator('[data-order-state-label]').innerText()).toBe(w.state);
    expect(rowText).toContain(await page.getByRole('heading', { level: 1 }).innerText());
  }

  /** Back on My orders: the order left to pay and shows under the tab its new state belongs to. */
  async function listedUnder(page: Page, orderNo: string, w: Words) {
    await gotoHydrated(page, '/mine/orders?status=to_pay');
    await page.locator('[data-empty="orders-to_pay"]').waitFor();
    await page.getByRole('link', { name: w.after.tab, exact: true }).click();
    const row = page.locator(`[data-my-order="${orderNo}"]`);
    await row.waitFor();
    expect(await row.locator('[data-my-order-state]').innerText()).toBe(w.after.state);
  }

  it('finds a paying order from Mine and cancels it (zh), then an unpaid one and pays it by balance (en)', async () => {
    const { page } = await browser.newPage({ baseURL: server.url });
    // bound in the messaging app: WeChat Pay has a payer for the paying order
    await logInFromMessagingApp(page, `o_e2e_my_orders_${Date.now()}`);

    const card = await buyable(server.url, token, 'card', (g) => g.cardType === 'count');
    const paying = await orderOf(card, true);
    const zh: Words = { myOrders: '我的订单', toPay: '待支付', state: '支付中', after: { tab: '已取消', state: '已取消' } };
    await findIt(page, card, paying, zh);
    await page.locator('[data-action="cancel-order"]').click();
    await page.getByRole('button', { name: '确定取消' }).click();
    await page.locator('[data-order-state-label="cancelled"]').waitFor();
    expect((await myOrders(server.url, token)).find((o) => o.orderNo === paying)?.state).toBe('cancelled');
    await listedUnder(page, paying, zh);

    await page.context().addCookies([{ name: 'lang', value: 'en', url: server.url }]);
    const workshop = await buyable(server.url, token, 'workshop');
    const unpaid = await orderOf(workshop, false);
    const en: Words = { myOrders: 'My orders', toPay: 'To pay', state: 'Unpaid', after: { tab: 'Paid', state: 'Paid' } };
    await findIt(page, workshop, unpaid, en);
    await page.locator('[data-pay-panel="choosingMethod"] [data-method="balance"]').click();
    await page.getByRole('button', { name: /^Pay ¥/ }).click();
    await page.waitForURL((u) => u.pathname === '/payf');
    await page.locator('[data-payment-result="paid"]').waitFor();
    expect((await myOrders(server.url, token)).find((o) => o.orderNo === unpaid)).toMatchObject({ state: 'paid', payMethod: 'balance' });
    await listedUnder(page, unpaid, en);
  });

  it('at 320 px wide nothing runs off the side, and axe finds no WCAG 2 AA violation, in every tab', async () => {
    const { page } = await browser.newPage({ baseURL: server.url, viewport: { width: 320, height: 640 } });
    await logInFromMessagingApp(page, `o_e2e_my_orders_narrow_${Date.now()}`);
    const axe = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
    const found: string[] = [];
    for (const status of ['', '?status=to_pay', '?status=paid', '?status=refunds', '?status=cancelled']) {
      await gotoHydrated(page, `/mine/orders${status}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), status).toBeLessThanOrEqual(320);
      await page.addScriptTag({ path: axe });
      const ids = await page.evaluate(async () => {
        const a = (window as unknown as { axe: { run(d: Document, o: object): Promise<{ violations: { id: string }[] }> } }).axe;
        const r = await a.run(document, {
          runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
          resultTypes: ['violations'],
        });
        return r.violations.map((v) => v.id);
      });
      found.push(...ids.map((id) => `${status || 'all'} ${id}`));
    }
    expect(found).toEqual([]);
  });
});
