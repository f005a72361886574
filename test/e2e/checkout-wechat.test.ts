import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatYuan } from '../../src/domain/money';
import { gotoHydrated, startOwnServer, useBrowser, waitHydrated } from './support/browser';
import { shanghaiTomorrow } from './support/booking';
import {
  apiCall,
  buyable,
  logInFromMessagingApp,
  logInPage,
  MEMBER,
  memberToken,
  myCards,
  myOrders,
  reviewAndAgree,
} from './support/checkout';
import type { RunningServer } from './support/server';

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

describe('checkout with the messaging-app payment (WeChat Pay stand-in, decision 011)', () => {
  const browser = useBrowser();

  it('a visitor is sent to log in before buying, and comes back to the agreement', async () => {
    const card = await buyable(server.url, token, 'card', (g) => g.cardType === 'count');
    const { page } = await browser.newPage({ baseURL: server.url });
    const entry = `/agreement/payagreement?id=${card.id}`;
    await gotoHydrated(page, entry);
    await page.waitForURL((u) => u.pathname === `/login/${encodeURIComponent(entry)}`);
    await waitHydrated(page);
    await page.getByRole('button', { name: /密码登录/ }).click();
    await page.fill('input[name=phone]', MEMBER.phone);
    await page.fill('input[name=password]', MEMBER.password);
    await page.locator('label:has(input[name=agreement])').first().click();
    await page.locator('[data-testid=login-submit]').click();
    await page.waitForURL((u) => u.pathname === '/agreement/payagreement' && u.search === `?id=${card.id}`);
    await page.locator('form[data-checkout-reviewing]').waitFor();
    expect(await page.locator('[data-goods-name]').innerText()).toBe(card.name);
  });

  it('a member buys a count card with WeChat Pay (stand-in cashier, success page, order paid), finds it on /vipcard and books a class with it', async () => {
    const card = await buyable(server.url, token, 'card', (g) => g.cardType === 'count');
    const quote = (
      await apiCall<{ amountToPayCents: number; memberPriceCents: number }>(server.url, 'POST', '/orders/quote', {
        token,
        body: { goodsId: card.id },
      })
    ).data;
    const cardIdsBefore = new Set((await myCards(server.url, token)).map((c) => c.id));
    const { page } = await browser.newPage({ baseURL: server.url });
    // in the messaging app: the silent login binds the member's open id, WeChat Pay's payer (JSAPI)
    await logInFromMessagingApp(page, `o_e2e_checkout_${Date.now()}`);
    await page.goto(`/agreement/payagreement?id=${card.id}`);
    await reviewAndAgree(page);
    // the summary is the server's price
    expect(await page.locator('[data-amount-to-pay]').innerText()).toBe(formatYuan(quote.amountToPayCents));
    expect(await page.locator('[data-price-member]').innerText()).toBe(formatYuan(quote.memberPriceCents));
    await page.locator('[data-method="wechat"]').click();
    await page.locator('[data-action="pay"]').click();
    // the stand-in bridge hands over to the WeChat Pay stand-in's cashier (no WeixinJSBridge in this browser)
    await page.waitForURL((u) => u.pathname === '/api/dev/pay/wechat/cashier');
    // the cashier opened only because the server's pay-sign verified (else PAY_SIGN_INVALID)
    expect(new URL(page.url()).searchParams.get('paySign')).toBeTruthy();
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL((u) => u.pathname === '/payf');
    await page.locator('[data-payment-result="paid"]').waitFor();
    const orderNo = new URL(page.url()).searchParams.get('orderNo')!;
    const order = (await myOrders(server.url, token)).find((o) => o.orderNo === orderNo)!;
    expect(order).toMatchObject({ state: 'paid', payMethod: 'wechat', goodsId: card.id, amountToPayCents: quote.amountToPayCents });
    // a way back to the order, which shows it paid with nothing left to do
    await page.locator('[data-action="view-order"]').click();
    await page.waitForURL((u) => u.pathname === '/orderdetail' && u.searchParams.get('orderNo') === orderNo);
    expect(await page.locator('[data-order-state-label]').getAttribute('data-order-state-label')).toBe('paid');
    expect(await page.locator('[data-action="pay-order"], [data-action="cancel-order"]').count()).toBe(0);

    // the new card is among my cards on /vipcard, inactive until its first booking (spec §4)
    const issued = (await myCards(server.url, token)).filter((c) => !cardIdsBefore.has(c.id));
    expect(issued).toHaveLength(1);
    const bought = issued[0]!;
    expect(bought).toMatchObject({ name: card.name, status: 'inactive', validFrom: null });
    await gotoHydrated(page, '/vipcard?tab=mine');
    const row = page.locator(`[data-my-card="${bought.id}"]`);
    await row.waitFor();
    expect(await row.getAttribute('data-status')).toBe('inactive');
    expect(await row.innerText()).toContain(card.name);

    // its detail leads to the schedule; tomorrow is inside the level-1 member's window
    await row.click();
    await page.waitForURL((u) => u.pathname === '/mine/carddetail' && u.searchParams.get('id') === String(bought.id));
    await page.locator('[data-action="book-to-activate"]').click();
    await page.waitForURL((u) => u.pathname === '/takecourse/bookcourse');
    const tomorrow = shanghaiTomorrow();
    await page.locator(`[data-day="${tomorrow}"]`).click();
    await page.waitForURL((u) => u.searchParams.get('date') === tomorrow);
    // tomorrow's list (the previous day's may still be on screen while it loads)
    const cls = page.locator(`[data-schedule="${tomorrow}"] [data-class]:has([data-class-state=bookable])`).first();
    await cls.waitFor();
    const classId = Number(await cls.getAttribute('data-class'));
    await cls.click();
    await page.locator('[data-action=book]').click();
    await page.waitForURL((u) => u.pathname === '/takecourse/bookcourse/bookcourseconfirm');

    // the confirm step offers the new card; its dialog reminds that this booking activates it
    const choice = page.locator(`[data-card="${bought.id}"][data-usable=true]`);
    await choice.click();
    await page.locator('label:has([name=agreeNotice]), label:has-text("我已阅读并同意")').first().click();
    await page.locator('[data-action=submit-booking]').click();
    await page.locator('[data-reminder=will-activate]').waitFor();
    await page.getByRole('button', { name: '确定' }).last().click();
    await page.locator('[data-booking-result=booked]').waitFor();

    // the server booked it with that card: the card is in use from now on, one use spent
    const after = (await myCards(server.url, token)).find((c) => c.id === bought.id)!;
    expect(after.status).toBe('in_use');
    expect(after.validFrom).not.toBeNull();
    expect(after.usesLeft).toBe(bought.usesLeft! - 1);
    const booked = await apiCall<{ list: { cardId: number; state: string; class: { id: number } }[] }>(
      server.url,
      'GET',
      '/customers/classes/mine?scope=upcoming&pagenum=0&pagesize=50',
      { token },
    );
    expect(booked.data.list.find((b) => b.class.id === classId)).toMatchObject({ cardId: bought.id, state: 'booked' });
  });

  it('a second order while one is unpaid is refused with its code and a link to the unpaid order; that order can be paid from /orderdetail', async () => {
    const workshop = await buyable(server.url, token, 'workshop');
    const other = await buyable(server.url, token, 'open');
    const open = await apiCall<{ orderNo: string }>(server.url, 'POST', '/orders/create', {
      token,
      body: { goodsId: other.id, agreementAccepted: true },
    });
    expect(open.code).toBe(200);
    const { page, allowError } = await browser.newPage({ baseURL: server.url });
    // the refusal is a 409 the browser logs
    allowError(/status of 409/);
    await logInPage(page);
    await page.goto(`/agreement/payagreement?id=${workshop.id}`);
    await reviewAndAgree(page);
    await page.locator('[data-action="pay"]').click();
    await page.locator('form[data-checkout-reviewing] [data-unpaid-order]').waitFor();
    expect(await page.locator('[data-checkout-feedback]').innerText()).toContain('您有未支付的订单');
    await page.locator('[data-unpaid-order]').click();
    await page.waitForURL((u) => u.pathname === '/orderdetail' && u.searchParams.get('orderNo') === open.data.orderNo);
    expect(await page.locator('[data-order-state-label]').getAttribute('data-order-state-label')).toBe('unpaid');
    // pay it there with the mobile payment service: /payt hands over to the Alipay stand-in, which fails it
    await page.locator('[data-pay-panel="choosingMethod"] [data-method="alipay"]').click();
    // the app hands over to Alipay from /payt; on a loaded machine the redirect can leave before /payt's
    // data arrives and its page commits, so the handover page is the pay-order paths' check, not this one's
    await page.locator('[data-action="pay-order"]').click();
    await page.waitForURL((u) => u.pathname.startsWith('/api/dev/pay/alipay'));
    await page.getByRole('button', { name: 'Fail' }).click();
    // back on /payf (the return URL) until the order reads failed: then /pays, with the way back to the order
    await page.waitForURL((u) => u.pathname === '/pays' && u.searchParams.get('orderNo') === open.data.orderNo);
    await page.locator('[data-payment-result="failed"]').waitFor();
    expect((await myOrders(server.url, token)).find((o) => o.orderNo === open.data.orderNo)?.state).toBe('payment_failed');
    // pay again: the order's page, this time by balance
    await page.locator('[data-action="pay-again"]').click();
    await page.waitForURL((u) => u.pathname === '/orderdetail');
    await page.locator('[data-pay-panel="choosingMethod"] [data-method="balance"]').click();
    await page.locator('[data-action="pay-order"]').click();
    await page.waitForURL((u) => u.pathname === '/payf');
    await page.locator('[data-payment-result="paid"]').waitFor();
    expect((await myOrders(server.url, token)).find((o) => o.orderNo === open.data.orderNo)?.state).toBe('paid');
  });
});
