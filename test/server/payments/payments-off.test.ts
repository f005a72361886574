import { describe, expect, it } from 'vitest';
import { startTestServer } from '../support/harness';
import { create, newGoods, newMember, orderRow, pay } from '../orders/support';

/**
 * Production without payment credentials (decision 005): the providers are off, never faked. Members
 * see only the balance; a provider payment is refused; the notify URLs do not exist.
 */
describe('payments off (no provider credentials)', async () => {
  const s = await startTestServer({ seed: true, config: { payments: { wechat: { provider: 'off' }, alipay: { provider: 'off' } } } });

  it('GET /pay/methods answers only balance, and no stand-in', async () => {
    const r = await s.call('GET', '/api/pay/methods');
    expect(r.body.data).toEqual({ methods: ['balance'], standIn: false, unavailable: [] });
  });

  it('POST /orders/pay by WeChat Pay or Alipay is refused (40005, naming the method); the order stays unpaid', async () => {
    const m = await newMember(s);
    const g = await newGoods(s);
    const no = (await create(s, m.token, { goodsId: g.id })).body.data.orderNo as string;
    for (const method of ['wechat', 'alipay']) {
      const r = await pay(s, m.token, no, method);
      expect([r.status, r.body.code, r.body.field]).toEqual([400, 40005, 'method']);
    }
    expect((await orderRow(s, no)).state).toBe('unpaid');
  });

  it('the notify URLs answer 404, whatever is posted', async () => {
    for (const provider of ['wechat', 'alipay']) {
      const r = await s.call('POST', `/api/pay/notify/${provider}`, {
        raw: 'trade_status=TRADE_SUCCESS&out_trade_no=O1-1',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(r.status).toBe(404);
    }
  });
});
