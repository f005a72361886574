import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { activities, goods, memberCards } from '../../../src/server/db/schema/index';
import { passCardTime } from '../../../src/server/jobs/time-passing';
import { startTestServer } from '../support/harness';
import {
  balance,
  cardsOf,
  couponGoods,
  couponRow,
  create,
  credit,
  giveCoupon,
  goodsRow,
  newGoods,
  newMember,
  orderRow,
  pay,
  privateWithTeachers,
  trainingWithPhases,
} from './support';

const DAY = 86_400_000;

describe('checkout pricing on the server (quote = create)', async () => {
  const s = await startTestServer({ seed: true });
  const quote = (token: string, body: Record<string, unknown>) => s.call('POST', '/api/orders/quote', { token, body });

  it('member price, coupon, then balance; the quote and the order agree; the client never sets a price', async () => {
    const m = await newMember(s);
    const g = await newGoods(s, { listPriceCents: 29_900, memberPriceCents: 19_900 });
    const c = await giveCoupon(s, m.id);
    await credit(s, m.id, 5_000);
    const body = { goodsId: g.id, couponId: c.id, useBalance: true };
    expect((await s.call('POST', '/api/orders/quote', { body })).status).toBe(401);
    const q = await quote(m.token, { ...body, priceCents: 1, amountToPayCents: 1 });
    expect(q.body.data).toMatchObject({
      listPriceCents: 29_900,
      memberPriceCents: 19_900,
      priceCents: 19_900,
      couponDeductionCents: 2_000,
      balanceCents: 5_000,
      balanceUsedCents: 5_000,
      amountToPayCents: 12_900,
    });
    expect(q.body.data.coupons).toEqual([expect.objectContaining({ id: c.id, usable: true, deductionCents: 2_000 })]);
    // the quote has no side effects
    expect((await couponRow(s, c.id)).state).toBe('unused');
    expect(await balance(s, m.token)).toBe(5_000);
    const o = await create(s, m.token, { ...body, amountToPayCents: 1 });
    expect(o.body.data).toMatchObject({
      goodsName: '20次卡',
      goodsKind: 'card',
      priceCents: 19_900,
      couponDeductionCents: 2_000,
      balanceUsedCents: 5_000,
      amountToPayCents: 12_900,
      couponId: c.id,
    });
    expect(await couponRow(s, c.id)).toMatchObject({ state: 'used', usedOrderId: expect.any(Number) });
    expect(await balance(s, m.token)).toBe(0);
  });

  it('the amount the member confirmed must still be the price (40010), else nothing is held', async () => {
    const m = await newMember(s);
    const g = await newGoods(s, { stock: 2 });
    const q = await quote(m.token, { goodsId: g.id });
    expect(q.body.data.amountToPayCents).toBe(19_900);
    // the price changes between the quote and the tap
    await s.deps.db.update(goods).set({ memberPriceCents: 25_900 }).where(eq(goods.id, g.id));
    const refused = await create(s, m.token, { goodsId: g.id, expectedAmountToPayCents: 19_900 });
    expect([refused.status, refused.body.code]).toEqual([409, 40010]);
    expect((await goodsRow(s, g.id)).stock).toBe(2);
    const ok = await create(s, m.token, { goodsId: g.id, expectedAmountToPayCents: 25_900 });
    expect(ok.body.data.amountToPayCents).toBe(25_900);
  });

  it('a percentage coupon rounds half up to the cent; the balance covers only what the coupon left', async () => {
    const m = await newMember(s);
    const g = await newGoods(s, { memberPriceCents: 1_005 });
    const c = await giveCoupon(s, m.id, { offCents: 0, percentOff: 50, minSpendCents: 0 });
    await credit(s, m.id, 100_000);
    const q = await quote(m.token, { goodsId: g.id, couponId: c.id, useBalance: true });
    // 50% of 1005 = 502.5 -> 503
    expect(q.body.data).toMatchObject({ priceCents: 1_005, couponDeductionCents: 503, balanceUsedCents: 502, amountToPayCents: 0 });
  });

  it('a fixed coupon never takes more than the price', async () => {
    const m = await newMember(s);
    const g = await newGoods(s, { memberPriceCents: 1_500 });
    const c = await giveCoupon(s, m.id, { offCents: 5_000, minSpendCents: 0 });
    const q = await quote(m.token, { goodsId: g.id, couponId: c.id });
    expect(q.body.data).toMatchObject({ couponDeductionCents: 1_500, amountToPayCents: 0 });
  });

  it('refuses a coupon under its minimum spend (40008), expired, used, not for this kind or not mine (40007)', async () => {
    const m = await newMember(s);
    const other = await newMember(s);
    const g = await newGoods(s, { memberPriceCents: 9_999 });
    const min = await giveCoupon(s, m.id);
    const r1 = await quote(m.token, { goodsId: g.id, couponId: min.id });
    expect([r1.status, r1.body.code]).toEqual([409, 40008]);
    expect((await create(s, m.token, { goodsId: g.id, couponId: min.id })).body.code).toBe(40008);
    const expired = await giveCoupon(s, m.id, { minSpendCents: 0, validUntil: new Date(s.clock.now().getTime() - 1) });
    expect((await quote(m.token, { goodsId: g.id, couponId: expired.id })).body.code).toBe(40007);
    const used = await giveCoupon(s, m.id, { minSpendCents: 0, state: 'used' });
    expect((await quote(m.token, { goodsId: g.id, couponId: used.id })).body.code).toBe(40007);
    const forWorkshops = await giveCoupon(s, m.id, { minSpendCents: 0, appliesTo: ['workshop'] });
    expect((await quote(m.token, { goodsId: g.id, couponId: forWorkshops.id })).body.code).toBe(40007);
    const theirs = await giveCoupon(s, other.id, { minSpendCents: 0 });
    expect((await quote(m.token, { goodsId: g.id, couponId: theirs.id })).body.code).toBe(40007);
    expect((await create(s, m.token, { goodsId: g.id, couponId: theirs.id })).body.code).toBe(40007);
    expect((await couponRow(s, theirs.id)).state).toBe('unused');
  });

  it('a training course needs an open phase (50007) and is priced at the phase; a private class needs one of its teachers (50008)', async () => {
    const m = await newMember(s);
    const { g, open, closed } = await trainingWithPhases(s);
    const none = await quote(m.token, { goodsId: g.id });
    expect([none.status, none.body.code]).toEqual([400, 50007]);
    expect((await quote(m.token, { goodsId: g.id, phaseId: closed.id })).body.code).toBe(50007);
    expect((await create(s, m.token, { goodsId: g.id })).body.code).toBe(50007);
    const q = await quote(m.token, { goodsId: g.id, phaseId: open.id });
    expect(q.body.data).toMatchObject({ phaseId: open.id, listPriceCents: 80_000, memberPriceCents: 70_000, amountToPayCents: 70_000 });

    const p = await privateWithTeachers(s);
    expect((await quote(m.token, { goodsId: p.g.id })).body.code).toBe(50008);
    expect((await quote(m.token, { goodsId: p.g.id, teacherId: p.otherTeacherId })).body.code).toBe(50008);
    expect((await quote(m.token, { goodsId: p.g.id, teacherId: p.teacherIds[1] })).body.data).toMatchObject({
      teacherId: p.teacherIds[1],
      amountToPayCents: 50_000,
    });
  });

  it('an exhausted goods reads out of stock (50006) in the list and detail; a flash-sale one sold out (50003)', async () => {
    const g = await newGoods(s, { stock: 0, name: '售罄测试' });
    const d = await s.call('GET', `/api/product/goods/detail?id=${g.id}`);
    expect(d.body.data).toMatchObject({ isUable: false, message: '商品库存不足' });
    const flash = await newGoods(s, { stock: 0, name: '秒杀测试' });
    await s.deps.db
      .insert(activities)
      .values({ title: '秒杀', image: '/img/a.jpg', startsAt: s.clock.now(), endsAt: s.clock.now(), goodsId: flash.id });
    const list = (await s.call('GET', '/api/product/goods/goodList?kind=card&pagesize=50')).body.data.list as Array<{
      id: number;
      isUable: boolean;
      message: string | null;
    }>;
    expect(list.find((x) => x.id === flash.id)).toMatchObject({ isUable: false, message: '手速不够快，商品已被抢光了' });
    expect(list.find((x) => x.id === g.id)).toMatchObject({ isUable: false, message: '商品库存不足' });
  });

  it('the detail lists the phases (closed ones not usable) and teachers; the member phase price only after login', async () => {
    const m = await newMember(s);
    const { g, open, closed } = await trainingWithPhases(s);
    const visitor = await s.call('GET', `/api/product/goods/detail?id=${g.id}`);
    expect(visitor.body.data.phases).toEqual([
      expect.objectContaining({ id: closed.id, isUable: false }),
      expect.objectContaining({ id: open.id, isUable: true, listPriceCents: 80_000 }),
    ]);
    expect(visitor.body.data.phases[1].memberPriceCents).toBeUndefined();
    expect(visitor.body.data.memberPriceCents).toBeUndefined();
    const member = await s.call('GET', `/api/product/goods/detail?id=${g.id}`, { token: m.token });
    expect(member.body.data.phases[1].memberPriceCents).toBe(70_000);
    const p = await privateWithTeachers(s);
    const d = await s.call('GET', `/api/product/goods/detail?id=${p.g.id}`);
    expect(d.body.data.teachers.map((t: { id: number }) => t.id)).toEqual(p.teacherIds);
  });

  it('cancelling an unpaid order gives the coupon back, with the stock and the balance', async () => {
    const m = await newMember(s);
    const g = await newGoods(s, { stock: 3 });
    const c = await giveCoupon(s, m.id, { minSpendCents: 0 });
    await credit(s, m.id, 1_000);
    const no = (await create(s, m.token, { goodsId: g.id, couponId: c.id, useBalance: true })).body.data.orderNo;
    expect((await s.call('POST', '/api/orders/cancel', { token: m.token, body: { orderNo: no } })).body.data.state).toBe('cancelled');
    expect(await couponRow(s, c.id)).toMatchObject({ state: 'unused', usedOrderId: null });
    expect(await balance(s, m.token)).toBe(1_000);
    expect((await goodsRow(s, g.id)).stock).toBe(3);
    // and it can be used again
    expect((await create(s, m.token, { goodsId: g.id, couponId: c.id })).body.data.couponDeductionCents).toBe(2_000);
  });

  it('paying with the coupon keeps it used; its tab is "used"', async () => {
    const m = await newMember(s);
    const g = await newGoods(s);
    const c = await giveCoupon(s, m.id, { minSpendCents: 0 });
    await credit(s, m.id, 100_000);
    const no = (await create(s, m.token, { goodsId: g.id, couponId: c.id })).body.data.orderNo;
    expect((await pay(s, m.token, no, 'balance')).body.data.order.state).toBe('paid');
    expect(await balance(s, m.token)).toBe(100_000 - 17_900);
    const used = await s.call('GET', '/api/customers/coupons?state=used', { token: m.token });
    expect(used.body.data.list.map((x: { id: number }) => x.id)).toEqual([c.id]);
  });
});

describe('a paid order issues what was bought', async () => {
  const s = await startTestServer({ seed: true });

  it('a card: inactive until first booking; listed with its detail and history', async () => {
    const m = await newMember(s);
    const g = await newGoods(s, { uses: 10 });
    await credit(s, m.id, 100_000);
    const no = (await create(s, m.token, { goodsId: g.id })).body.data.orderNo;
    const paid = await pay(s, m.token, no, 'balance');
    const [card] = await cardsOf(s, m.id);
    expect(card).toMatchObject({ status: 'inactive', usesLeft: 10 });
    expect(paid.body.data.order.issuedCardId).toBe(card!.id);
    const d = await s.call('GET', `/api/customers/cards/detail?id=${card!.id}`, { token: m.token });
    expect(d.body.data).toMatchObject({
      id: card!.id,
      status: 'inactive',
      operations: ['activate', 'transfer', 'refund', 'changeAdviser'],
      usesUsed: 0,
      goodsId: g.id,
    });
    const h = await s.call('GET', `/api/customers/cards/history?id=${card!.id}`, { token: m.token });
    expect(h.body.data).toMatchObject({ total: 1, list: [{ kind: 'bought', orderNo: no, money: { paidCents: 19_900 } }] });
    const other = await newMember(s);
    expect((await s.call('GET', `/api/customers/cards/detail?id=${card!.id}`, { token: other.token })).status).toBe(404);
    expect((await s.call('GET', `/api/customers/cards/history?id=${card!.id}`, { token: other.token })).status).toBe(404);
  });

  it('a coupon product lands in my coupons with its terms and then takes money off a card', async () => {
    const m = await newMember(s);
    const cg = await couponGoods(s);
    await credit(s, m.id, 100_000);
    const no = (await create(s, m.token, { goodsId: cg.id })).body.data.orderNo;
    const paid = await pay(s, m.token, no, 'balance');
    expect(paid.body.data.order.issuedCouponId).toEqual(expect.any(Number));
    const mine = await s.call('GET', '/api/customers/coupons?state=unused', { token: m.token });
    expect(mine.body.data.list).toEqual([
      expect.objectContaining({ id: paid.body.data.order.issuedCouponId, percentOff: 10, state: 'unused' }),
    ]);
    const until = new Date(mine.body.data.list[0].validUntil).getTime();
    expect(until - s.clock.now().getTime()).toBe(7 * DAY);
    const card = await newGoods(s, { memberPriceCents: 19_900 });
    const q = await s.call('POST', '/api/orders/quote', {
      token: m.token,
      body: { goodsId: card.id, couponId: paid.body.data.order.issuedCouponId },
    });
    expect(q.body.data).toMatchObject({ couponDeductionCents: 1_990, amountToPayCents: 17_910 });
  });

  it('a course grants its uses: my goods list it, my purchase history shows the order', async () => {
    const m = await newMember(s);
    const { g, open } = await trainingWithPhases(s);
    await credit(s, m.id, 120_000);
    const no = (await create(s, m.token, { goodsId: g.id, phaseId: open.id })).body.data.orderNo;
    const paid = await pay(s, m.token, no, 'balance');
    expect(paid.body.data.order).toMatchObject({ state: 'paid', phaseId: open.id, issuedCourseId: expect.any(Number) });
    const courses = await s.call('GET', '/api/customers/courses', { token: m.token });
    expect(courses.body.data).toMatchObject({
      total: 1,
      list: [
        { goodsId: g.id, kind: 'training', phaseId: open.id, phaseName: '一期', usesTotal: 1, usesLeft: 1, status: 'active', orderNo: no },
      ],
    });
    const p = await privateWithTeachers(s);
    const r2 = await create(s, m.token, { goodsId: p.g.id, teacherId: p.teacherIds[0] });
    expect(r2.body).toMatchObject({ code: 200 });
    const no2 = r2.body.data.orderNo;
    expect((await pay(s, m.token, no2, 'balance')).body.data.order.issuedCourseId).toEqual(expect.any(Number));
    const again = await s.call('GET', '/api/customers/courses', { token: m.token });
    expect(again.body.data.list[0]).toMatchObject({ kind: 'private', teacherId: p.teacherIds[0], usesLeft: 1 });
    const purchases = await s.call('GET', '/api/customers/purchases', { token: m.token });
    expect(purchases.body.data).toMatchObject({
      total: 2,
      list: [
        { orderNo: no2, goodsKind: 'private' },
        { orderNo: no, goodsKind: 'training', phaseName: '一期', amountToPayCents: 70_000 },
      ],
    });
    // an unpaid order is not a purchase
    const g3 = await newGoods(s);
    await create(s, m.token, { goodsId: g3.id });
    expect((await s.call('GET', '/api/customers/purchases', { token: m.token })).body.data.total).toBe(2);
    expect((await orderRow(s, no)).state).toBe('paid');
  });
});

describe('the demo seed has what checkout needs', async () => {
  const s = await startTestServer({ seed: true });

  it('training phases, private-class teachers, coupon terms, and the first demo member holds coupons in each tab', async () => {
    const list = async (kind: string) =>
      (await s.call('GET', `/api/product/goods/goodList?kind=${kind}`)).body.data.list as Array<{ id: number }>;
    for (const kind of ['card', 'coupon', 'workshop', 'open', 'private', 'primary', 'training'])
      expect((await list(kind)).length, kind).toBeGreaterThan(0);
    const ttc = (await s.call('GET', `/api/product/goods/detail?id=${(await list('training'))[0]!.id}`)).body.data;
    expect(ttc.phases).toHaveLength(3);
    const priv = (await s.call('GET', `/api/product/goods/detail?id=${(await list('private'))[0]!.id}`)).body.data;
    expect(priv.teachers.length).toBeGreaterThan(1);
    const login = await s.call('POST', '/api/oauth/login', {
      body: { username: '13800000001', password: 'yoga1234', loginType: 'password' },
    });
    const token = login.body.token as string;
    const tab = async (state: string) => (await s.call('GET', `/api/customers/coupons?state=${state}`, { token })).body.data.total;
    expect([await tab('unused'), await tab('expired')]).toEqual([2, 1]);
    const coupon = (await list('coupon'))[0]!;
    const q = await s.call('POST', '/api/orders/quote', { token, body: { goodsId: ttc.id, phaseId: ttc.phases[1].id } });
    expect(q.body.data).toMatchObject({ priceCents: 2_380_000 });
    expect(q.body.data.coupons).toEqual([
      expect.objectContaining({ offCents: 3_000, deductionCents: 3_000, usable: true }),
      expect.objectContaining({ percentOff: 10, deductionCents: 238_000, usable: true }),
    ]);
    // the coupon product's terms are issued with it
    expect(coupon.id).toBeGreaterThan(0);
  });
});

describe('activating a card by hand', async () => {
  const s = await startTestServer({ seed: true });

  it('an inactive card becomes in use with its validity from now; a second activation is refused by the chart (30001)', async () => {
    const m = await newMember(s);
    const g = await newGoods(s, { uses: 10, validityDays: 20 });
    await credit(s, m.id, 100_000);
    const no = (await create(s, m.token, { goodsId: g.id })).body.data.orderNo;
    await pay(s, m.token, no, 'balance');
    const [card] = await cardsOf(s, m.id);
    const res = await s.call('POST', '/api/customers/cards/activate', { token: m.token, body: { id: card!.id } });
    expect(res.body.data).toMatchObject({
      status: 'in_use',
      validFrom: s.clock.now().toISOString(),
      validUntil: new Date(s.clock.now().getTime() + 20 * DAY).toISOString(),
      operations: ['freeze', 'transfer', 'extend', 'refund', 'changeAdviser'],
    });
    const again = await s.call('POST', '/api/customers/cards/activate', { token: m.token, body: { id: card!.id } });
    expect([again.status, again.body.code]).toEqual([409, 30001]);
    const other = await newMember(s);
    expect((await s.call('POST', '/api/customers/cards/activate', { token: other.token, body: { id: card!.id } })).status).toBe(404);
    // past its validity the card is expired (written by the time-passing job, decision 018), and offers only extension
    s.clock.advance(20 * DAY);
    await passCardTime(s.deps.db, s.clock.now(), eq(memberCards.id, card!.id));
    const later = await s.call('GET', `/api/customers/cards/detail?id=${card!.id}`, { token: m.token });
    expect(later.body.data).toMatchObject({ status: 'expired', operations: ['extend', 'changeAdviser'] });
    const h = await s.call('GET', `/api/customers/cards/history?id=${card!.id}`, { token: m.token });
    expect(h.body.data.list.map((x: { kind: string }) => x.kind)).toEqual(['activated', 'bought']);
  });
});
