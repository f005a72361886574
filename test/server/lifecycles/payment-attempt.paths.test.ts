import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { paymentAttemptMachine } from '../../../machines/domain/payment-attempt.machine';
import { paymentAttempts, payments, payStandInOrders } from '../../../src/server/db/schema/index';
import { alipayNotification } from '../../../src/server/gateways/payments/alipay-standin';
import { cardsOf, create, newGoods, newMember, orderRow, pay } from '../orders/support';
import { startTestServer } from '../support/harness';
import { accepted, defineServerPaths } from '../support/server-paths';

/**
 * The payment attempt chart (decision 013) against the server, with Alipay's stand-in: the member
 * pays an order by Alipay and opens its cashier (attempt 1, open); the provider's signed notification
 * says paid or failed (POST /api/dev/pay/alipay/simulate delivers it to /api/pay/notify/alipay); paying
 * by WeChat Pay instead closes the Alipay trade first (attempt 1 closed). A paid answer after a failure
 * or a close (a real provider's late notification; the stand-in itself refuses to pay a closed trade)
 * is posted to the notify route signed with the stand-in's keys. Each state is read back from the
 * payment_attempts table (no endpoint shows an attempt; what it means is checked through
 * GET /orders/detail, the payments recorded and the provider's own trade).
 */
const s = await startTestServer({ seed: true });

interface Attempt {
  token: string;
  accountId: number;
  orderNo: string;
}

const outTradeNo = (w: Attempt) => `${w.orderNo}-1`;
const detail = async (w: Attempt) => (await s.call('GET', `/api/orders/detail?orderNo=${w.orderNo}`, { token: w.token })).body.data;
const simulate = (w: Attempt, outcome: 'pay' | 'fail') =>
  s
    .call('POST', '/api/dev/pay/alipay/simulate', { body: { outTradeNo: outTradeNo(w), outcome } })
    .then((r) => accepted(r, `simulate ${outcome}`));
async function attempt(w: Attempt) {
  const [a] = await s.deps.db
    .select()
    .from(paymentAttempts)
    .where(eq(paymentAttempts.outTradeNo, outTradeNo(w)));
  return a!;
}
async function trade(w: Attempt) {
  const [t] = await s.deps.db
    .select()
    .from(payStandInOrders)
    .where(and(eq(payStandInOrders.provider, 'alipay'), eq(payStandInOrders.outTradeNo, outTradeNo(w))));
  return t!;
}
async function paymentsOf(w: Attempt) {
  return (
    await s.deps.db
      .select()
      .from(payments)
      .where(eq(payments.attemptId, (await attempt(w)).id))
  ).map((p) => p.status);
}

defineServerPaths<Attempt>(s, {
  machine: paymentAttemptMachine,
  record: "an order's payment attempt",
  async start() {
    const m = await newMember(s);
    const g = await newGoods(s);
    const r = await create(s, m.token, { goodsId: g.id });
    accepted(r, 'create');
    const w = { token: m.token, accountId: m.id, orderNo: r.body.data.orderNo as string };
    const p = await pay(s, m.token, w.orderNo, 'alipay');
    accepted(p, 'pay by Alipay');
    // the member opens the mobile cashier: the provider knows the trade from then on
    expect((await s.app.request(p.body.data.payment.url)).status).toBe(200);
    return w;
  },
  events: {
    'provider.paid': async (w, from) => {
      if (from === 'open') return simulate(w, 'pay');
      // a late notification of money taken, with its own transaction id, signed as the provider signs it
      const t = await trade(w);
      const late = { ...t, state: 'TRADE_SUCCESS', paidAt: s.clock.now(), providerTxnId: `${t.providerTxnId}-late` };
      const body = alipayNotification(late, s.deps.gateways.payments.standIn!.alipay, s.clock.now());
      const res = await s.app.request('/api/pay/notify/alipay', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
      expect(await res.text()).toBe('success');
    },
    'provider.failed': (w) => simulate(w, 'fail'),
    // paying by another method closes the open trade at its provider first
    'attempt.close': async (w) => accepted(await pay(s, w.token, w.orderNo, 'wechat'), 'pay by WeChat Pay instead'),
  },
  async read(w) {
    const { state } = await attempt(w);
    return { stored: state, shown: state };
  },
  states: {
    // sent to the member, nothing settled: the order is paying by Alipay, the trade waits for the buyer
    open: async (w) => {
      expect(await detail(w)).toMatchObject({ state: 'paying', payMethod: 'alipay' });
      expect((await attempt(w)).closedAt).toBe(null);
      expect((await trade(w)).state).toBe('WAIT_BUYER_PAY');
      expect(await paymentsOf(w)).toEqual([]);
    },
    // the provider said it failed: recorded once, nothing collected; while it is the order's latest attempt, the order's payment failed
    failed: async (w) => {
      expect((await attempt(w)).closedAt).not.toBe(null);
      expect(await paymentsOf(w)).toEqual(['failed']);
      expect((await trade(w)).state).toBe('TRADE_CLOSED');
      const latest =
        (
          await s.deps.db
            .select()
            .from(paymentAttempts)
            .where(eq(paymentAttempts.orderId, (await orderRow(s, w.orderNo)).id))
        ).length === 1;
      if (latest) expect((await detail(w)).state).toBe('payment_failed');
      expect((await orderRow(s, w.orderNo)).payMethod === 'alipay' && (await detail(w)).state === 'paid', 'not paid by this attempt').toBe(
        false,
      );
    },
    // we closed it at the provider: it can never be paid there; the order pays by the other method
    closed: async (w) => {
      expect(await detail(w)).toMatchObject({ state: 'paying', payMethod: 'wechat' });
      expect((await attempt(w)).closedAt).not.toBe(null);
      expect((await trade(w)).state).toBe('TRADE_CLOSED');
      // the provider may confirm the close (a TRADE_CLOSED notification, recorded as failed); nothing was collected
      expect(await paymentsOf(w)).not.toContain('paid');
    },
    // the money was taken: the order is paid and its card issued once, whatever came before
    paid: async (w) => {
      expect((await detail(w)).state).toBe('paid');
      expect((await attempt(w)).closedAt).not.toBe(null);
      expect((await paymentsOf(w)).filter((p) => p === 'paid')).toHaveLength(1);
      expect(await cardsOf(s, w.accountId)).toHaveLength(1);
      expect((await orderRow(s, w.orderNo)).payMethod).toBe('alipay');
    },
  },
});
