import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatYuan } from '../../src/domain/money';
import { gotoHydrated, startOwnServer, useBrowser } from './support/browser';
import { apiCall, buyable, logInFromMessagingApp, myCards, myOrders } from './support/checkout';
import type { RunningServer } from './support/server';

/** The demo front-desk staff (seed/people.ts). */
const STAFF = { phone: '13800000005', password: 'staff1234' };

let server: RunningServer;
beforeAll(async () => {
  // a fresh seed: this file buys a card and refunds it
  server = await startOwnServer();
});
afterAll(async () => {
  await server?.stop();
});

const text = async (page: Page, selector: string) => (await page.locator(selector).innerText()).trim();

describe('card refund in the browser (decisions 030, 031)', () => {
  const { newPage } = useBrowser();

  it("a member asks for a refund of a card paid by WeChat Pay, staff approve, the stand-in's refund notification arrives and the order shows refund done", async () => {
    const { page } = await newPage({ baseURL: server.url });
    // in the messaging app (the open id is WeChat Pay's payer); the card bought and paid with WeChat Pay
    const token = await logInFromMessagingApp(page, `o_e2e_refund_${Date.now()}`);
    const goods = await buyable(server.url, token, 'card', (g) => g.cardType === 'count');
    const before = new Set((await myCards(server.url, token)).map((c) => c.id));
    const created = await apiCall<{ orderNo: string }>(server.url, 'POST', '/orders/create', {
      token,
      body: { goodsId: goods.id, agreementAccepted: true },
    });
    expect(created.code).toBe(200);
    const orderNo = created.data.orderNo;
    const started = await apiCall<{ payment: { prepayId: string } }>(server.url, 'POST', '/orders/pay', {
      token,
      body: { orderNo, method: 'wechat' },
    });
    expect(started.code).toBe(200);
    expect(
      (await apiCall(server.url, 'POST', '/dev/pay/wechat/simulate', { body: { prepayId: started.data.payment.prepayId, outcome: 'pay' } }))
        .code,
    ).toBe(200);
    const order = (await myOrders(server.url, token)).find((o) => o.orderNo === orderNo)!;
    expect(order.state).toBe('paid');
    const card = (await myCards(server.url, token)).find((c) => !before.has(c.id))!;
    // WeChat Pay will take its time with the refund: processing until it settles it and notifies
    const outTradeNo = `${orderNo}-1`;
    expect(
      (await apiCall(server.url, 'POST', '/dev/pay/wechat/refunds/arrange', { body: { outTradeNo, status: 'processing' } })).code,
    ).toBe(200);

    // the card page offers the refund; its page shows the policy and the amount (all of it: never used)
    await gotoHydrated(page, `/mine/carddetail?id=${card.id}`);
    await page.locator('[data-action=refund]').click();
    await page.waitForURL((u) => u.pathname === '/mine/refund' && u.searchParams.get('id') === String(card.id));
    await page.locator('[data-refund-policy]').waitFor();
    expect(await text(page, '[data-refund-amount]')).toBe(formatYuan(order.amountToPayCents));
    expect(await page.locator('[data-action=refund-submit]').isDisabled()).toBe(true);
    await page.locator('label:has(input[name=agreed])').first().click();
    await page.locator('[data-action=refund-submit]').click();
    // asked once, naming the card and the amount back
    const ask = page.getByText(/^确定为「.+」申请退款吗？/);
    expect(await ask.textContent()).toContain(`可退${formatYuan(order.amountToPayCents)}`);
    await page.getByRole('button', { name: '确定申请退款' }).click();
    await expect.poll(() => page.locator('[data-refund-state]').getAttribute('data-refund-state'), { timeout: 10_000 }).toBe('pending');

    // the front desk approves it in the staff console
    const desk = await newPage({ baseURL: server.url });
    const login = await desk.page
      .context()
      .request.post('/api/oauth/login', { data: { username: STAFF.phone, password: STAFF.password, loginType: 'password' } });
    expect(((await login.json()) as { code: number }).code).toBe(200);
    await gotoHydrated(desk.page, '/staff/cardRefunds');
    const request = desk.page.locator('[data-card-refund]', { hasText: orderNo });
    await request.waitFor();
    await request.locator('[data-action=card-refund-approve]').click();
    // the confirm says what goes back and how before anything is sent (decision 102)
    const asked = desk.page.getByRole('dialog');
    await expect.poll(() => asked.innerText()).toContain(`共退${formatYuan(order.amountToPayCents)}`);
    await asked.getByRole('button', { name: '确定退款' }).click();
    const decided = desk.page.locator('[data-card-refund-decided][data-state=approved]', { hasText: card.name });
    await decided.waitFor();
    expect(await decided.innerText()).toContain(`已通过 · ${formatYuan(order.amountToPayCents)} · 退款中`);
    expect(await decided.locator('[data-decided-by]').innerText()).toContain('处理人：王芳');

    // the member looks again: approved, the money on its way
    await page.locator('[data-action=refund-refresh]').click();
    await expect.poll(() => page.locator('[data-refund-state]').getAttribute('data-refund-state'), { timeout: 10_000 }).toBe('running');

    // WeChat Pay pays it back and its signed, encrypted REFUND.SUCCESS notification reaches the server
    const settled = await apiCall<{ state: string; deliveries: { status: number }[] }>(
      server.url,
      'POST',
      '/dev/pay/wechat/refunds/simulate',
      { body: { outTradeNo, outcome: 'success' } },
    );
    expect(settled.code).toBe(200);
    expect(settled.data.state).toBe('SUCCESS');
    // the server took it (WeChat Pay v3: 204 No Content)
    expect(settled.data.deliveries.map((d) => d.status)).toEqual([204]);
    await page.locator('[data-action=refund-refresh]').click();
    await expect.poll(() => page.locator('[data-refund-state]').getAttribute('data-refund-state'), { timeout: 10_000 }).toBe('done');
    expect(await text(page, '[data-refund-given]')).toBe(`退款金额：${formatYuan(order.amountToPayCents)}`);

    // the order shows refund done; the card is no longer valid
    await gotoHydrated(page, `/orderdetail?orderNo=${orderNo}`);
    expect(await page.locator('[data-order-state-label]').getAttribute('data-order-state-label')).toBe('refunded');
    expect(await text(page, '[data-order-state-label]')).toBe('退款完成');
    expect((await myCards(server.url, token)).find((c) => c.id === card.id)?.status).toBe('invalid');
  });
});
