import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ORDER_PAY_WITHIN_MS } from '../../../src/domain/pricing';
import { flashSaleBuyers, goods as goodsTable, memberCards, orders } from '../../../src/server/db/schema/index';
import { runDueJobs } from '../../../src/server/jobs/runner';
import { takeFlashPlace } from '../../../src/server/services/flash-sale/flash-sale';
import { decide } from '../../../src/server/db/transaction';
import { create, credit, newMember, pay } from '../orders/support';
import { startTestServer } from '../support/harness';
import { activity, newFlashSale, saleRow } from './support';

const DAY = 86_400_000;

describe('flash sale: GET /product/goods/activity and buying through order creation', async () => {
  const s = await startTestServer({ seed: true });

  it('without an id answers the live Singles Day sale of the demo seed: 30 cards, none sold, buyable', async () => {
    const r = await activity(s);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ code: 200, status: true });
    expect(r.body.data).toMatchObject({
      id: 1,
      sellNumber: 0,
      maxNumber: 30,
      isUable: true,
      message: null,
      phase: 'live',
      title: '双十一限量次卡抢购',
      mine: false,
      myOrder: null,
    });
    expect(r.body.data.serverNow).toBe(s.clock.now().toISOString());
  });

  it('sold out when sellNumber is at least maxNumber: isUable false with the hand-speed message, in zh and en', async () => {
    const { sale } = await newFlashSale(s, { maxNumber: 3, sellNumber: 3 });
    const zh = await activity(s, sale.id);
    expect(zh.body.data).toMatchObject({
      sellNumber: 3,
      maxNumber: 3,
      isUable: false,
      phase: 'sold_out',
      message: '手速不够快，商品已被抢光了',
    });
    const en = await activity(s, sale.id, { lang: 'en' });
    expect(en.body.data.message).toBe('The hand speed is not fast enough. This product is sold out.');
  });

  it('a sale not started or ended is not buyable and says so', async () => {
    const later = await newFlashSale(s, {
      startsAt: new Date(s.clock.now().getTime() + DAY),
      endsAt: new Date(s.clock.now().getTime() + 2 * DAY),
    });
    expect((await activity(s, later.sale.id)).body.data).toMatchObject({ phase: 'upcoming', isUable: false, message: '抢购还没有开始' });
    const over = await newFlashSale(s, {
      startsAt: new Date(s.clock.now().getTime() - 2 * DAY),
      endsAt: new Date(s.clock.now().getTime() - DAY),
    });
    expect((await activity(s, over.sale.id)).body.data).toMatchObject({ phase: 'ended', isUable: false, message: '抢购已经结束' });
    const m = await newMember(s);
    expect((await create(s, m.token, { goodsId: later.goods.id })).body.code).toBe(50021);
    expect((await create(s, m.token, { goodsId: over.goods.id })).body.code).toBe(50022);
  });

  it('an unknown id is 404; a bad id is 400 naming the field', async () => {
    expect((await activity(s, 99_999)).status).toBe(404);
    const bad = await s.call('GET', '/api/product/goods/activity?id=abc');
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('id');
  });

  it('buying takes a place: sellNumber moves, the buyer sees mine with the limit-one message; others still can buy', async () => {
    const { goods, sale } = await newFlashSale(s, { maxNumber: 2 });
    const m = await newMember(s);
    const r = await create(s, m.token, { goodsId: goods.id });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ goodsId: goods.id, priceCents: 99_900, state: 'unpaid' });
    expect((await saleRow(s, sale.id)).sellNumber).toBe(1);
    expect((await activity(s, sale.id, { token: m.token })).body.data).toMatchObject({
      sellNumber: 1,
      mine: true,
      isUable: false,
      message: '该商品每人限购一次',
      myOrder: { orderNo: r.body.data.orderNo, state: 'unpaid' },
    });
    const other = await newMember(s);
    expect((await activity(s, sale.id, { token: other.token })).body.data).toMatchObject({ mine: false, isUable: true, myOrder: null });
    // paid: the place's order says so
    await credit(s, m.id, 99_900);
    expect((await pay(s, m.token, r.body.data.orderNo, 'balance')).status).toBe(200);
    expect((await activity(s, sale.id, { token: m.token })).body.data.myOrder).toEqual({ orderNo: r.body.data.orderNo, state: 'paid' });
  });

  it('the last place taken: the next buyer is told sold out (50003) and no order is written', async () => {
    const { goods, sale } = await newFlashSale(s, { maxNumber: 1 });
    const [a, b] = [await newMember(s), await newMember(s)];
    expect((await create(s, a.token, { goodsId: goods.id })).status).toBe(200);
    const r = await create(s, b.token, { goodsId: goods.id });
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ code: 50003, message: '手速不够快，商品已被抢光了' });
    expect(await s.deps.db.select().from(orders).where(eq(orders.accountId, b.id))).toHaveLength(0);
    expect((await saleRow(s, sale.id)).sellNumber).toBe(1);
  });

  it('a buyer who passed the sold-out check but lost the last place is told too slow (50020); the order rolls back', async () => {
    const { sale } = await newFlashSale(s, { maxNumber: 1 });
    const [a, b] = [await newMember(s), await newMember(s)];
    await decide(s.deps.db, (tx) => takeFlashPlace(tx, sale, a.id, s.clock.now()));
    // b read "1 place left" a moment ago; the conditional update is what decides
    const lost = await decide(s.deps.db, (tx) => takeFlashPlace(tx, sale, b.id, s.clock.now())).catch((e: unknown) => e);
    expect(lost).toMatchObject({ def: { code: 50020 } });
    expect((await saleRow(s, sale.id)).sellNumber).toBe(1);
    expect(await s.deps.db.select().from(flashSaleBuyers).where(eq(flashSaleBuyers.accountId, b.id))).toHaveLength(0);
  });

  it('limit one per person: a second place for the same member is refused (50005) by the unique buyer row', async () => {
    const { sale } = await newFlashSale(s);
    const m = await newMember(s);
    await decide(s.deps.db, (tx) => takeFlashPlace(tx, sale, m.id, s.clock.now()));
    const again = await decide(s.deps.db, (tx) => takeFlashPlace(tx, sale, m.id, s.clock.now())).catch((e: unknown) => e);
    expect(again).toMatchObject({ def: { code: 50005 } });
    expect((await saleRow(s, sale.id)).sellNumber).toBe(1);
  });

  it('cancelling an unpaid flash order gives the place back; the member may buy again', async () => {
    const { goods, sale } = await newFlashSale(s, { maxNumber: 1 });
    const m = await newMember(s);
    const first = await create(s, m.token, { goodsId: goods.id });
    expect((await saleRow(s, sale.id)).sellNumber).toBe(1);
    const cancelled = await s.call('POST', '/api/orders/cancel', { token: m.token, body: { orderNo: first.body.data.orderNo } });
    expect(cancelled.status).toBe(200);
    expect((await saleRow(s, sale.id)).sellNumber).toBe(0);
    expect((await activity(s, sale.id, { token: m.token })).body.data).toMatchObject({ mine: false, isUable: true });
    expect((await create(s, m.token, { goodsId: goods.id })).status).toBe(200);
  });

  it('the catalogue shows flash goods as their sale has them: sold out is not buyable with the hand-speed message', async () => {
    const { goods, sale } = await newFlashSale(s, { maxNumber: 2, sellNumber: 2 });
    const detail = await s.call('GET', `/api/product/goods/detail?id=${goods.id}`);
    expect(detail.body.data).toMatchObject({ sellNumber: 2, maxNumber: 2, isUable: false, message: '手速不够快，商品已被抢光了' });
    const live = await newFlashSale(s, { maxNumber: 5 });
    const list = await s.call('GET', '/api/product/goods/goodList?kind=card&pagenum=0&pagesize=50');
    const row = (id: number) => list.body.data.list.find((g: { id: number }) => g.id === id);
    expect(row(goods.id)).toMatchObject({ isUable: false, sellNumber: 2, maxNumber: 2 });
    expect(row(live.goods.id)).toMatchObject({ isUable: true, message: null, sellNumber: 0, maxNumber: 5 });
    expect(sale.id).not.toBe(live.sale.id);
  });

  it('the checkout quote refuses a sold-out sale with the hand-speed message before any order', async () => {
    const { goods } = await newFlashSale(s, { maxNumber: 1, sellNumber: 1 });
    const m = await newMember(s);
    const q = await s.call('POST', '/api/orders/quote', { token: m.token, body: { goodsId: goods.id } });
    expect([q.status, q.body.code, q.body.message]).toEqual([409, 50003, '手速不够快，商品已被抢光了']);
  });

  it('a paid flash order keeps its place and issues the card; the goods sold count moves with the sale', async () => {
    const { goods, sale } = await newFlashSale(s, { maxNumber: 5 });
    const m = await newMember(s);
    await credit(s, m.id, 99_900);
    const no = (await create(s, m.token, { goodsId: goods.id })).body.data.orderNo;
    const [g] = await s.deps.db.select().from(goodsTable).where(eq(goodsTable.id, goods.id));
    expect([g!.sold, g!.stock]).toEqual([1, null]);
    expect((await pay(s, m.token, no, 'balance')).body.data.order.state).toBe('paid');
    expect((await saleRow(s, sale.id)).sellNumber).toBe(1);
    expect(await s.deps.db.select().from(memberCards).where(eq(memberCards.accountId, m.id))).toHaveLength(1);
  });

  it('an unpaid flash order that expires (15 minutes, the expiry job) gives its place back', async () => {
    const { goods, sale } = await newFlashSale(s, { maxNumber: 1 });
    const [a, b] = [await newMember(s), await newMember(s)];
    expect((await create(s, a.token, { goodsId: goods.id })).status).toBe(200);
    expect((await create(s, b.token, { goodsId: goods.id })).body.code).toBe(50003);
    s.clock.advance(ORDER_PAY_WITHIN_MS);
    await runDueJobs(s.deps);
    expect((await saleRow(s, sale.id)).sellNumber).toBe(0);
    expect((await create(s, b.token, { goodsId: goods.id })).status).toBe(200);
    expect((await saleRow(s, sale.id)).sellNumber).toBe(1);
  });
});
