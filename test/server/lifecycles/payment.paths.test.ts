import { and, asc, eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { paymentMachine } from '../../../machines/domain/payment.machine';
import { paymentAttempts, payments, payStandInOrders, refunds } from '../../../src/server/db/schema/index';
import { alipayNotification } from '../../../src/server/gateways/payments/alipay-standin';
import { cardsOf, create, newGoods, newMember, newStaff, orderRow, pay } from '../orders/support';
import { startTestServer } from '../support/harness';
import { accepted, defineServerPaths } from '../support/server-paths';

/**
 * The provider payment chart (decision 013) against the server: the first payment recorded for an
 * order's Alipay trade, from the provider's signed notification (the stand-in's /simulate delivers it
 * to /api/pay/notify/alipay): money for the order (paid), a failed trade (failed), a paid answer with
 * the wrong amount by the provider's own account of the trade (mismatch: its notification makes us ask,
 * and its query answer is recorded and refunded), and money for an order already paid by WeChat Pay
 * meanwhile (needs_refund, refunded: a late notification for the closed Alipay trade, signed with the stand-in's keys).
 * No endpoint shows a payment's status to the member; each state is read from the payments table and
 * checked through what it promises: the order's state, the card issued or not, and the staff list of
 * payments to refund (GET /api/staff/payments/needs-refund).
 */
const s = await startTestServer({ seed: true });

interface Payment {
  token: string;
  accountId: number;
  orderNo: string;
  staff: string;
}

const outTradeNo = (w: Payment) => `${w.orderNo}-1`;
const simulate = (w: Payment, outcome: 'pay' | 'fail', tamper?: 'amount') =>
  s
    .call('POST', '/api/dev/pay/alipay/simulate', { body: { outTradeNo: outTradeNo(w), outcome, tamper } })
    .then((r) => accepted(r, `simulate ${outcome}`));

const attempt = async (w: Payment) =>
  (
    await s.deps.db
      .select()
      .from(paymentAttempts)
      .where(eq(paymentAttempts.outTradeNo, outTradeNo(w)))
  )[0]!;

/** The first payment recorded for the order's Alipay trade, if any. */
async function payment(w: Payment) {
  const a = await attempt(w);
  const [p] = await s.deps.db.select().from(payments).where(eq(payments.attemptId, a!.id)).orderBy(asc(payments.id)).limit(1);
  return p;
}
async function toRefund(w: Payment): Promise<boolean> {
  const list = (await s.call('GET', '/api/staff/payments/needs-refund', { token: w.staff })).body.data as Array<{ outTradeNo: string }>;
  return list.some((p) => p.outTradeNo === outTradeNo(w));
}
const orderState = async (w: Payment) => (await orderRow(s, w.orderNo)).state;

defineServerPaths<Payment>(s, {
  machine: paymentMachine,
  record: "a provider's payment",
  async start() {
    const m = await newMember(s);
    const g = await newGoods(s);
    const r = await create(s, m.token, { goodsId: g.id });
    accepted(r, 'create');
    const w = { token: m.token, accountId: m.id, orderNo: r.body.data.orderNo as string, staff: (await newStaff(s)).token };
    const p = await pay(s, m.token, w.orderNo, 'alipay');
    accepted(p, 'pay by Alipay');
    expect((await s.app.request(p.body.data.payment.url)).status).toBe(200);
    return w;
  },
  events: {
    'payment.applied': (w) => simulate(w, 'pay'),
    'payment.failed': (w) => simulate(w, 'fail'),
    // the provider's own record took another amount: its notification and its query answer say so (decision 021: a query's wrong amount is recorded)
    'payment.mismatched': async (w) => {
      await s.deps.db
        .update(payStandInOrders)
        .set({ amountCents: sql`${payStandInOrders.amountCents} + 1` })
        .where(eq(payStandInOrders.outTradeNo, outTradeNo(w)));
      await simulate(w, 'pay');
    },
    // paid by WeChat Pay meanwhile (which closed the Alipay trade), then Alipay's late notification of money taken
    'payment.unwanted': async (w) => {
      const wechat = await pay(s, w.token, w.orderNo, 'wechat');
      accepted(wechat, 'pay by WeChat Pay instead');
      accepted(
        await s.call('POST', '/api/dev/pay/wechat/simulate', { body: { prepayId: wechat.body.data.payment.prepayId, outcome: 'pay' } }),
        'WeChat Pay paid',
      );
      const [trade] = await s.deps.db
        .select()
        .from(payStandInOrders)
        .where(and(eq(payStandInOrders.provider, 'alipay'), eq(payStandInOrders.outTradeNo, outTradeNo(w))));
      const body = alipayNotification(
        { ...trade!, state: 'TRADE_SUCCESS', paidAt: s.clock.now() },
        s.deps.gateways.payments.standIn!.alipay,
        s.clock.now(),
      );
      const res = await s.app.request('/api/pay/notify/alipay', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
      expect(await res.text()).toBe('success');
    },
  },
  async read(w) {
    // no endpoint shows a payment's status: the promises below check it through the API
    const status = (await payment(w))?.status ?? 'none';
    return { stored: status, shown: status };
  },
  states: {
    // nothing recorded: the order waits for the provider
    none: async (w) => {
      expect(await orderState(w)).toBe('paying');
      expect(await toRefund(w)).toBe(false);
    },
    // the order took the money: paid by Alipay, its card issued once
    paid: async (w) => {
      expect(await orderRow(s, w.orderNo)).toMatchObject({ state: 'paid', payMethod: 'alipay' });
      expect((await attempt(w)).state).toBe('paid');
      expect((await payment(w))?.amountCents).toBe((await orderRow(s, w.orderNo)).amountToPayCents);
      expect(await cardsOf(s, w.accountId)).toHaveLength(1);
      expect(await toRefund(w)).toBe(false);
    },
    // the trade failed: nothing collected by it, nothing to refund; the order's payment failed (unless paid another way since)
    failed: async (w) => {
      const o = await orderRow(s, w.orderNo);
      expect((await attempt(w)).state, 'the provider said the trade failed').toBe('failed');
      if (o.payMethod === 'alipay') expect(o.state).toBe('payment_failed');
      expect(o.payMethod === 'alipay' && o.state === 'paid', 'not paid by Alipay').toBe(false);
      expect(await toRefund(w)).toBe(false);
    },
    // the wrong amount is never applied: its trade is over, the order payable again, nothing issued; the money refunded in full
    mismatch: async (w) => {
      // payable again: failed while it is the Alipay trade's, paid once if the member paid another way since
      const o = await orderRow(s, w.orderNo);
      if (o.payMethod === 'alipay') expect(o.state).toBe('payment_failed');
      else expect(o).toMatchObject({ state: 'paid', payMethod: 'wechat' });
      expect((await attempt(w)).state, 'the trade took money: it is over').toBe('paid');
      const p = (await payment(w))!;
      expect(p.amountCents).not.toBe((await orderRow(s, w.orderNo)).amountToPayCents);
      expect(
        await s.deps.db.select({ amountCents: refunds.amountCents, cause: refunds.cause }).from(refunds).where(eq(refunds.paymentId, p.id)),
      ).toEqual([{ amountCents: p.amountCents, cause: 'amount_mismatch' }]);
      expect(await cardsOf(s, w.accountId)).toHaveLength(o.state === 'paid' ? 1 : 0);
      // money taken for another amount is the payer's: to refund (decision 021)
      expect(await toRefund(w)).toBe(true);
    },
    // money the order could not take: the order paid once (by WeChat Pay), this payment listed for staff to refund
    needs_refund: async (w) => {
      expect(await orderRow(s, w.orderNo)).toMatchObject({ state: 'paid', payMethod: 'wechat' });
      expect((await attempt(w)).state, 'the closed Alipay trade took the money').toBe('paid');
      expect(await cardsOf(s, w.accountId)).toHaveLength(1);
      expect(await toRefund(w)).toBe(true);
      const p = (await payment(w))!;
      expect(
        await s.deps.db.select({ amountCents: refunds.amountCents, cause: refunds.cause }).from(refunds).where(eq(refunds.paymentId, p.id)),
      ).toEqual([{ amountCents: p.amountCents, cause: 'unwanted_payment' }]);
    },
  },
});
