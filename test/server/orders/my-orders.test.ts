import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { OrderState } from '../../../src/domain/orders';
import { orders } from '../../../src/server/db/schema/index';
import { startTestServer } from '../support/harness';
import { create, credit, newGoods, newMember, pay } from './support';

/**
 * GET /api/orders/mine?status= (decision 096): the member's order list in tabs, against the real
 * server and database. Each tab answers exactly the member's orders in its states, newest first,
 * paged, with the total of the tab; another member's orders never show; a tab the list does not have
 * is a 400 naming `status`.
 */
describe('my orders by tab', async () => {
  const s = await startTestServer({ seed: true });
  const PRICE = 19_900;

  /** One order a minute apart (newest first is by when it was placed), left in `state`. */
  async function orderIn(m: { id: number; token: string }, state: OrderState): Promise<string> {
    s.clock.advance(60_000);
    const g = await newGoods(s);
    const orderNo = (await create(s, m.token, { goodsId: g.id })).body.data.orderNo as string;
    if (state === 'unpaid') return orderNo;
    if (state === 'paying') {
      expect((await pay(s, m.token, orderNo, 'wechat')).body.data.order.state).toBe('paying');
      return orderNo;
    }
    if (state === 'cancelled') {
      expect((await s.call('POST', '/api/orders/cancel', { token: m.token, body: { orderNo } })).body.data.state).toBe('cancelled');
      return orderNo;
    }
    await credit(s, m.id, PRICE);
    expect((await pay(s, m.token, orderNo, 'balance')).body.data.order.state).toBe('paid');
    // a refund's own path is the refund suites' (refund-in-flight.test.ts and others); the list only reads the stored state
    if (state !== 'paid') await s.deps.db.update(orders).set({ state }).where(eq(orders.orderNo, orderNo));
    return orderNo;
  }

  const list = async (token: string, query: string) => {
    const r = await s.call('GET', `/api/orders/mine${query}`, { token });
    expect(r.status, query).toBe(200);
    return r.body.data as { list: { orderNo: string; state: OrderState }[]; total: number; pagenum: number; pagesize: number };
  };
  const numbers = async (token: string, query: string) => (await list(token, query)).list.map((o) => o.orderNo);

  it('each tab holds its states only, newest first; all (or no status) holds every order', async () => {
    const m = await newMember(s);
    const other = await newMember(s);
    await orderIn(other, 'unpaid');
    const paid = await orderIn(m, 'paid');
    const cancelled = await orderIn(m, 'cancelled');
    const refunding = await orderIn(m, 'refunding');
    const refunded = await orderIn(m, 'refunded');
    const refundFailed = await orderIn(m, 'refund_failed');
    const cancelledLater = await orderIn(m, 'cancelled');
    const paying = await orderIn(m, 'paying');

    const every = [paying, cancelledLater, refundFailed, refunded, refunding, cancelled, paid];
    expect(await numbers(m.token, '')).toEqual(every);
    expect(await numbers(m.token, '?status=all')).toEqual(every);
    expect(await numbers(m.token, '?status=to_pay')).toEqual([paying]);
    expect(await numbers(m.token, '?status=paid')).toEqual([paid]);
    expect(await numbers(m.token, '?status=refunds')).toEqual([refundFailed, refunded, refunding]);
    expect(await numbers(m.token, '?status=cancelled')).toEqual([cancelledLater, cancelled]);
    expect((await list(m.token, '?status=refunds')).total).toBe(3);
    expect((await list(m.token, '')).total).toBe(7);
  });

  it('an unpaid order is in to pay; a tab with nothing is an empty page, not a refusal', async () => {
    const m = await newMember(s);
    const unpaid = await orderIn(m, 'unpaid');
    expect(await list(m.token, '?status=to_pay')).toMatchObject({ list: [{ orderNo: unpaid, state: 'unpaid' }], total: 1 });
    expect(await list(m.token, '?status=paid')).toEqual({ list: [], total: 0, pagenum: 0, pagesize: 10 });
  });

  it("pages through a tab: the total is the tab's, each page the next of it", async () => {
    const m = await newMember(s);
    const made: string[] = [];
    for (let i = 0; i < 3; i++) made.unshift(await orderIn(m, 'cancelled'));
    await orderIn(m, 'paid');
    const first = await list(m.token, '?status=cancelled&pagenum=0&pagesize=2');
    const second = await list(m.token, '?status=cancelled&pagenum=1&pagesize=2');
    expect([first.total, second.total]).toEqual([3, 3]);
    expect([...first.list, ...second.list].map((o) => o.orderNo)).toEqual(made);
  });

  it('a tab the list does not have is 400 naming status; a visitor is 401', async () => {
    const m = await newMember(s);
    for (const bad of ['unpaid', 'ALL', 'refund']) {
      const r = await s.call('GET', `/api/orders/mine?status=${bad}`, { token: m.token });
      expect([r.status, r.body.code, r.body.field], bad).toEqual([400, 70003, 'status']);
    }
    expect((await s.call('GET', '/api/orders/mine?status=to_pay')).status).toBe(401);
  });
});
