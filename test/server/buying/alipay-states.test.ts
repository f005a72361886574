import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { payments, payStandInOrders } from '../../../src/server/db/schema/index';
import { alipayNotification } from '../../../src/server/gateways/payments/alipay-standin';
import { runDueJobs } from '../../../src/server/jobs/runner';
import { PAYMENT_QUERY_AFTER_MS } from '../../../src/server/services/orders/settle';
import { startTestServer } from '../support/harness';
import { cardsOf, create, newGoods, newMember, orderRow, pay } from './support';

/** Alipay trade states beyond success: WAIT_BUYER_PAY settles nothing; TRADE_CLOSED fails the payment. */
describe('Alipay WAIT_BUYER_PAY and TRADE_CLOSED', async () => {
  const s = await startTestServer({ seed: true });

  async function openedAlipay() {
    const m = await newMember(s);
    const g = await newGoods(s, { stock: 1 });
    const no = (await create(s, m.token, { goodsId: g.id })).body.data.orderNo as string;
    const res = await pay(s, m.token, no, 'alipay');
    expect((await s.app.request(res.body.data.payment.url)).status).toBe(200);
    const [trade] = await s.deps.db
      .select()
      .from(payStandInOrders)
      .where(eq(payStandInOrders.outTradeNo, `${no}-1`));
    expect(trade!.state).toBe('WAIT_BUYER_PAY');
    return { m, no, trade: trade! };
  }
  const notify = (body: string) =>
    s.app.request('/api/pay/notify/alipay', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
  const keys = () => s.deps.gateways.payments.standIn!.alipay;

  it('a signed WAIT_BUYER_PAY notification is acknowledged ("success") and changes nothing; a forged one is refused', async () => {
    const { m, no, trade } = await openedAlipay();
    const body = alipayNotification(trade, keys(), s.clock.now());
    expect(new URLSearchParams(body).get('trade_status')).toBe('WAIT_BUYER_PAY');
    const res = await notify(body);
    expect([res.status, await res.text()]).toEqual([200, 'success']);
    const o = await orderRow(s, no);
    expect(o.state).toBe('paying');
    expect(await s.deps.db.select().from(payments).where(eq(payments.orderId, o.id))).toHaveLength(0);
    expect(await cardsOf(s, m.id)).toHaveLength(0);
    const forged = await notify(alipayNotification(trade, keys(), s.clock.now(), 'signature'));
    expect(await forged.text()).toBe('fail');
    // the buyer then pays: the order is paid once
    await s.call('POST', '/api/dev/pay/alipay/simulate', { body: { outTradeNo: `${no}-1`, outcome: 'pay' } });
    expect((await orderRow(s, no)).state).toBe('paid');
    expect(await cardsOf(s, m.id)).toHaveLength(1);
  });

  it('the query job: WAIT_BUYER_PAY keeps the order paying and asks again; TRADE_CLOSED fails the payment', async () => {
    const { no } = await openedAlipay();
    s.clock.advance(PAYMENT_QUERY_AFTER_MS);
    await runDueJobs(s.deps);
    expect((await orderRow(s, no)).state).toBe('paying');
    // the trade closes at the provider, the notification is lost: the next query settles it failed
    await s.call('POST', '/api/dev/pay/alipay/simulate', { body: { outTradeNo: `${no}-1`, outcome: 'fail', deliveries: 0 } });
    expect((await orderRow(s, no)).state).toBe('paying');
    s.clock.advance(PAYMENT_QUERY_AFTER_MS);
    await runDueJobs(s.deps);
    const o = await orderRow(s, no);
    expect(o.state).toBe('payment_failed');
    expect((await s.deps.db.select().from(payments).where(eq(payments.orderId, o.id))).map((p) => [p.status, p.source])).toEqual([
      ['failed', 'query'],
    ]);
  });

  it('a TRADE_CLOSED for an order already paid (a refund closing the trade) never unpays it', async () => {
    const { no, trade } = await openedAlipay();
    await s.call('POST', '/api/dev/pay/alipay/simulate', { body: { outTradeNo: `${no}-1`, outcome: 'pay' } });
    expect((await orderRow(s, no)).state).toBe('paid');
    const closed = alipayNotification(
      { ...trade, state: 'TRADE_CLOSED', providerTxnId: `${trade.providerTxnId ?? 'T'}-closed` },
      keys(),
      s.clock.now(),
    );
    expect(await (await notify(closed)).text()).toBe('success');
    expect((await orderRow(s, no)).state).toBe('paid');
  });
});
