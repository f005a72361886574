import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { flashSales, orders } from '../../../src/server/db/schema/index';
import { SOLD_OUT_MEMORY_MS } from '../../../src/server/services/flash-sale/sold-out-memory';
import { PURCHASES_AT_ONCE, turnFor } from '../../../src/server/services/flash-sale/gate';
import { create, newMember } from '../orders/support';
import { startTestServer } from '../support/harness';
import { newFlashSale, saleRow } from './support';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Decision 049: a process that heard from the database that a flash sale is sold out refuses the next
 * buyers from memory (one statement for the session and the key, no sale read), for at most
 * SOLD_OUT_MEMORY_MS; a release in this process makes the place buyable at once; the memory never
 * says more than the database said, and every answer a key was given stays its answer.
 */
describe('flash sale: sold out from memory, and the purchase gate', async () => {
  const s = await startTestServer({ seed: true });

  /** A sale of one place, taken by a first member: this process now knows it is sold out. */
  async function soldOut() {
    const { goods, sale } = await newFlashSale(s, { maxNumber: 1 });
    const winner = await newMember(s);
    const won = await create(s, winner.token, { goodsId: goods.id }, { 'idempotency-key': `winner-key-${winner.id}` });
    expect(won.status).toBe(200);
    return { goods, sale, winner, won };
  }

  it('after the last place, a buyer is refused 50003 from memory: a place freed behind its back (another process) is not seen until the memory expires', async () => {
    const { goods, sale } = await soldOut();
    // another process's release, as this one cannot see it: the sale's row has a place again
    await s.deps.db.update(flashSales).set({ sellNumber: 0 }).where(eq(flashSales.id, sale.id));
    const m = await newMember(s);
    const early = await create(s, m.token, { goodsId: goods.id });
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ code: 50003, message: '手速不够快，商品已被抢光了' });
    expect(await s.deps.db.select().from(orders).where(eq(orders.accountId, m.id))).toHaveLength(0);
    // the bound: past it the database is asked again, and the place is sold
    await sleep(SOLD_OUT_MEMORY_MS + 100);
    const later = await create(s, m.token, { goodsId: goods.id });
    expect(later.status).toBe(200);
    expect((await saleRow(s, sale.id)).sellNumber).toBe(1);
  });

  it('a release in this process (the winner cancels) makes the place buyable at once', async () => {
    const { goods, sale, winner, won } = await soldOut();
    const m = await newMember(s);
    expect((await create(s, m.token, { goodsId: goods.id })).body.code).toBe(50003);
    const cancelled = await s.call('POST', '/api/orders/cancel', { token: winner.token, body: { orderNo: won.body.data.orderNo } });
    expect(cancelled.status).toBe(200);
    const r = await create(s, m.token, { goodsId: goods.id });
    expect(r.status).toBe(200);
    expect((await saleRow(s, sale.id)).sellNumber).toBe(1);
  });

  it("the refusal from memory is its key's first answer (replayed); a winner's retry still gets its order, not 50003", async () => {
    const { goods, winner, won } = await soldOut();
    const m = await newMember(s);
    const first = await create(s, m.token, { goodsId: goods.id }, { 'idempotency-key': `late-key-${m.id}` });
    expect(first.body.code).toBe(50003);
    const again = await create(s, m.token, { goodsId: goods.id }, { 'idempotency-key': `late-key-${m.id}` });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    // the same key with another body is still refused as a mismatch
    expect((await create(s, m.token, { goodsId: goods.id, useBalance: true }, { 'idempotency-key': `late-key-${m.id}` })).body.code).toBe(
      70007,
    );
    const retry = await create(s, winner.token, { goodsId: goods.id }, { 'idempotency-key': `winner-key-${winner.id}` });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body.data.orderNo).toBe(won.body.data.orderNo);
  });

  it('the memory answers no one the database would not: a bad token is 401, a bad body 400, an ended sale 50022', async () => {
    const { goods, sale } = await soldOut();
    const bad = await create(s, 'not-a-token', { goodsId: goods.id });
    expect([bad.status, bad.body.code]).toEqual([401, 401]);
    const m = await newMember(s);
    const noAgreement = await s.call('POST', '/api/orders/create', { token: m.token, body: { goodsId: goods.id } });
    expect(noAgreement.status).toBe(400);
    expect(noAgreement.body.field).toBe('agreementAccepted');
    const back = s.clock.now();
    s.clock.set(new Date(sale.endsAt.getTime() + 1000));
    try {
      expect((await create(s, m.token, { goodsId: goods.id })).body.code).toBe(50022);
    } finally {
      s.clock.set(back);
    }
  });

  it('refusals arriving together are decided together, each its own answer: 20 members, a bad token, one key sent twice', async () => {
    const { goods } = await soldOut();
    const members = await Promise.all(Array.from({ length: 20 }, () => newMember(s)));
    const twice = members[0]!;
    const shots = [
      ...members.map((m) => create(s, m.token, { goodsId: goods.id }, { 'idempotency-key': `crowd-key-${m.id}` })),
      create(s, twice.token, { goodsId: goods.id }, { 'idempotency-key': `crowd-key-${twice.id}` }),
      create(s, 'not-a-token', { goodsId: goods.id }, { 'idempotency-key': 'crowd-key-nobody' }),
    ];
    const answers = await Promise.all(shots);
    expect(answers.slice(0, 21).map((a) => a.body.code)).toEqual(Array(21).fill(50003));
    expect([answers[21]!.status, answers[21]!.body.code]).toEqual([401, 401]);
    // each key kept its refusal: a retry replays it
    for (const m of members.slice(0, 3)) {
      const again = await create(s, m.token, { goodsId: goods.id }, { 'idempotency-key': `crowd-key-${m.id}` });
      expect([again.headers.get('idempotent-replayed'), again.body.code]).toEqual(['true', 50003]);
    }
    expect(await s.deps.db.select().from(orders).where(eq(orders.goodsId, goods.id))).toHaveLength(1);
  });

  it('the gate: at most PURCHASES_AT_ONCE turns per goods at once, the rest let in first come first served', async () => {
    const db = {};
    const order: number[] = [];
    let running = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        const end = await turnFor(db, 7);
        order.push(i);
        running += 1;
        most = Math.max(most, running);
        await sleep(5);
        running -= 1;
        end();
        end(); // ending twice ends once
      }),
    );
    expect(most).toBe(PURCHASES_AT_ONCE);
    expect(order).toEqual([...Array(12).keys()]);
    // other goods have their own gate
    const [a, b] = [await turnFor(db, 1), await turnFor(db, 2)];
    a();
    b();
  });
});
