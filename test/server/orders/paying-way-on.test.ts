import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { paymentAttempts, payments, payStandInOrders, refunds } from '../../../src/server/db/schema/index';
import { alipayNotification } from '../../../src/server/gateways/payments/alipay-standin';
import { runDueJobs } from '../../../src/server/jobs/runner';
import { PAYMENT_QUERY_AFTER_MS } from '../../../src/server/services/orders/settle';
import { startTestServer } from '../support/harness';
import { assertMoneyInvariants } from '../support/money-invariants';
import { balance, cardsOf, couponRow, create, credit, giveCoupon, newGoods, newMember, orderRow, pay } from '../buying/support';

/**
 * A payment the member left unfinished (WeChat Pay's sheet closed, or its answer lost) leaves the order
 * paying with its trade open at the provider, whatever the provider has said so far. Such an order is
 * never a dead end (decision 092): it offers paying again (the same way answers the same trade, another
 * way closes it first) and cancelling (the trade asked about and closed first), and the balance and the
 * coupon it holds come back exactly once, however late or often the provider speaks afterwards.
 */
describe('a paying order always has a way on', async () => {
  const s = await startTestServer({ seed: true });
  const BALANCE = 5_000;
  const trade = async (outTradeNo: string) =>
    (await s.deps.db.select().from(payStandInOrders).where(eq(payStandInOrders.outTradeNo, outTradeNo)))[0]!;
  const detail = async (token: string, no: string) => (await s.call('GET', `/api/orders/detail?orderNo=${no}`, { token })).body.data;
  const attemptsOf = async (orderId: number) =>
    (await s.deps.db.select().from(paymentAttempts).where(eq(paymentAttempts.orderId, orderId)).orderBy(paymentAttempts.seq)).map((a) => [
      a.provider,
      a.state,
    ]);
  const alipayNotify = (body: string) =>
    s.app.request('/api/pay/notify/alipay', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });

  /** A member who used a coupon and ¥50 of balance, then closed WeChat Pay's sheet: no word from the provider. */
  async function leftWechatSheet() {
    const m = await newMember(s);
    await credit(s, m.id, BALANCE);
    const coupon = await giveCoupon(s, m.id);
    const g = await newGoods(s, { stock: 3 });
    const made = await create(s, m.token, { goodsId: g.id, couponId: coupon.id, useBalance: true });
    expect(made.body.code, JSON.stringify(made.body)).toBe(200);
    const no = made.body.data.orderNo as string;
    const started = await pay(s, m.token, no, 'wechat');
    expect(started.body.data.order.state).toBe('paying');
    expect(await balance(s, m.token), 'the balance is held by the order').toBe(0);
    expect((await couponRow(s, coupon.id)).state, 'the coupon is held by the order').not.toBe('unused');
    return { m, g, no, coupon, prepay: started.body.data.payment };
  }

  it('offers paying again and cancelling at once, and the new purchase refused meanwhile points at an order that offers both', async () => {
    const { m, g, no } = await leftWechatSheet();
    const d = await detail(m.token, no);
    expect(d.state).toBe('paying');
    expect(d.actions).toEqual(['pay', 'cancel']);
    // the refusal of another purchase is about this order, which the member can act on
    expect((await create(s, m.token, { goodsId: g.id })).body.code).toBe(40001);
    // still so after the query job asked and the provider still waits for the payer
    s.clock.advance(PAYMENT_QUERY_AFTER_MS);
    await runDueJobs(s.deps);
    expect(await detail(m.token, no)).toMatchObject({ state: 'paying', actions: ['pay', 'cancel'] });
  });

  it('paying again by WeChat Pay answers the same prepaid trade; paying by Alipay closes it first; one card once paid', async () => {
    const { m, no, prepay } = await leftWechatSheet();
    const again = await pay(s, m.token, no, 'wechat');
    expect(again.body.data.payment, 'the same trade, opened again').toEqual(prepay);
    const alipay = await pay(s, m.token, no, 'alipay');
    expect(alipay.body.data.order).toMatchObject({ state: 'paying', payMethod: 'alipay' });
    const o = await orderRow(s, no);
    expect(await attemptsOf(o.id)).toEqual([
      ['wechat', 'closed'],
      ['alipay', 'open'],
    ]);
    expect((await trade(`${no}-1`)).state, 'closed at WeChat Pay: it can never be paid').toBe('CLOSED');
    expect((await s.app.request(alipay.body.data.payment.url)).status).toBe(200);
    await s.call('POST', '/api/dev/pay/alipay/simulate', { body: { outTradeNo: `${no}-2`, outcome: 'pay' } });
    expect((await orderRow(s, no)).state).toBe('paid');
    expect(await cardsOf(s, m.id)).toHaveLength(1);
    await assertMoneyInvariants(s.deps.db);
  });

  it('cancelling closes the trade at the provider, gives back the balance and the coupon once; a late "paid" after it is refunded, once however often it comes', async () => {
    const { m, no, coupon } = await leftWechatSheet();
    // the member switched to Alipay and left its cashier open too
    const alipay = await pay(s, m.token, no, 'alipay');
    expect((await s.app.request(alipay.body.data.payment.url)).status).toBe(200);
    const cancelled = await s.call('POST', '/api/orders/cancel', { token: m.token, body: { orderNo: no } });
    expect(cancelled.body.code, JSON.stringify(cancelled.body)).toBe(200);
    const o = await orderRow(s, no);
    expect(o.state).toBe('cancelled');
    expect(await attemptsOf(o.id)).toEqual([
      ['wechat', 'closed'],
      ['alipay', 'closed'],
    ]);
    expect((await trade(`${no}-2`)).state, 'closed at Alipay too').toBe('TRADE_CLOSED');
    expect(await balance(s, m.token), 'the balance back').toBe(BALANCE);
    expect((await couponRow(s, coupon.id)).state, 'the coupon back').toBe('unused');
    expect((await detail(m.token, no)).actions).toEqual([]);
    // cancelling again changes nothing
    await s.call('POST', '/api/orders/cancel', { token: m.token, body: { orderNo: no } });
    expect(await balance(s, m.token)).toBe(BALANCE);

    // Alipay says, late, that the closed trade was paid: recorded once, refunded in full, the order stays cancelled
    const paidNotice = async () =>
      alipayNotification(
        { ...(await trade(`${no}-2`)), state: 'TRADE_SUCCESS', providerTxnId: `2026${no.slice(-12)}`, paidAt: s.clock.now() },
        s.deps.gateways.payments.standIn!.alipay,
        s.clock.now(),
      );
    for (let i = 0; i < 3; i++) expect(await (await alipayNotify(await paidNotice())).text()).toBe('success');
    const late = await s.deps.db.select().from(payments).where(eq(payments.orderId, o.id));
    const provider = late.filter((p) => p.provider === 'alipay');
    expect(provider.map((p) => [p.status, p.amountCents])).toEqual([['needs_refund', o.amountToPayCents]]);
    expect(await s.deps.db.select().from(refunds).where(eq(refunds.paymentId, provider[0]!.id))).toHaveLength(1);
    expect((await orderRow(s, no)).state).toBe('cancelled');
    expect(await cardsOf(s, m.id)).toHaveLength(0);
    expect(await balance(s, m.token), 'the balance came back once').toBe(BALANCE);
    expect((await couponRow(s, coupon.id)).state).toBe('unused');
    await assertMoneyInvariants(s.deps.db);
  });
});
