import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gotoHydrated, startOwnServer, useBrowser, waitHydrated } from './support/browser';
import { buyable, logInFromMessagingApp, memberToken, myOrders, reviewAndAgree, type GoodsRow } from './support/checkout';
import type { RunningServer } from './support/server';

/**
 * A member who backs out of WeChat Pay's cashier is never stranded (decision 092): the order waits in
 * 支付中, a new purchase is refused with a link to it, and its page offers continue paying and cancel;
 * continuing opens the same trade at the WeChat Pay stand-in's cashier, which pays it. In Chinese, then
 * in English.
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

describe('an unfinished WeChat payment has a way on', { timeout: 120_000 }, () => {
  const browser = useBrowser();

  async function walk(page: Page, goods: GoodsRow, words: { paying: string; continuePaying: RegExp; unpaid: RegExp }) {
    await page.goto(`/agreement/payagreement?id=${goods.id}`);
    await waitHydrated(page);
    await reviewAndAgree(page);
    await page.locator('[data-method="wechat"]').click();
    await page.locator('[data-action="pay"]').click();
    await page.waitForURL((u) => u.pathname === '/api/dev/pay/wechat/cashier');
    // the member backs out of the cashier without paying
    await page.goBack();
    await page.waitForURL((u) => u.pathname === '/agreement/payagreement');
    await waitHydrated(page);
    const order = (await myOrders(server.url, token)).find((o) => o.goodsId === goods.id && o.state === 'paying');
    expect(order, 'the order waits, paying').toBeTruthy();

    // buying it again is refused, with a link to the order waiting
    await reviewAndAgree(page);
    await page.locator('[data-method="wechat"]').click();
    await page.locator('[data-action="pay"]').click();
    await page.locator('form[data-checkout-reviewing] [data-unpaid-order]').waitFor();
    expect(await page.locator('[data-checkout-feedback]').innerText()).toMatch(words.unpaid);
    await page.locator('[data-unpaid-order]').click();
    await page.waitForURL((u) => u.pathname === '/orderdetail' && u.searchParams.get('orderNo') === order!.orderNo);

    // the order's page: paying, with continue paying and cancel, and it stays
    await page.locator('[data-pay-panel="choosingMethod"]').waitFor();
    expect(await page.locator('[data-order-state-label]').innerText()).toBe(words.paying);
    expect(await page.locator('[data-action="pay-order"]').innerText()).toMatch(words.continuePaying);
    expect(await page.locator('[data-action="cancel-order"]').count()).toBe(1);
    expect(new URL(page.url()).pathname).toBe('/orderdetail');

    // continue paying, the same way: the same trade at the cashier, paid this time
    await page.locator('[data-pay-panel="choosingMethod"] [data-method="wechat"]').click();
    await page.locator('[data-action="pay-order"]').click();
    await page.waitForURL((u) => u.pathname === '/api/dev/pay/wechat/cashier');
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL((u) => u.pathname === '/payf');
    await page.locator('[data-payment-result="paid"]').waitFor();
    const paid = (await myOrders(server.url, token)).find((o) => o.orderNo === order!.orderNo);
    expect(paid).toMatchObject({ state: 'paid', payMethod: 'wechat' });
    await page.locator('[data-action="view-order"]').click();
    await page.waitForURL((u) => u.pathname === '/orderdetail');
    await gotoHydrated(page, `/orderdetail?orderNo=${order!.orderNo}`);
    expect(await page.locator('[data-order-state-label]').getAttribute('data-order-state-label')).toBe('paid');
    expect(await page.locator('[data-action="pay-order"], [data-action="cancel-order"]').count()).toBe(0);
  }

  it('backs out of the cashier, is refused a second purchase, continues paying from the order and pays (zh, then en)', async () => {
    const { page, allowError } = await browser.newPage({ baseURL: server.url });
    // the refused second purchase is a 409 the browser logs
    allowError(/status of 409/);
    await logInFromMessagingApp(page, `o_e2e_unfinished_${Date.now()}`);
    const card = await buyable(server.url, token, 'card', (g) => g.cardType === 'count');
    await walk(page, card, { paying: '支付中', continuePaying: /^继续支付/, unpaid: /您有未支付的订单/ });

    await page.context().addCookies([{ name: 'lang', value: 'en', url: server.url }]);
    const workshop = await buyable(server.url, token, 'workshop');
    await walk(page, workshop, { paying: 'Paying', continuePaying: /^Continue paying/, unpaid: /unpaid order/i });
  });
});
