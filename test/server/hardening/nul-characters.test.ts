import { describe, expect, it } from 'vitest';
import { startTestServer } from '../support/harness';
import { create, newGoods, newMember } from '../orders/support';

/**
 * A NUL character in a string: PostgreSQL refuses it in text, so it used to surface as a
 * 500 on the search, the schedule, order detail, order cancel and pay. It is bad input: a 400 naming
 * the field, in the member's language, and nothing written.
 */
describe('a NUL character anywhere in the input is bad input naming its field', async () => {
  const s = await startTestServer({ seed: true });

  it('in a query string: the search, the schedule and order detail answer 400 naming the parameter', async () => {
    const m = await newMember(s);
    const search = await s.call('GET', `/api/index/home/search?keywords=${encodeURIComponent('瑜\u0000伽')}`);
    expect([search.status, search.body.code, search.body.field]).toEqual([400, 70003, 'keywords']);
    const schedule = await s.call('GET', `/api/customers/classes/schedule?date=2026-11-21&keywords=a%00b`);
    expect([schedule.status, schedule.body.code, schedule.body.field]).toEqual([400, 70003, 'keywords']);
    const detail = await s.call('GET', '/api/orders/detail?orderNo=%00', { token: m.token, headers: { 'accept-language': 'en' } });
    expect([detail.status, detail.body.field, detail.body.message]).toEqual([400, 'orderNo', 'orderNo is not valid']);
  });

  it('in a JSON body: order cancel and pay answer 400 naming the field, and the order is as it was', async () => {
    const m = await newMember(s);
    const g = await newGoods(s, { stock: 3 });
    const made = await create(s, m.token, { goodsId: g.id });
    const no = made.body.data.orderNo as string;
    const cancel = await s.call('POST', '/api/orders/cancel', { token: m.token, body: { orderNo: `${no}\u0000` } });
    expect([cancel.status, cancel.body.code, cancel.body.field]).toEqual([400, 70003, 'orderNo']);
    const pay = await s.call('POST', '/api/orders/pay', {
      token: m.token,
      body: { orderNo: no, method: 'balance', note: ['ok', { deep: 'x\u0000' }] },
    });
    expect([pay.status, pay.body.code, pay.body.field]).toEqual([400, 70003, 'note.1.deep']);
    expect((await s.call('GET', `/api/orders/detail?orderNo=${no}`, { token: m.token })).body.data.state).toBe('unpaid');
  });

  it('a lone surrogate in a JSON string (not text: PostgreSQL would store it altered, and jsonb refuses it) is 400 naming the field', async () => {
    const m = await newMember(s);
    const g = await newGoods(s, { stock: 3 });
    const no = (await create(s, m.token, { goodsId: g.id })).body.data.orderNo as string;
    const cancel = await s.call('POST', '/api/orders/cancel', { token: m.token, raw: `{"orderNo":"${no}\\ud800"}` });
    expect([cancel.status, cancel.body.code, cancel.body.field]).toEqual([400, 70003, 'orderNo']);
    const low = await s.call('POST', '/api/orders/pay', {
      token: m.token,
      raw: `{"orderNo":"${no}","method":"balance","note":["ok",{"deep":"\\udc00x"}]}`,
    });
    expect([low.status, low.body.code, low.body.field]).toEqual([400, 70003, 'note.1.deep']);
    // a pair (an emoji written as two escapes) is text like any other
    const pair = await s.call('POST', '/api/orders/cancel', { token: m.token, raw: `{"orderNo":"${no}","reason":"\\ud83e\\uddd8"}` });
    expect(pair.status).toBe(200);
    expect((await s.call('GET', `/api/orders/detail?orderNo=${no}`, { token: m.token })).body.data.state).toBe('cancelled');
  });

  it('in a path segment: answers 400, never 500', async () => {
    const r = await s.call('GET', '/api/school/clubs/%00');
    expect(r.status).toBeLessThan(500);
  });
});
