import { describe, expect, it } from 'vitest';
import { startTestServer } from '../support/harness';
import { assertMoneyInvariants } from '../support/money-invariants';
import { dev } from './refund-support';
import { create, credit, newGoods, newMember, newStaff, orderRow } from './support';

/**
 * Spec §8 "refund failure after cancellation" (decision 021): a cancel whose refund to a payer fails at
 * the provider still cancels (200); the order shows the failed refund with the provider's words, staff
 * see it in their attention list, and cancelling again answers 40021 instead of "cannot cancel".
 */
describe('refund failure after cancellation', async () => {
  const s = await startTestServer({ seed: true });

  it('a split part paid by WeChat Pay, the order cancelled, the refund refused: shown, listed for staff, 40021 on a second cancel', async () => {
    const m = await newMember(s);
    await credit(s, m.id, 50_000);
    const g = await newGoods(s);
    const no = (await create(s, m.token, { goodsId: g.id })).body.data.orderNo as string;
    const post = (path: string, body: unknown) => s.call('POST', `/api/orders/${path}`, { token: m.token, body });
    await post('split', { orderNo: no, parts: [10_000, 9_900] });
    const wx = await post('pay', { orderNo: no, method: 'wechat', partSeq: 2 });
    await s.call('POST', '/api/dev/pay/wechat/simulate', { body: { prepayId: wx.body.data.payment.prepayId, outcome: 'pay' } });
    expect((await dev(s, 'wechat', '/refunds/arrange', { outTradeNo: `${no}-1`, refuse: 'NOT_ENOUGH' })).status).toBe(200);
    const c = await post('cancel', { orderNo: no });
    expect(c.status).toBe(200);
    expect(c.body.data.state).toBe('cancelled');
    const d = (await s.call('GET', `/api/orders/detail?orderNo=${no}`, { token: m.token })).body.data;
    expect(d.refunds).toMatchObject([{ amountCents: 10_000, to: 'wechat', state: 'failed', cause: 'order_cancelled' }]);
    expect(d.refunds[0].failureMessage).toBeTruthy();
    expect((await post('cancel', { orderNo: no })).body.code).toBe(40021);
    const staff = await newStaff(s);
    const list = (await s.call('GET', '/api/staff/refunds/attention', { token: staff.token })).body.data as Array<{
      orderNo?: string;
      state: string;
      failureCode: string | null;
    }>;
    expect(list.some((r) => r.state === 'failed' && r.failureCode === 'NOT_ENOUGH')).toBe(true);
    expect((await orderRow(s, no)).state).toBe('cancelled');
    await assertMoneyInvariants(s.deps.db);
  });

  it('a cancelled order whose refunds all went back: a second cancel is the plain refusal (40003)', async () => {
    const m = await newMember(s);
    await credit(s, m.id, 1_000);
    const g = await newGoods(s);
    const no = (await create(s, m.token, { goodsId: g.id, useBalance: true })).body.data.orderNo as string;
    expect((await s.call('POST', '/api/orders/cancel', { token: m.token, body: { orderNo: no } })).status).toBe(200);
    expect((await s.call('POST', '/api/orders/cancel', { token: m.token, body: { orderNo: no } })).body.code).toBe(40003);
  });
});
