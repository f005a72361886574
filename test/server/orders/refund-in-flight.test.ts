import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { paymentAttempts, payments, refunds } from '../../../src/server/db/schema/index';
import { askRefund, staffRefund } from '../cards/refund-support';
import { startTestServer } from '../support/harness';
import { allDueJobs, dev } from './refund-support';
import { cardsOf, create, newGoods, newMember, newStaff, orderRow } from './support';

/**
 * An order refunded to several payers (a split order, each part paid at WeChat Pay): while one
 * payer's refund is still on its way, the order reads refunding even when another's failed; only when
 * none is in flight any more does a failure make it refund failed (for staff).
 */
const s = await startTestServer({ seed: true });

describe('an order refund with refunds still on their way', () => {
  it('one refund failed, the other still processing: refunding; the other back too: refund failed', async () => {
    const m = await newMember(s);
    const staff = await newStaff(s);
    const g = await newGoods(s);
    const no = (await create(s, m.token, { goodsId: g.id })).body.data.orderNo as string;
    const post = (path: string, body: unknown) => s.call('POST', `/api/orders/${path}`, { token: m.token, body });
    expect((await post('split', { orderNo: no, parts: [10_000, 9_900] })).body.code).toBe(200);
    for (const partSeq of [2, 3]) {
      const r = await post('pay', { orderNo: no, method: 'wechat', partSeq });
      expect(r.body.code).toBe(200);
      await s.call('POST', '/api/dev/pay/wechat/simulate', { body: { prepayId: r.body.data.payment.prepayId, outcome: 'pay' } });
    }
    const o = await orderRow(s, no);
    expect(o.state).toBe('fully_paid');
    const trades = (
      await s.deps.db.select({ outTradeNo: paymentAttempts.outTradeNo }).from(paymentAttempts).where(eq(paymentAttempts.orderId, o.id))
    )
      .map((t) => t.outTradeNo)
      .sort();
    expect(trades).toHaveLength(2);
    for (const outTradeNo of trades)
      expect((await dev(s, 'wechat', '/refunds/arrange', { outTradeNo, status: 'processing' })).status).toBe(200);
    const [card] = await cardsOf(s, m.id);
    const asked = await askRefund(s, m.token, card!.id);
    expect(asked.body.code).toBe(200);
    expect((await staffRefund(s, staff.token, 'approve', asked.body.data.id as number)).body.code).toBe(200);
    expect((await orderRow(s, no)).state).toBe('refunding');
    // the first payer's refund is closed unpaid and, asked again, refused: failed
    await dev(s, 'wechat', '/refunds/arrange', { outTradeNo: trades[0], refuse: 'NOT_ENOUGH' });
    await dev(s, 'wechat', '/refunds/simulate', { outTradeNo: trades[0], outcome: 'closed' });
    await allDueJobs(s);
    const states = async () =>
      (
        await s.deps.db
          .select({ state: refunds.state, outTradeNo: paymentAttempts.outTradeNo })
          .from(refunds)
          .innerJoin(payments, eq(payments.id, refunds.paymentId))
          .innerJoin(paymentAttempts, eq(paymentAttempts.id, payments.attemptId))
          .where(eq(payments.orderId, o.id))
      )
        .sort((a, b) => a.outTradeNo.localeCompare(b.outTradeNo))
        .map((r) => r.state);
    expect(await states()).toEqual(['failed', 'processing']);
    // the second payer's money is still on its way: the order is refunding, not refund failed
    expect((await orderRow(s, no)).state).toBe('refunding');
    await dev(s, 'wechat', '/refunds/simulate', { outTradeNo: trades[1], outcome: 'success' });
    await allDueJobs(s);
    expect(await states()).toEqual(['failed', 'succeeded']);
    expect((await orderRow(s, no)).state).toBe('refund_failed');
  });
});
