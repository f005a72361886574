import { desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ORDER_PAY_WITHIN_MS } from '../../../src/domain/pricing';
import { jobs, payments, payStandInOrders } from '../../../src/server/db/schema/index';
import { alipayTimestamp } from '../../../src/server/gateways/payments/alipay-rsa2';
import { runDueJobs } from '../../../src/server/jobs/runner';
import { runOrderExpiry } from '../../../src/server/services/orders/expiry';
import { startTestServer } from '../support/harness';
import { balance, cardsOf, couponRow, create, credit, giveCoupon, goodsRow, newGoods, newMember, orderRow, pay } from './support';

/** Decision 008: an unpaid order not paid within 15 minutes is cancelled by a job on the injected clock. */
describe('order expiry', async () => {
  const s = await startTestServer({ seed: true });
  const wechatSim = (body: Record<string, unknown>) => s.call('POST', '/api/dev/pay/wechat/simulate', { body });

  async function unpaidWithHolds() {
    const m = await newMember(s);
    const g = await newGoods(s, { stock: 2 });
    const c = await giveCoupon(s, m.id, { minSpendCents: 0 });
    await credit(s, m.id, 1_000);
    const res = await create(s, m.token, { goodsId: g.id, couponId: c.id, useBalance: true });
    expect(res.body.data.expiresAt).toBe(new Date(s.clock.now().getTime() + ORDER_PAY_WITHIN_MS).toISOString());
    return { m, g, c, no: res.body.data.orderNo as string };
  }

  it('the job cancels an unpaid order at 15 minutes, not before; stock, coupon and balance come back', async () => {
    const { m, g, c, no } = await unpaidWithHolds();
    expect((await goodsRow(s, g.id)).stock).toBe(1);
    s.clock.advance(ORDER_PAY_WITHIN_MS - 1);
    await runDueJobs(s.deps);
    expect((await orderRow(s, no)).state).toBe('unpaid');
    s.clock.advance(1);
    await runDueJobs(s.deps);
    expect((await orderRow(s, no)).state).toBe('cancelled');
    expect((await goodsRow(s, g.id)).stock).toBe(2);
    expect(await couponRow(s, c.id)).toMatchObject({ state: 'unused', usedOrderId: null });
    expect(await balance(s, m.token)).toBe(1_000);
    // a second run changes nothing
    await runOrderExpiry(s.deps, { orderNo: no });
    expect(await balance(s, m.token)).toBe(1_000);
    expect((await goodsRow(s, g.id)).stock).toBe(2);
  });

  it('past its time an order cannot be paid (40009) even before the job ran; a new order cancels it first', async () => {
    const { m, g, no } = await unpaidWithHolds();
    s.clock.advance(ORDER_PAY_WITHIN_MS);
    await credit(s, m.id, 100_000);
    expect((await s.call('GET', `/api/orders/detail?orderNo=${no}`, { token: m.token })).body.data.actions).toEqual(['cancel']);
    const late = await pay(s, m.token, no, 'balance');
    expect([late.status, late.body.code]).toEqual([409, 40009]);
    expect((await pay(s, m.token, no, 'wechat')).body.code).toBe(40009);
    expect((await orderRow(s, no)).state).toBe('unpaid');
    // no 40001: the overdue order is cancelled in the same transaction, its unit back on the shelf
    const next = await create(s, m.token, { goodsId: g.id });
    expect(next.status).toBe(200);
    expect((await orderRow(s, no)).state).toBe('cancelled');
    expect((await goodsRow(s, g.id)).stock).toBe(1);
    expect(await cardsOf(s, m.id)).toHaveLength(0);
  });

  it('an expired order frees its place under "limit one per person": the member may order again', async () => {
    const m = await newMember(s);
    const g = await newGoods(s, { perPersonLimit: 1, stock: 1 });
    const first = (await create(s, m.token, { goodsId: g.id })).body.data.orderNo as string;
    expect((await create(s, m.token, { goodsId: g.id })).body.code).toBe(40001);
    s.clock.advance(ORDER_PAY_WITHIN_MS);
    await runDueJobs(s.deps);
    expect((await orderRow(s, first)).state).toBe('cancelled');
    const again = await create(s, m.token, { goodsId: g.id });
    expect(again.status).toBe(200);
    expect((await goodsRow(s, g.id)).stock).toBe(0);
  });

  it('paid wins: the provider took the money but no notification came; at expiry the job asks and settles paid', async () => {
    const m = await newMember(s);
    const g = await newGoods(s, { stock: 1 });
    const no = (await create(s, m.token, { goodsId: g.id })).body.data.orderNo as string;
    const started = await pay(s, m.token, no, 'wechat');
    await wechatSim({ prepayId: started.body.data.payment.prepayId, outcome: 'pay', deliveries: 0 });
    // the payment-query job is not run here: the expiry job alone must not cancel a paid order
    await s.deps.db.delete(jobs).where(eq(jobs.kind, 'payment.query'));
    s.clock.advance(ORDER_PAY_WITHIN_MS);
    await runOrderExpiry(s.deps, { orderNo: no });
    expect((await orderRow(s, no)).state).toBe('paid');
    expect(await cardsOf(s, m.id)).toHaveLength(1);
    expect((await goodsRow(s, g.id)).stock).toBe(0);
    // the late notification: same txn, nothing changes
    await wechatSim({ prepayId: started.body.data.payment.prepayId, outcome: 'pay' });
    expect(await cardsOf(s, m.id)).toHaveLength(1);
  });

  it('WeChat, the member closed the pay sheet (NOTPAY): at expiry the trade is closed at the provider and the order cancelled; the member can order again', async () => {
    const m = await newMember(s);
    const g = await newGoods(s, { stock: 1 });
    const c = await giveCoupon(s, m.id, { minSpendCents: 0 });
    await credit(s, m.id, 1_000);
    const no = (await create(s, m.token, { goodsId: g.id, couponId: c.id, useBalance: true })).body.data.orderNo as string;
    const started = await pay(s, m.token, no, 'wechat');
    const prepayId = started.body.data.payment.prepayId as string;
    // the provider was told when the order expires (time_expire), so it stops taking the payment then
    const [trade] = await s.deps.db.select().from(payStandInOrders).where(eq(payStandInOrders.prepayId, prepayId));
    expect(trade!.expiresAt).toEqual(new Date(Math.floor((s.clock.now().getTime() + ORDER_PAY_WITHIN_MS) / 1000) * 1000));
    expect(await s.deps.gateways.payments.wechat!.queryOrder(trade!.outTradeNo)).toMatchObject({ status: 'pending' });
    s.clock.advance(ORDER_PAY_WITHIN_MS);
    await runDueJobs(s.deps);
    expect((await orderRow(s, no)).state).toBe('cancelled');
    const [closed] = await s.deps.db.select().from(payStandInOrders).where(eq(payStandInOrders.prepayId, prepayId));
    expect(closed!.state).toBe('CLOSED');
    expect((await goodsRow(s, g.id)).stock).toBe(1);
    expect(await couponRow(s, c.id)).toMatchObject({ state: 'unused', usedOrderId: null });
    expect(await balance(s, m.token)).toBe(1_000);
    // the closed trade can no longer be paid
    expect((await wechatSim({ prepayId, outcome: 'pay' })).status).toBe(409);
    expect((await orderRow(s, no)).state).toBe('cancelled');
    expect(await cardsOf(s, m.id)).toHaveLength(0);
    // no 40001: the member buys again
    expect((await create(s, m.token, { goodsId: g.id })).status).toBe(200);
  });

  it('Alipay, the cashier was never opened (not_found): cancelled at expiry; the cashier opened afterwards refuses the expired trade', async () => {
    const m = await newMember(s);
    const g = await newGoods(s, { stock: 1 });
    const no = (await create(s, m.token, { goodsId: g.id })).body.data.orderNo as string;
    const started = await pay(s, m.token, no, 'alipay');
    const biz = JSON.parse(new URL(started.body.data.payment.url as string).searchParams.get('biz_content')!) as Record<string, string>;
    expect(biz.time_expire).toBe(alipayTimestamp(new Date(s.clock.now().getTime() + ORDER_PAY_WITHIN_MS)));
    s.clock.advance(ORDER_PAY_WITHIN_MS);
    await runDueJobs(s.deps);
    expect((await orderRow(s, no)).state).toBe('cancelled');
    expect((await goodsRow(s, g.id)).stock).toBe(1);
    const late = await s.app.request(started.body.data.payment.url as string);
    expect(late.status).toBe(400);
    expect(await late.text()).toContain('ACQ.TRADE_HAS_CLOSE');
    expect((await create(s, m.token, { goodsId: g.id })).status).toBe(200);
  });

  it('Alipay, the cashier open and waiting: closed at the provider (alipay.trade.close) and cancelled at expiry', async () => {
    const m = await newMember(s);
    const g = await newGoods(s, { stock: 1 });
    const no = (await create(s, m.token, { goodsId: g.id })).body.data.orderNo as string;
    const started = await pay(s, m.token, no, 'alipay');
    expect((await s.app.request(started.body.data.payment.url as string)).status).toBe(200);
    s.clock.advance(ORDER_PAY_WITHIN_MS);
    await runDueJobs(s.deps);
    expect((await orderRow(s, no)).state).toBe('cancelled');
    const [trade] = await s.deps.db
      .select()
      .from(payStandInOrders)
      .where(eq(payStandInOrders.provider, 'alipay'))
      .orderBy(desc(payStandInOrders.id))
      .limit(1);
    expect(trade!.state).toBe('TRADE_CLOSED');
    expect((await goodsRow(s, g.id)).stock).toBe(1);
  });

  it("paid at the provider between the expiry's query and its close: the close is refused, the order is settled paid, not cancelled", async () => {
    const m = await newMember(s);
    const g = await newGoods(s, { stock: 1 });
    const no = (await create(s, m.token, { goodsId: g.id })).body.data.orderNo as string;
    const started = await pay(s, m.token, no, 'wechat');
    await s.deps.db.delete(jobs).where(eq(jobs.kind, 'payment.query'));
    const wechat = s.deps.gateways.payments.wechat!;
    const query = wechat.queryOrder.bind(wechat);
    // the member pays in the moment after the provider answered "not paid" (the provider's clock a second behind ours)
    wechat.queryOrder = async (outTradeNo) => {
      const answer = await query(outTradeNo);
      wechat.queryOrder = query;
      s.clock.advance(-1_000);
      await wechatSim({ prepayId: started.body.data.payment.prepayId, outcome: 'pay', deliveries: 0 });
      s.clock.advance(1_000);
      return answer;
    };
    try {
      s.clock.advance(ORDER_PAY_WITHIN_MS);
      await runOrderExpiry(s.deps, { orderNo: no });
    } finally {
      wechat.queryOrder = query;
    }
    const o = await orderRow(s, no);
    expect(o.state).toBe('paid');
    expect(await cardsOf(s, m.id)).toHaveLength(1);
    expect(await s.deps.db.select().from(payments).where(eq(payments.orderId, o.id))).toHaveLength(1);
    expect((await goodsRow(s, g.id)).stock).toBe(0);
  });

  it('the expiry and a late notification racing agree: paid once, one payment, one card', async () => {
    const m = await newMember(s);
    const g = await newGoods(s, { stock: 1 });
    const no = (await create(s, m.token, { goodsId: g.id })).body.data.orderNo as string;
    const started = await pay(s, m.token, no, 'wechat');
    await wechatSim({ prepayId: started.body.data.payment.prepayId, outcome: 'pay', deliveries: 0 });
    await s.deps.db.delete(jobs).where(eq(jobs.kind, 'payment.query'));
    s.clock.advance(ORDER_PAY_WITHIN_MS);
    await Promise.all([
      runOrderExpiry(s.deps, { orderNo: no }),
      wechatSim({ prepayId: started.body.data.payment.prepayId, outcome: 'pay' }),
      runOrderExpiry(s.deps, { orderNo: no }),
    ]);
    const o = await orderRow(s, no);
    expect(o.state).toBe('paid');
    expect(await cardsOf(s, m.id)).toHaveLength(1);
    expect(await s.deps.db.select().from(payments).where(eq(payments.orderId, o.id))).toHaveLength(1);
    expect((await goodsRow(s, g.id)).stock).toBe(0);
  });

  it('an Alipay order closed by the provider (payment_failed) is cancelled at expiry after asking; its unit comes back', async () => {
    const m = await newMember(s);
    const g = await newGoods(s, { stock: 1 });
    const no = (await create(s, m.token, { goodsId: g.id })).body.data.orderNo as string;
    const res = await pay(s, m.token, no, 'alipay');
    expect((await s.app.request(res.body.data.payment.url)).status).toBe(200);
    await s.call('POST', '/api/dev/pay/alipay/simulate', { body: { outTradeNo: `${no}-1`, outcome: 'fail' } });
    expect((await orderRow(s, no)).state).toBe('payment_failed');
    s.clock.advance(ORDER_PAY_WITHIN_MS);
    await runDueJobs(s.deps);
    expect((await orderRow(s, no)).state).toBe('cancelled');
    expect((await goodsRow(s, g.id)).stock).toBe(1);
    expect(await cardsOf(s, m.id)).toHaveLength(0);
  });

  it('GET /pay/methods: balance always, the providers configured (stand-ins here)', async () => {
    const r = await s.call('GET', '/api/pay/methods');
    expect(r.body.data).toEqual({ methods: ['balance', 'wechat', 'alipay'], standIn: true, unavailable: [] });
  });
});
