import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { balanceLedger, payments } from '../../../src/server/db/schema/index';
import { startTestServer } from '../support/harness';
import { assertMoneyInvariants } from '../support/money-invariants';
import { balance, cardsOf, create, credit, newGoods, newMember, orderRow, pay } from './support';

/**
 * Split orders (spec §4, §8, §9; decision 021): what is left to pay divided into 2-10 parts, each
 * paid on its own (partSeq), fully paid when the last is; a split undone gives paid parts back to
 * their payers. Every spec §8 refusal of a split has its code.
 */
describe('split orders', async () => {
  const s = await startTestServer({ seed: true });
  const split = (token: string, orderNo: string, parts: unknown, key?: string) =>
    s.call('POST', '/api/orders/split', { token, body: { orderNo, parts }, headers: key ? { 'Idempotency-Key': key } : {} });
  const payPart = (token: string, orderNo: string, method: string, partSeq?: number) =>
    s.call('POST', '/api/orders/pay', { token, body: { orderNo, method, partSeq } });
  const wechatSim = (body: Record<string, unknown>) => s.call('POST', '/api/dev/pay/wechat/simulate', { body });

  /** A member's unpaid order for a ¥199 card (19,900 cents to pay), with ¥500 on the balance. */
  async function unpaid() {
    const m = await newMember(s);
    await credit(s, m.id, 50_000);
    const g = await newGoods(s);
    const no = (await create(s, m.token, { goodsId: g.id })).body.data.orderNo as string;
    return { m, no };
  }

  it('split in three, pay one by balance (the order still unpaid), one by WeChat Pay, the last by balance: fully paid, one card; the detail shows the parts', async () => {
    const { m, no } = await unpaid();
    const r = await split(m.token, no, [10_000, 5_000, 4_900], `split-${no}`);
    expect(r.status).toBe(200);
    expect(r.body.data.parts.map((p: { seq: number; amountCents: number; state: string }) => [p.seq, p.amountCents, p.state])).toEqual([
      [1, 19_900, 'dropped'],
      [2, 10_000, 'unpaid'],
      [3, 5_000, 'unpaid'],
      [4, 4_900, 'unpaid'],
    ]);
    // a replay of the same request answers the same
    expect((await split(m.token, no, [10_000, 5_000, 4_900], `split-${no}`)).body.data.parts).toHaveLength(4);
    // which part must be named
    expect((await payPart(m.token, no, 'balance')).body).toMatchObject({ code: 70003, field: 'partSeq' });
    const first = await payPart(m.token, no, 'balance', 2);
    expect(first.body.data.order.state).toBe('unpaid');
    expect(await balance(s, m.token)).toBe(40_000);
    const o = await orderRow(s, no);
    const [debit] = await s.deps.db.select().from(balanceLedger).where(eq(balanceLedger.orderId, o.id));
    expect(debit).toMatchObject({ changeCents: -10_000, reason: 'split_part' });
    // a paid part cannot be paid again: it is paid (40011), and no second payment is taken
    expect((await payPart(m.token, no, 'balance', 2)).body.code).toBe(40011);
    expect((await payPart(m.token, no, 'wechat', 2)).body.code).toBe(40011);
    const wx = await payPart(m.token, no, 'wechat', 3);
    // a part's trade holds that part only: the order still waits for its parts
    expect(wx.body.data.order.state).toBe('unpaid');
    expect((await payPart(m.token, no, 'wechat', 3)).body.data.payment.prepayId, 'the same part again: the same trade').toBe(
      wx.body.data.payment.prepayId,
    );
    await wechatSim({ prepayId: wx.body.data.payment.prepayId, outcome: 'pay' });
    expect((await orderRow(s, no)).state).toBe('unpaid');
    expect(await cardsOf(s, m.id)).toHaveLength(0);
    const last = await payPart(m.token, no, 'balance', 4);
    expect(last.body.data.order).toMatchObject({ state: 'fully_paid', payMethod: null });
    expect(await cardsOf(s, m.id)).toHaveLength(1);
    const d = (await s.call('GET', `/api/orders/detail?orderNo=${no}`, { token: m.token })).body.data;
    expect(
      d.parts.filter((p: { state: string }) => p.state === 'paid').map((p: { seq: number; paidBy: string }) => [p.seq, p.paidBy]),
    ).toEqual([
      [2, 'balance'],
      [3, 'wechat'],
      [4, 'balance'],
    ]);
    expect(d.money).toMatchObject({ appliedCents: 19_900, outstandingCents: 0 });
    await assertMoneyInvariants(s.deps.db);
  });

  it('undone: a paid part comes back to its payer (split_undone), the order is one share again and paid whole', async () => {
    const { m, no } = await unpaid();
    await split(m.token, no, [9_900, 10_000]);
    await payPart(m.token, no, 'balance', 2);
    expect(await balance(s, m.token)).toBe(40_100);
    const r = await s.call('POST', '/api/orders/unsplit', { token: m.token, body: { orderNo: no } });
    expect(r.status).toBe(200);
    expect(r.body.data.parts.map((p: { seq: number; state: string }) => [p.seq, p.state])).toEqual([
      [1, 'dropped'],
      [2, 'given_back'],
      [3, 'dropped'],
      [4, 'unpaid'],
    ]);
    expect(r.body.data.refunds).toMatchObject([{ amountCents: 9_900, cause: 'split_undone', state: 'succeeded', to: 'balance' }]);
    expect(await balance(s, m.token)).toBe(50_000);
    await assertMoneyInvariants(s.deps.db);
    expect((await pay(s, m.token, no, 'balance')).body.data.order).toMatchObject({ state: 'paid', payMethod: 'balance' });
    expect(await balance(s, m.token)).toBe(30_100);
    // a whole order cannot be un-split
    expect((await s.call('POST', '/api/orders/unsplit', { token: m.token, body: { orderNo: no } })).body.code).toBe(40011);
    await assertMoneyInvariants(s.deps.db);
  });

  it('spec §8 refusals: missing 404, cancelled 40014, paid 40011, already split 40015, over 10 40016, a part not below the amount 40017, a wrong sum or one part 70003, paying 40002', async () => {
    const code = async (r: Promise<{ status: number; body: { code: number; field?: string } }>) => {
      const x = await r;
      return [x.status, x.body.code, x.body.field ?? null];
    };
    const a = await unpaid();
    const other = await newMember(s);
    expect(await code(split(other.token, a.no, [9_900, 10_000]))).toEqual([404, 70004, 'orderNo']);
    expect(await code(split(a.m.token, a.no, Array(11).fill(1_000)))).toEqual([400, 40016, 'parts']);
    expect(await code(split(a.m.token, a.no, [19_900, 0]))).toEqual([400, 40017, 'parts[0]']);
    expect(await code(split(a.m.token, a.no, [20_000, -100]))).toEqual([400, 40017, 'parts[0]']);
    expect(await code(split(a.m.token, a.no, [10_000, 0, 9_900]))).toEqual([400, 40017, 'parts[1]']);
    expect(await code(split(a.m.token, a.no, [10_000, 9_000]))).toEqual([400, 70003, 'parts']);
    expect(await code(split(a.m.token, a.no, [19_900]))).toEqual([400, 70003, 'parts']);
    expect((await split(a.m.token, a.no, [1.5, 19_898.5])).status).toBe(400);
    expect((await split(a.m.token, a.no, [9_900, 10_000])).status).toBe(200);
    expect(await code(split(a.m.token, a.no, [9_900, 10_000]))).toEqual([409, 40015, null]);
    // paying: a trade open on the whole order
    const b = await unpaid();
    expect((await pay(s, b.m.token, b.no, 'wechat')).status).toBe(200);
    expect(await code(split(b.m.token, b.no, [9_900, 10_000]))).toEqual([409, 40002, null]);
    // paid
    const c = await unpaid();
    expect((await pay(s, c.m.token, c.no, 'balance')).status).toBe(200);
    expect(await code(split(c.m.token, c.no, [9_900, 10_000]))).toEqual([409, 40011, null]);
    // cancelled
    const d = await unpaid();
    expect((await s.call('POST', '/api/orders/cancel', { token: d.m.token, body: { orderNo: d.no } })).status).toBe(200);
    expect(await code(split(d.m.token, d.no, [9_900, 10_000]))).toEqual([409, 40014, null]);
    // nothing half-written by the refusals
    const o = await orderRow(s, d.no);
    expect(await s.deps.db.select().from(payments).where(eq(payments.orderId, o.id))).toEqual([]);
    await assertMoneyInvariants(s.deps.db);
  });
  it("the order's detail offers 'split' while it is one unpaid share that can be paid, 'unsplit' while split and payable, neither otherwise", async () => {
    const detail = async (token: string, no: string) =>
      (await s.call('GET', `/api/orders/detail?orderNo=${no}`, { token })).body.data as { actions: string[]; state: string };
    const { m, no } = await unpaid();
    expect((await detail(m.token, no)).actions).toEqual(['pay', 'cancel', 'split', 'invite']);
    await split(m.token, no, [9_900, 10_000]);
    expect((await detail(m.token, no)).actions).toEqual(['pay', 'cancel', 'unsplit', 'invite']);
    // a part being paid at a provider holds that part only: the other may still be paid or sent, and the split undone (its trade is ended first)
    expect((await payPart(m.token, no, 'wechat', 2)).body.data.order.state).toBe('unpaid');
    expect((await detail(m.token, no)).actions).toEqual(['pay', 'cancel', 'unsplit', 'invite']);
    // the whole order at a provider: paying it again (the same trade, or another way), or cancelling (its trade closed first); not splitting
    const w = await unpaid();
    expect((await payPart(w.m.token, w.no, 'wechat')).body.data.order.state).toBe('paying');
    expect((await detail(w.m.token, w.no)).actions).toEqual(['pay', 'cancel']);
    expect((await split(w.m.token, w.no, [9_900, 10_000])).body.code).toBe(40002);
    // the split answer carries them too; a whole order paid, or cancelled, offers neither
    const b = await unpaid();
    expect((await split(b.m.token, b.no, [9_900, 10_000])).body.data.actions).toEqual(['pay', 'cancel', 'unsplit', 'invite']);
    expect((await s.call('POST', '/api/orders/unsplit', { token: b.m.token, body: { orderNo: b.no } })).body.data.actions).toEqual([
      'pay',
      'cancel',
      'split',
      'invite',
    ]);
    await pay(s, b.m.token, b.no, 'balance');
    expect((await detail(b.m.token, b.no)).actions).toEqual([]);
    const c = await unpaid();
    await s.call('POST', '/api/orders/cancel', { token: c.m.token, body: { orderNo: c.no } });
    expect((await detail(c.m.token, c.no)).actions).toEqual([]);
  });

  it("an order with 1 cent left to pay cannot be split (each part above zero and below it): no 'split' offered", async () => {
    const m = await newMember(s);
    const g = await newGoods(s);
    await credit(s, m.id, 19_899);
    const no = (await create(s, m.token, { goodsId: g.id, useBalance: true })).body.data.orderNo as string;
    const d = (await s.call('GET', `/api/orders/detail?orderNo=${no}`, { token: m.token })).body.data;
    expect(d.amountToPayCents).toBe(1);
    expect(d.actions).toEqual(['pay', 'cancel', 'invite']);
    expect((await split(m.token, no, [1, 0])).body.code).toBe(40017);
  });

  it("the order's detail offers 'invite' while a part nobody holds may go to a friend (not the whole order being paid, paid, nothing left to pay or past its pay window); a part of the member's own is paid by any way while a friend holds another", async () => {
    const detail = async (token: string, no: string) =>
      (await s.call('GET', `/api/orders/detail?orderNo=${no}`, { token })).body.data as { actions: string[]; state: string };
    const invite = (token: string, orderNo: string, partSeqs: number[]) =>
      s.call('POST', '/api/orders/friend/invite', { token, body: { orderNo, partSeqs } });
    const { m, no } = await unpaid();
    await split(m.token, no, [9_900, 10_000]);
    expect((await invite(m.token, no, [2])).status).toBe(200);
    // a friend holds part 2: the order is friend paying, and part 3 may still go to another friend
    const held = await detail(m.token, no);
    expect(held.state).toBe('friend_paying');
    // ... and part 3, the member's own, may be paid by any way meanwhile
    expect(held.actions).toEqual(['pay', 'cancel', 'unsplit', 'invite']);
    const wx = await payPart(m.token, no, 'wechat', 3);
    expect(wx.body.data.order.state).toBe('friend_paying');
    // the member switches to the balance: their trade is closed first, then the part is paid
    expect((await payPart(m.token, no, 'balance', 3)).status).toBe(200);
    // the only unpaid part is the friend's: nothing left to send, nothing of the member's to pay
    expect((await detail(m.token, no)).actions).toEqual(['cancel', 'unsplit']);
    // the whole order's trade open at a provider: no friend may be asked meanwhile (40002)
    const b = await unpaid();
    await payPart(b.m.token, b.no, 'wechat');
    expect((await detail(b.m.token, b.no)).actions).not.toContain('invite');
    // paid by the balance deduction at creation: nothing for a friend to pay
    const z = await newMember(s);
    await credit(s, z.id, 19_900);
    const zNo = (await create(s, z.token, { goodsId: (await newGoods(s)).id, useBalance: true })).body.data.orderNo as string;
    expect((await detail(z.token, zNo)).actions).not.toContain('invite');
    // past its pay window (the expiry job not yet run): neither paying nor asking
    const e = await unpaid();
    s.clock.advance(16 * 60_000);
    expect((await detail(e.m.token, e.no)).actions).toEqual(['cancel']);
  });
});
