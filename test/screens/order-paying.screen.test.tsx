// @vitest-environment jsdom
import { act } from '@testing-library/react';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { SimulatedClock } from 'xstate';
import { PAY_POLL_MS, PAY_RESULT_TIMEOUT_MS } from '../../machines/payment-order.machine';
import { setActorTimers } from '../../src/app/app-clock';
import { setPageLeaver } from '../../src/app/leave-page';
import { orders, paymentAttempts, payStandInOrders } from '../../src/server/db/schema/index';
import { runDueJobs } from '../../src/server/jobs/runner';
import { PAYMENT_QUERY_AFTER_MS } from '../../src/server/services/orders/settle';
import { balance, cardsOf, create, credit, newGoods, newMember, pay } from '../server/orders/support';
import { screen, startScreenHarness } from './support/screen-harness';

/**
 * An order whose payment was left unfinished (the member closed WeChat Pay's sheet, and the provider
 * has said nothing): its page and its result page always leave a way on (decision 092). /orderdetail
 * offers "continue paying" (the ways to pay, the same one or another) and "cancel" at once, instead of
 * sending the member to wait on /payf; /payf says what is true now: after its wait the payment is "not
 * confirmed yet", with "continue paying" and the order. The real screens and server.
 */
const h = await startScreenHarness({ seed: true });
afterEach(() => {
  setPageLeaver(undefined);
  setActorTimers(undefined);
});

const $ = <T extends Element = HTMLElement>(sel: string) => document.querySelector<T>(sel);
const PRICE = 19_900;

/** A member whose WeChat Pay trade for a new order is open (the sheet closed, no word from WeChat Pay). */
async function leftTheSheet() {
  const m = await newMember(h.server);
  const g = await newGoods(h.server);
  const orderNo = (await create(h.server, m.token, { goodsId: g.id })).body.data.orderNo as string;
  expect((await pay(h.server, m.token, orderNo, 'wechat')).body.data.order.state).toBe('paying');
  h.jar.setClientCookie('token', m.token);
  return { ...m, orderNo };
}
async function orderOf(orderNo: string) {
  const [o] = await h.server.deps.db.select().from(orders).where(eq(orders.orderNo, orderNo));
  const attempts = await h.server.deps.db
    .select()
    .from(paymentAttempts)
    .where(eq(paymentAttempts.orderId, o!.id))
    .orderBy(paymentAttempts.seq);
  return { ...o!, attempts: attempts.map((a) => [a.provider, a.state]) };
}
const standInTrade = async (outTradeNo: string) =>
  (await h.server.deps.db.select().from(payStandInOrders).where(eq(payStandInOrders.outTradeNo, outTradeNo)))[0];

describe("a paying order's page", () => {
  it('shows it paying with "continue paying" (the ways to pay) and "cancel", and stays on the page', async () => {
    const m = await leftTheSheet();
    const ui = await h.open(`/orderdetail?orderNo=${m.orderNo}`);
    await screen.findByRole('button', { name: '继续支付 ¥199' });
    expect($('[data-order-state-label]')!.textContent).toBe('支付中');
    expect(screen.getByText('支付尚未完成。如果您已经付款，请查看支付结果；也可以继续支付（可换一种方式）或取消订单。')).toBeTruthy();
    expect(document.querySelectorAll('input[name="method"]').length, 'the ways to pay').toBeGreaterThan(1);
    expect($('[data-action="cancel-order"]')).not.toBe(null);
    // it stays: the member is not sent to wait for a result that may never come
    await new Promise((r) => setTimeout(r, 50));
    expect(ui.path()).toBe(`/orderdetail?orderNo=${m.orderNo}`);
  });

  it('continue paying by another way (the balance): the WeChat Pay trade is closed first, the order paid once', async () => {
    const m = await leftTheSheet();
    await credit(h.server, m.id, PRICE);
    const ui = await h.open(`/orderdetail?orderNo=${m.orderNo}`);
    await screen.findByRole('button', { name: '继续支付 ¥199' });
    await ui.user.click($('[data-method="balance"] input')!);
    await ui.user.click(screen.getByRole('button', { name: '继续支付 ¥199' }));
    await ui.waitForPath(`/payf?orderNo=${m.orderNo}`);
    await screen.findByRole('heading', { name: '支付成功' });
    expect(document.title).toBe('支付成功');
    const o = await orderOf(m.orderNo);
    expect(o).toMatchObject({ state: 'paid', payMethod: 'balance', attempts: [['wechat', 'closed']] });
    expect((await standInTrade(`${m.orderNo}-1`))?.state, 'closed at WeChat Pay').toBe('CLOSED');
    expect(await cardsOf(h.server, m.id)).toHaveLength(1);
    expect(await balance(h.server, m.token)).toBe(0);
  });

  it('cancel: confirmed, the order is cancelled, its trade closed at WeChat Pay, and the page offers nothing more', async () => {
    const m = await leftTheSheet();
    const ui = await h.open(`/orderdetail?orderNo=${m.orderNo}`);
    await ui.user.click(await screen.findByRole('button', { name: '取消订单' }));
    await ui.user.click(await screen.findByRole('button', { name: '确定取消' }));
    await screen.findByText('已取消');
    expect(await orderOf(m.orderNo)).toMatchObject({ state: 'cancelled', attempts: [['wechat', 'closed']] });
    expect((await standInTrade(`${m.orderNo}-1`))?.state).toBe('CLOSED');
    expect($('[data-pay-panel]')).toBe(null);
    expect($('[data-action="cancel-order"]')).toBe(null);
  });
});

describe("a split order's part left unfinished", () => {
  it('its page offers continue paying for that part, and stays', async () => {
    const m = await newMember(h.server);
    const g = await newGoods(h.server);
    const orderNo = (await create(h.server, m.token, { goodsId: g.id })).body.data.orderNo as string;
    expect(
      (await h.server.call('POST', '/api/orders/split', { token: m.token, body: { orderNo, parts: [9_900, 10_000] } })).body.code,
    ).toBe(200);
    const started = await h.server.call('POST', '/api/orders/pay', { token: m.token, body: { orderNo, method: 'wechat', partSeq: 2 } });
    expect(started.body.code).toBe(200);
    h.jar.setClientCookie('token', m.token);
    // the split's shares are seq 2 (¥99) and 3 (¥100); the member's trade holds the first
    const ui = await h.open(`/orderdetail?orderNo=${orderNo}&partSeq=2`);
    await screen.findByRole('button', { name: '继续支付 ¥99' });
    await new Promise((r) => setTimeout(r, 50));
    expect(ui.path()).toBe(`/orderdetail?orderNo=${orderNo}&partSeq=2`);
  });
});

describe('/payf says what is true now', () => {
  /** The app's actor timers on a simulated clock, moved by the test. */
  function simulatedTimers() {
    const clock = new SimulatedClock();
    setActorTimers(clock);
    return (ms: number) => act(async () => clock.increment(ms));
  }

  it('still paying after the wait: "payment not confirmed yet", with continue paying (back on the order\'s page, the ways to pay) and the order', async () => {
    const advance = simulatedTimers();
    const m = await leftTheSheet();
    const ui = await h.open(`/payf?orderNo=${m.orderNo}`);
    await screen.findByRole('heading', { name: '正在确认支付结果…' });
    expect(document.title, 'the title says no success it does not know').toBe('正在确认支付结果');
    // the first answer (still paying) comes, then the wait runs out
    await new Promise((r) => setTimeout(r, 100));
    await advance(PAY_POLL_MS);
    await new Promise((r) => setTimeout(r, 100));
    await advance(PAY_RESULT_TIMEOUT_MS);
    await screen.findByRole('heading', { name: '支付尚未确认' });
    expect(document.title, 'the title says the same').toBe('支付尚未确认');
    expect($('[data-payment-result]')!.dataset.paymentResult).toBe('checking');
    expect($('[data-action="view-order"]')!.getAttribute('href')).toBe(`/orderdetail?orderNo=${m.orderNo}`);
    await ui.user.click(screen.getByRole('button', { name: '继续支付' }));
    await ui.waitForPath(`/orderdetail?orderNo=${m.orderNo}`);
    await screen.findByRole('button', { name: '继续支付 ¥199' });
    expect($('[data-action="cancel-order"]')).not.toBe(null);
    expect((await orderOf(m.orderNo)).state, 'nothing changed on the server').toBe('paying');
  });

  it('a failed payment says so and offers paying again; a cancelled order says it is cancelled', async () => {
    const m = await leftTheSheet();
    const [trade] = await h.server.deps.db
      .select()
      .from(payStandInOrders)
      .where(eq(payStandInOrders.outTradeNo, `${m.orderNo}-1`));
    await h.server.call('POST', '/api/dev/pay/wechat/simulate', { body: { prepayId: trade!.prepayId, outcome: 'fail' } });
    // WeChat Pay sends no notification of a failure: the query job learns it
    h.server.clock.advance(PAYMENT_QUERY_AFTER_MS);
    for (let ran = 0, batch = await runDueJobs(h.server.deps); batch > 0 && ran < 1000; batch = await runDueJobs(h.server.deps))
      ran += batch;
    expect((await orderOf(m.orderNo)).state).toBe('payment_failed');
    const ui = await h.open(`/payf?orderNo=${m.orderNo}`);
    await ui.waitForPath(`/pays?orderNo=${m.orderNo}`);
    await screen.findByRole('heading', { name: '支付失败' });
    expect(document.title).toBe('支付失败');
    expect(screen.getByRole('button', { name: '重新支付' })).toBeTruthy();

    const c = await leftTheSheet();
    await h.server.call('POST', '/api/orders/cancel', { token: c.token, body: { orderNo: c.orderNo } });
    const ui2 = await h.open(`/payf?orderNo=${c.orderNo}`);
    await ui2.waitForPath(`/orderdetail?orderNo=${c.orderNo}`);
    await screen.findByText('已取消');
  });
});
