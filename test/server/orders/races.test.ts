import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { balanceLedger, memberCards, orders, paymentAttempts, payStandInOrders } from '../../../src/server/db/schema/index';
import { createOrder } from '../../../src/server/services/orders/create';
import { payOrder } from '../../../src/server/services/orders/pay';
import { startTestServer, usePostgres } from '../support/harness';
import { withoutLocks } from '../support/without-locks';
import { assertMoneyInvariants } from '../support/money-invariants';
import { balance, create, credit, goodsRow, newGoods, newMember, pay } from './support';

/**
 * Races on PostgreSQL only (PGlite is one connection, its transactions never overlap). Each request
 * runs on its own pooled connection. The negative control runs creation without the row locks and
 * shows the test catches overselling.
 */
describe.runIf(usePostgres)('order races on PostgreSQL', async () => {
  const s = await startTestServer({ seed: true });

  it('40 buyers for the last 5 units: exactly 5 orders, 35 told out of stock (50006), stock 0', async () => {
    const g = await newGoods(s, { stock: 5 });
    const ms = await Promise.all(Array.from({ length: 40 }, () => newMember(s)));
    const answers = await Promise.all(ms.map((m) => create(s, m.token, { goodsId: g.id })));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(5);
    expect(answers.filter((r) => r.body.code === 50006)).toHaveLength(35);
    const row = await goodsRow(s, g.id);
    expect([row.stock, row.sold]).toEqual([0, 5]);
    expect(await s.deps.db.select().from(orders).where(eq(orders.goodsId, g.id))).toHaveLength(5);
  });

  it('negative control: without the locks the same race oversells', { retry: 2 }, async () => {
    const g = await newGoods(s, { stock: 5 });
    const ms = await Promise.all(Array.from({ length: 40 }, () => newMember(s)));
    const results = await Promise.allSettled(
      ms.map((m) => createOrder(withoutLocks(s.deps.db), s.clock, m.id, { goodsId: g.id, agreementAccepted: true })),
    );
    const made = results.filter((r) => r.status === 'fulfilled').length;
    expect(made).toBeGreaterThan(5);
  });

  it('one member, limit one per person, 10 concurrent creates with different keys: one order', async () => {
    const g = await newGoods(s, { perPersonLimit: 1 });
    const m = await newMember(s);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => create(s, m.token, { goodsId: g.id }, { 'Idempotency-Key': `race-create-${i}-x` })),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    expect(await s.deps.db.select().from(orders).where(eq(orders.accountId, m.id))).toHaveLength(1);
  });

  it('balance: concurrent payments of one order spend once; the balance never goes below zero', async () => {
    const m = await newMember(s);
    const g = await newGoods(s);
    await credit(s, m.id, 19_900);
    const no = (await create(s, m.token, { goodsId: g.id })).body.data.orderNo;
    const answers = await Promise.all(Array.from({ length: 10 }, () => pay(s, m.token, no, 'balance')));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    // the others find it paid (40011)
    expect(answers.filter((r) => r.status !== 200).map((r) => r.body.code)).toEqual(Array(9).fill(40011));
    expect(await balance(s, m.token)).toBe(0);
    expect(await s.deps.db.select().from(memberCards).where(eq(memberCards.accountId, m.id))).toHaveLength(1);
    await assertMoneyInvariants(s.deps.db);
  });

  it('balance: concurrent creates with balance and direct payments never overdraw', async () => {
    const m = await newMember(s);
    await credit(s, m.id, 30_000);
    const g = await newGoods(s);
    const o = await createOrder(s.deps.db, s.clock, m.id, { goodsId: g.id, useBalance: true, agreementAccepted: true });
    expect(o.balanceUsedCents).toBe(19_900);
    // a second order is refused while one is unpaid even when raced
    const more = await Promise.allSettled(
      Array.from({ length: 5 }, () => createOrder(s.deps.db, s.clock, m.id, { goodsId: g.id, useBalance: true, agreementAccepted: true })),
    );
    expect(more.filter((r) => r.status === 'fulfilled')).toHaveLength(0);
    await Promise.allSettled(Array.from({ length: 5 }, () => payOrder(s.deps, m.id, o.orderNo, 'balance')));
    const ledger = await s.deps.db.select().from(balanceLedger).where(eq(balanceLedger.accountId, m.id));
    expect(ledger.reduce((a, r) => a + r.changeCents, 0)).toBe(30_000 - 19_900);
    expect(await balance(s, m.token)).toBeGreaterThanOrEqual(0);
    await assertMoneyInvariants(s.deps.db);
  });

  it('one provider at a time: 8 concurrent taps, WeChat and Alipay mixed, leave at most one open trade; the member pays it once', async () => {
    const m = await newMember(s);
    const g = await newGoods(s);
    const no = (await create(s, m.token, { goodsId: g.id })).body.data.orderNo as string;
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        pay(s, m.token, no, i % 2 === 0 ? 'wechat' : 'alipay', { 'Idempotency-Key': `race-pay-${no}-${i}` }),
      ),
    );
    expect(answers.some((r) => r.status === 200)).toBe(true);
    const o = (await s.deps.db.select().from(orders).where(eq(orders.orderNo, no)))[0]!;
    const attempts = await s.deps.db.select().from(paymentAttempts).where(eq(paymentAttempts.orderId, o.id));
    const open = attempts.filter((a) => a.state === 'open');
    expect(open).toHaveLength(1);
    expect(o).toMatchObject({ state: 'paying', payMethod: open[0]!.provider });
    // every other trade that reached a provider was closed there
    const trades = await s.deps.db
      .select()
      .from(payStandInOrders)
      .where(
        inArray(
          payStandInOrders.outTradeNo,
          attempts.map((a) => a.outTradeNo),
        ),
      );
    expect(trades.filter((t) => t.outTradeNo !== open[0]!.outTradeNo && t.state !== 'CLOSED' && t.state !== 'TRADE_CLOSED')).toEqual([]);
    await assertMoneyInvariants(s.deps.db);
  });

  it('same method, 8 concurrent taps: one attempt, every answer the same prepay', async () => {
    const m = await newMember(s);
    const g = await newGoods(s);
    const no = (await create(s, m.token, { goodsId: g.id })).body.data.orderNo as string;
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => pay(s, m.token, no, 'wechat', { 'Idempotency-Key': `race-same-${no}-${i}` })),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((r) => r.body.data.payment.prepayId)).size).toBe(1);
    const o = (await s.deps.db.select().from(orders).where(eq(orders.orderNo, no)))[0]!;
    expect(await s.deps.db.select().from(paymentAttempts).where(eq(paymentAttempts.orderId, o.id))).toHaveLength(1);
    await assertMoneyInvariants(s.deps.db);
  });
});
