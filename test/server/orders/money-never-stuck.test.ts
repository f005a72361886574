import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ORDER_PAY_WITHIN_MS } from '../../../src/domain/pricing';
import { paymentAttempts, payments, payStandInOrders, refunds } from '../../../src/server/db/schema/index';
import { alipayNotification } from '../../../src/server/gateways/payments/alipay-standin';
import { PaymentProviderError, type PaymentGateway } from '../../../src/server/gateways/payments/types';
import { runDueJobs } from '../../../src/server/jobs/runner';
import { runOrderExpiry } from '../../../src/server/services/orders/expiry';
import { PAYMENT_QUERY_AFTER_MS } from '../../../src/server/services/orders/settle';
import { startTestServer } from '../support/harness';
import { assertMoneyInvariants } from '../support/money-invariants';
import { cardsOf, create, newGoods, newMember, orderRow, pay } from './support';

/**
 * Money that arrives wrong is never stuck (decision 021): every payment a provider reports
 * ends applied to its part, or recorded and refunded in full to its payer; no order stays paying past
 * its expiry. Notifications are the stand-ins' own, signed with their keys; refunds are asked of the
 * stand-ins (test/server/orders/refunds.test.ts follows them to their end).
 */
describe('money that arrives wrong is never stuck', async () => {
  const s = await startTestServer({ seed: true });
  const wechatSim = (body: Record<string, unknown>) => s.call('POST', '/api/dev/pay/wechat/simulate', { body });
  const alipayKeys = () => s.deps.gateways.payments.standIn!.alipay;
  const alipayNotify = (body: string) =>
    s.app.request('/api/pay/notify/alipay', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
  const trade = async (outTradeNo: string) =>
    (await s.deps.db.select().from(payStandInOrders).where(eq(payStandInOrders.outTradeNo, outTradeNo)))[0]!;
  const paymentsOf = async (orderId: number) => s.deps.db.select().from(payments).where(eq(payments.orderId, orderId)).orderBy(payments.id);
  const refundOf = async (paymentId: number) =>
    s.deps.db
      .select({ amountCents: refunds.amountCents, cause: refunds.cause, key: refunds.key, state: refunds.state })
      .from(refunds)
      .where(eq(refunds.paymentId, paymentId));

  /** An order being paid by Alipay, the cashier open (WAIT_BUYER_PAY at the stand-in). */
  async function alipayPaying() {
    const m = await newMember(s);
    const g = await newGoods(s, { stock: 5 });
    const no = (await create(s, m.token, { goodsId: g.id })).body.data.orderNo as string;
    const started = await pay(s, m.token, no, 'alipay');
    expect((await s.app.request(started.body.data.payment.url)).status).toBe(200);
    return { m, g, no, outTradeNo: `${no}-1` };
  }
  /** The stand-in's signed notification that the trade was paid (whatever the stand-in's state since). */
  const paidNotice = async (outTradeNo: string) =>
    alipayNotification(
      { ...(await trade(outTradeNo)), state: 'TRADE_SUCCESS', providerTxnId: `2026${outTradeNo.slice(-12)}`, paidAt: s.clock.now() },
      alipayKeys(),
      s.clock.now(),
    );

  /** Replaces one gateway call until restored (the provider unreachable). */
  function unreachable(provider: 'wechat' | 'alipay', calls: Array<'queryOrder' | 'close'>) {
    const gw = s.deps.gateways.payments[provider] as PaymentGateway;
    const saved = { queryOrder: gw.queryOrder, close: gw.close };
    for (const c of calls) gw[c] = async () => Promise.reject(new PaymentProviderError(provider, 'NETWORK', 'unreachable'));
    return () => Object.assign(gw, saved);
  }

  it('a notification with another amount while the provider cannot be asked: nothing recorded, refused so it is sent again; the query job then settles it', async () => {
    const m = await newMember(s);
    const g = await newGoods(s);
    const no = (await create(s, m.token, { goodsId: g.id })).body.data.orderNo as string;
    const started = await pay(s, m.token, no, 'wechat');
    const restore = unreachable('wechat', ['queryOrder']);
    const sim = await wechatSim({ prepayId: started.body.data.payment.prepayId, outcome: 'pay', tamper: 'amount' });
    restore();
    expect(sim.body.data.deliveries[0].status, 'WeChat Pay is told to send it again').not.toBe(204);
    const o = await orderRow(s, no);
    expect(o.state).toBe('paying');
    expect(await paymentsOf(o.id)).toEqual([]);
    s.clock.advance(PAYMENT_QUERY_AFTER_MS);
    await runDueJobs(s.deps);
    expect((await orderRow(s, no)).state).toBe('paid');
    expect((await paymentsOf(o.id)).map((p) => [p.status, p.amountCents])).toEqual([['paid', o.amountToPayCents]]);
    expect(await cardsOf(s, m.id)).toHaveLength(1);
    await assertMoneyInvariants(s.deps.db);
  });

  it('a late payment for a cancelled order: recorded needs_refund and refunded in full; the order stays cancelled, nothing issued', async () => {
    const { m, no, outTradeNo } = await alipayPaying();
    s.clock.advance(ORDER_PAY_WITHIN_MS);
    await runOrderExpiry(s.deps, { orderNo: no });
    const o = await orderRow(s, no);
    expect(o.state).toBe('cancelled');
    const res = await alipayNotify(await paidNotice(outTradeNo));
    expect(await res.text()).toBe('success');
    const [p] = await paymentsOf(o.id);
    expect(p).toMatchObject({ status: 'needs_refund', amountCents: o.amountToPayCents });
    // asked of the provider at once (its stand-in never took this crafted payment, so it refuses: failed, for staff)
    expect(await refundOf(p!.id)).toMatchObject([{ amountCents: o.amountToPayCents, cause: 'unwanted_payment', key: `unwanted:${p!.id}` }]);
    expect((await orderRow(s, no)).state).toBe('cancelled');
    expect(await cardsOf(s, m.id)).toHaveLength(0);
    // the same notification again: one payment, one refund
    expect(await (await alipayNotify(await paidNotice(outTradeNo))).text()).toBe('success');
    expect(await paymentsOf(o.id)).toHaveLength(1);
    expect(await refundOf(p!.id)).toHaveLength(1);
    await assertMoneyInvariants(s.deps.db);
  });

  it('a second payment on a paid part (the Alipay cashier paid after WeChat Pay): recorded needs_refund and refunded; one card', async () => {
    const { m, no, outTradeNo } = await alipayPaying();
    const wechat = await pay(s, m.token, no, 'wechat');
    await wechatSim({ prepayId: wechat.body.data.payment.prepayId, outcome: 'pay' });
    const o = await orderRow(s, no);
    expect(o).toMatchObject({ state: 'paid', payMethod: 'wechat' });
    expect(await (await alipayNotify(await paidNotice(outTradeNo))).text()).toBe('success');
    const ps = await paymentsOf(o.id);
    expect(ps.map((p) => [p.provider, p.status])).toEqual([
      ['wechat', 'paid'],
      ['alipay', 'needs_refund'],
    ]);
    expect(await refundOf(ps[1]!.id)).toMatchObject([{ amountCents: o.amountToPayCents, cause: 'unwanted_payment' }]);
    expect(await cardsOf(s, m.id)).toHaveLength(1);
    await assertMoneyInvariants(s.deps.db);
  });

  it('a repeat (delivered twice): applied once, nothing to refund', async () => {
    const m = await newMember(s);
    const g = await newGoods(s);
    const no = (await create(s, m.token, { goodsId: g.id })).body.data.orderNo as string;
    const started = await pay(s, m.token, no, 'wechat');
    await wechatSim({ prepayId: started.body.data.payment.prepayId, outcome: 'pay', deliveries: 2 });
    const o = await orderRow(s, no);
    expect(o.state).toBe('paid');
    const ps = await paymentsOf(o.id);
    expect(ps.map((p) => p.status)).toEqual(['paid']);
    expect(await refundOf(ps[0]!.id)).toEqual([]);
    expect(await cardsOf(s, m.id)).toHaveLength(1);
  });

  it('an order the old mismatch bug left paying: the correct notification of the same transaction ends its trade, the order is payable again and expires; the money waits in a held refund', async () => {
    const { m, g, no, outTradeNo } = await alipayPaying();
    const o = await orderRow(s, no);
    const [attempt] = await s.deps.db.select().from(paymentAttempts).where(eq(paymentAttempts.outTradeNo, outTradeNo));
    const notice = await paidNotice(outTradeNo);
    const txn = new URLSearchParams(notice).get('trade_no')!;
    // as the old code recorded it and migration 0018 held it for staff
    const [old] = await s.deps.db
      .insert(payments)
      .values({
        orderId: o.id,
        partId: attempt!.partId,
        attemptId: attempt!.id,
        provider: 'alipay',
        providerTxnId: txn,
        amountCents: o.amountToPayCents + 1,
        status: 'mismatch',
        source: 'notify',
        createdAt: s.clock.now(),
      })
      .returning();
    await s.deps.db.insert(refunds).values({
      paymentId: old!.id,
      amountCents: old!.amountCents,
      cause: 'amount_mismatch',
      key: `migrated:${old!.id}`,
      state: 'held',
      createdAt: s.clock.now(),
    });
    expect(await (await alipayNotify(notice)).text()).toBe('success');
    expect((await orderRow(s, no)).state).toBe('payment_failed');
    expect((await s.deps.db.select().from(paymentAttempts).where(eq(paymentAttempts.id, attempt!.id)))[0]!.state).toBe('paid');
    expect(await paymentsOf(o.id)).toHaveLength(1);
    expect(await cardsOf(s, m.id)).toHaveLength(0);
    s.clock.advance(ORDER_PAY_WITHIN_MS);
    await runOrderExpiry(s.deps, { orderNo: no });
    expect((await orderRow(s, no)).state).toBe('cancelled');
    // no 40001: the member can buy again
    expect((await create(s, m.token, { goodsId: g.id })).status).toBe(200);
    await assertMoneyInvariants(s.deps.db);
  });

  it('the provider unreachable at the expiry: the trade is closed here and the order cancelled, not left paying; money it took before is refunded when it tells', async () => {
    const { m, no, outTradeNo } = await alipayPaying();
    // paid at the provider just before the expiry; its notification is late
    await s.call('POST', '/api/dev/pay/alipay/simulate', { body: { outTradeNo, outcome: 'pay', deliveries: 0 } });
    s.clock.advance(ORDER_PAY_WITHIN_MS);
    const restore = unreachable('alipay', ['queryOrder', 'close']);
    await runOrderExpiry(s.deps, { orderNo: no });
    restore();
    const o = await orderRow(s, no);
    expect(o.state).toBe('cancelled');
    expect((await s.deps.db.select().from(paymentAttempts).where(eq(paymentAttempts.outTradeNo, outTradeNo)))[0]!.state).toBe('closed');
    expect(await (await alipayNotify(alipayNotification(await trade(outTradeNo), alipayKeys(), s.clock.now()))).text()).toBe('success');
    const [p] = await paymentsOf(o.id);
    expect(p).toMatchObject({ status: 'needs_refund' });
    // refunded at the provider (its stand-in) right away
    expect(await refundOf(p!.id)).toMatchObject([{ amountCents: o.amountToPayCents, state: 'succeeded' }]);
    expect(await cardsOf(s, m.id)).toHaveLength(0);
    await assertMoneyInvariants(s.deps.db);
  });
});
