import { describe, expect, it } from 'vitest';
import { LEDGER_REASONS } from '../../../src/domain/balance-ledger';
import { balanceLedger } from '../../../src/server/db/schema/index';
import { startTestServer, type TestServer } from '../support/harness';
import { balance, create, credit, newGoods, newMember, orderRow, pay } from '../orders/support';

/**
 * GET /api/customers/balance/history (decision 021): the caller's ledger, newest first, paged, each row
 * with why, its order and goods, and the balance after it (the running sum of the caller's whole
 * ledger up to the row, computed by the query). The rows are made by the real API (checkout with
 * balance, cancel, pay by balance) and by the ledger's other writers (top-ups; grants, split parts
 * and refunds written as their services will write them).
 */
interface Row {
  id: number;
  changeCents: number;
  reason: string;
  orderId: number | null;
  orderNo: string | null;
  goodsName: string | null;
  createdAt: string;
  balanceAfterCents: number;
}
const EN = { 'accept-language': 'en' };
const history = (s: TestServer, token: string, q = '', headers: Record<string, string> = {}) =>
  s.call('GET', `/api/customers/balance/history${q}`, { token, headers });

describe('balance history', async () => {
  const s = await startTestServer({ seed: true });
  const HOUR = 3_600_000;

  /** a member with a top-up, an order using the balance and cancelled, an order paid by balance, a grant, a split part and a refund */
  async function memberWithHistory() {
    const m = await newMember(s);
    const g = await newGoods(s, { name: '20次卡', nameEn: '20-class card' });
    await credit(s, m.id, 10_000);
    s.clock.advance(HOUR);
    const first = (await create(s, m.token, { goodsId: g.id, useBalance: true })).body.data;
    expect(first.balanceUsedCents).toBe(10_000);
    s.clock.advance(HOUR);
    expect((await s.call('POST', '/api/orders/cancel', { token: m.token, body: { orderNo: first.orderNo } })).body.data.state).toBe(
      'cancelled',
    );
    s.clock.advance(HOUR);
    await credit(s, m.id, 20_000);
    const second = (await create(s, m.token, { goodsId: g.id })).body.data;
    expect((await pay(s, m.token, second.orderNo, 'balance')).body.data.order.state).toBe('paid');
    s.clock.advance(HOUR);
    // the reasons other services write (grant by staff; split part, refund by the money model of decision 021)
    const at = s.clock.now();
    await s.deps.db.insert(balanceLedger).values([
      { accountId: m.id, changeCents: 1_000, reason: 'grant', orderId: null, createdAt: at },
      { accountId: m.id, changeCents: -500, reason: 'split_part', orderId: null, createdAt: at },
      { accountId: m.id, changeCents: 500, reason: 'refund', orderId: null, createdAt: at },
    ]);
    return { m, g, first: await orderRow(s, first.orderNo), second: await orderRow(s, second.orderNo) };
  }

  it('a visitor is 401', async () => {
    const r = await s.call('GET', '/api/customers/balance/history');
    expect([r.status, r.body.code]).toEqual([401, 401]);
  });

  it('newest first (id desc), every reason, orders and goods joined, the balance after each change; the first row says my balance', async () => {
    const { m, first, second } = await memberWithHistory();
    const r = await history(s, m.token);
    expect(r.status).toBe(200);
    const page = r.body.data as { list: Row[]; total: number; pagenum: number; pagesize: number };
    expect(page).toMatchObject({ total: 8, pagenum: 0, pagesize: 20 });
    const ids = page.list.map((x) => x.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(page.list.map((x) => [x.reason, x.changeCents, x.orderNo, x.goodsName, x.balanceAfterCents])).toEqual([
      ['refund', 500, null, null, 11_100],
      ['split_part', -500, null, null, 10_600],
      ['grant', 1_000, null, null, 11_100],
      ['order', -19_900, second.orderNo, '20次卡', 10_100],
      ['topup', 20_000, null, null, 30_000],
      ['cancel', 10_000, first.orderNo, '20次卡', 10_000],
      ['order', -10_000, first.orderNo, '20次卡', 0],
      ['topup', 10_000, null, null, 10_000],
    ]);
    expect(page.list.filter((x) => x.orderNo !== null).map((x) => x.orderId)).toEqual([second.id, first.id, first.id]);
    expect(new Set(page.list.map((x) => x.reason))).toEqual(new Set(LEDGER_REASONS));
    expect(page.list[0]!.balanceAfterCents).toBe(await balance(s, m.token));
    // a top-up has no order; times are the instants written
    expect(page.list.filter((x) => x.orderNo === null).every((x) => x.orderId === null)).toBe(true);
    expect(new Date(page.list[0]!.createdAt).getTime()).toBe(s.clock.now().getTime());
    expect(new Date(page.list[7]!.createdAt).getTime()).toBe(s.clock.now().getTime() - 4 * HOUR);
    // the goods' name in the caller's language
    const en = (await history(s, m.token, '', EN)).body.data.list as Row[];
    expect(en.filter((x) => x.goodsName !== null).map((x) => x.goodsName)).toEqual(['20-class card', '20-class card', '20-class card']);
  });

  it('pages of 3: the same rows in the same order, each with the balance after it counted over the whole ledger, not the page', async () => {
    const { m } = await memberWithHistory();
    const all = (await history(s, m.token)).body.data.list as Row[];
    const pages = [];
    for (const pagenum of [0, 1, 2, 3]) {
      const r = await history(s, m.token, `?pagenum=${pagenum}&pagesize=3`);
      expect(r.body.data).toMatchObject({ total: 8, pagenum, pagesize: 3 });
      pages.push(r.body.data.list as Row[]);
    }
    expect(pages.map((p) => p.length)).toEqual([3, 3, 2, 0]);
    expect(pages.flat()).toEqual(all);
    // each row's balance after is the one below it plus its change, down to the first change
    for (let i = 0; i < all.length - 1; i++) expect(all[i]!.balanceAfterCents).toBe(all[i + 1]!.balanceAfterCents + all[i]!.changeCents);
    expect(all.at(-1)!.balanceAfterCents).toBe(all.at(-1)!.changeCents);
  });

  it("another member's rows never appear, nor count in my balance after", async () => {
    const a = await memberWithHistory();
    const b = await newMember(s);
    expect((await history(s, b.token)).body.data).toEqual({ list: [], total: 0, pagenum: 0, pagesize: 20 });
    await credit(s, b.id, 1_234);
    // b's ledger row refers to a's order: it is still b's row, but a's order is not shown to b
    await s.deps.db
      .insert(balanceLedger)
      .values({ accountId: b.id, changeCents: 66, reason: 'refund', orderId: a.first.id, createdAt: s.clock.now() });
    const mine = (await history(s, b.token)).body.data as { list: Row[]; total: number };
    expect(mine.total).toBe(2);
    expect(mine.list.map((x) => [x.reason, x.changeCents, x.orderId, x.orderNo, x.goodsName, x.balanceAfterCents])).toEqual([
      ['refund', 66, null, null, null, 1_300],
      ['topup', 1_234, null, null, null, 1_234],
    ]);
    const theirs = (await history(s, a.m.token)).body.data.list as Row[];
    expect(theirs.some((x) => mine.list.some((y) => y.id === x.id))).toBe(false);
    expect(theirs[0]!.balanceAfterCents).toBe(await balance(s, a.m.token));
  });

  it.each([
    ['pagesize=0', 'pagesize'],
    ['pagesize=51', 'pagesize'],
    ['pagesize=ten', 'pagesize'],
    ['pagenum=-1', 'pagenum'],
    ['pagenum=0.5', 'pagenum'],
    ['pagenum=10001', 'pagenum'],
  ])('refuses %s with 400 naming %s', async (q, field) => {
    const m = await newMember(s);
    const r = await history(s, m.token, `?${q}`);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 70003, status: false, field });
  });
});
