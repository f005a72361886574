import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatYuan } from '../../src/domain/money';
import { startOwnServer, useBrowser } from './support/browser';
import { apiCall, balanceOf, buyable, logInPage, memberToken, myOrders, reviewAndAgree } from './support/checkout';
import type { RunningServer } from './support/server';

let server: RunningServer;
let token: string;

beforeAll(async () => {
  // a fresh seed: the demo member's ¥3,000 balance untouched
  server = await startOwnServer();
  token = await memberToken(server.url);
});
afterAll(async () => {
  await server?.stop();
});

describe('checkout with the account balance', () => {
  const browser = useBrowser();

  it('the demo member pays a master workshop with balance: the balance covers it, nothing left to pay, the order paid', async () => {
    const workshop = await buyable(server.url, token, 'workshop');
    const before = await balanceOf(server.url, token);
    expect(before).toBeGreaterThanOrEqual(workshop.memberPriceCents!);
    const { page } = await browser.newPage({ baseURL: server.url });
    await logInPage(page);
    await page.goto(`/agreement/payagreement?id=${workshop.id}`);
    await page.locator('form[data-checkout-reviewing]').waitFor();
    expect(await page.locator('[data-balance]').getAttribute('data-balance')).toBe(String(before));
    await page.locator('[data-balance-toggle]').click();
    // re-priced on the server: the balance takes the whole member price
    await expect.poll(() => page.locator('[data-amount-to-pay]').innerText()).toBe(formatYuan(0));
    expect(await page.locator('[data-balance-used]').innerText()).toBe(`-${formatYuan(workshop.memberPriceCents!)}`);
    await reviewAndAgree(page);
    await page.locator('[data-action="pay"]').click();
    await page.waitForURL((u) => u.pathname === '/payf');
    await page.locator('[data-payment-result="paid"]').waitFor();
    const orderNo = new URL(page.url()).searchParams.get('orderNo')!;
    const order = (await myOrders(server.url, token)).find((o) => o.orderNo === orderNo)!;
    expect(order).toMatchObject({ state: 'paid', goodsId: workshop.id, balanceUsedCents: workshop.memberPriceCents, amountToPayCents: 0 });
    expect(await balanceOf(server.url, token)).toBe(before - workshop.memberPriceCents!);
    // what was bought shows on the success page
    expect(await page.locator('[data-goods-name]').innerText()).toBe(workshop.name);
  });

  it('a double tap on pay creates one order and charges once', async () => {
    const open = await buyable(server.url, token, 'open');
    const price = (await apiCall<{ priceCents: number }>(server.url, 'POST', '/orders/quote', { token, body: { goodsId: open.id } })).data
      .priceCents;
    const ordersBefore = (await myOrders(server.url, token)).length;
    const before = await balanceOf(server.url, token);
    expect(before).toBeGreaterThanOrEqual(price);
    const { page } = await browser.newPage({ baseURL: server.url });
    await logInPage(page);
    await page.goto(`/agreement/payagreement?id=${open.id}`);
    await page.locator('form[data-checkout-reviewing]').waitFor();
    // logged in outside the messaging app (no open id bound): WeChat Pay is listed, disabled, with the reason
    const wechat = page.locator('[data-method="wechat"]');
    expect(await wechat.getAttribute('data-method-unavailable')).toBe('40012');
    expect(await wechat.locator('input').isDisabled()).toBe(true);
    expect(await wechat.locator('[data-method-unavailable-reason]').innerText()).toBe('请在微信中打开并登录后使用微信支付');
    // the balance is the one switch, not a way to pay among the providers (decision 038)
    expect(await page.locator('[data-method="balance"]').count()).toBe(0);
    await page.locator('[data-balance-toggle]').click();
    await expect.poll(() => page.locator('[data-amount-to-pay]').innerText()).toBe(formatYuan(0));
    const used = (await page.locator('[data-balance-used]').innerText()).replace(/^-/, '');
    expect(await page.locator('[data-balance-effect]').innerText()).toBe(`余额支付全部 ${used}`);
    // the pay button asks for the agreement until it is ticked, then says what it pays
    expect(await page.locator('[data-action="pay"]').innerText()).toBe('请先同意《购买协议》');
    expect(await page.locator('[data-action="pay"]').getAttribute('aria-disabled')).toBe('true');
    await reviewAndAgree(page);
    expect(await page.locator('[data-action="pay"]').innerText()).toBe(`用余额支付 ${used}`);
    await page.locator('[data-action="pay"]').dblclick();
    await page.waitForURL((u) => u.pathname === '/payf');
    await page.locator('[data-payment-result="paid"]').waitFor();
    const orders = await myOrders(server.url, token);
    expect(orders.length).toBe(ordersBefore + 1);
    expect(orders[0]).toMatchObject({ state: 'paid', payMethod: 'balance', goodsId: open.id });
    expect(await balanceOf(server.url, token)).toBe(before - price);
  });
});
