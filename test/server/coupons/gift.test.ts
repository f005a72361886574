import { desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { accounts, couponGiftLimit, memberCoupons, notifications } from '../../../src/server/db/schema/index';
import { newMember } from '../booking/support';
import { couponRow, giveCoupon } from '../buying/support';
import { phoneOf } from '../cards/transfer-support';
import { startTestServer } from '../support/harness';

/**
 * Coupon gifting through the API (spec §2 /mine/coupons/all/Donation, §4 coupon tabs, §5 "coupon gift
 * needs agreement and a phone", §8 "coupon transfer limit reached"; decision 032): the coupon leaves
 * the giver (transferred) and arrives with the friend in one transaction; every refusal with its code.
 */
const s = await startTestServer({ seed: true });
const DAY = 86_400_000;
const refusal = (r: { status: number; body: { code: number } }) => [r.status, r.body.code];
const gift = (token: string, couponId: number, phone: string, over: Record<string, unknown> = {}) =>
  s.call('POST', '/api/customers/coupons/gift', { token, body: { couponId, phone, agreed: true, ...over } });
const tab = async (token: string, state: string) =>
  (await s.call('GET', `/api/customers/coupons?state=${state}`, { token })).body.data.list;
const heldBy = (accountId: number) => s.deps.db.select().from(memberCoupons).where(eq(memberCoupons.accountId, accountId));

async function pair() {
  const from = await newMember(s);
  const to = await newMember(s);
  await s.deps.db.update(accounts).set({ name: '张小红' }).where(eq(accounts.id, to.id));
  return { from, to, toPhone: await phoneOf(s, to.id), fromPhone: await phoneOf(s, from.id) };
}
const masked = (p: string) => `${p.slice(0, 3)}****${p.slice(-4)}`;

describe('gifting a coupon (POST /customers/coupons/gift)', () => {
  it('leaves the giver transferred and arrives unused with the friend, same terms and validity; the friend is told', async () => {
    const { from, to, toPhone, fromPhone } = await pair();
    const c = await giveCoupon(s, from.id, { percentOff: 15, offCents: 0, appliesTo: ['card'], nameEn: '15% off' });
    const r = await gift(from.token, c.id, ` ${toPhone} `);
    expect(r.body).toMatchObject({
      code: 200,
      data: { couponId: c.id, state: 'transferred', recipientName: '**红', recipientPhone: masked(toPhone), giftsLeft: 2 },
    });
    expect(await couponRow(s, c.id)).toMatchObject({ state: 'transferred', giftedToAccountId: to.id, accountId: from.id });
    const [arrived] = await heldBy(to.id);
    expect(arrived).toMatchObject({
      state: 'unused',
      giftedFromCouponId: c.id,
      name: c.name,
      percentOff: 15,
      offCents: 0,
      minSpendCents: c.minSpendCents,
      appliesTo: ['card'],
    });
    expect(arrived!.validUntil.getTime()).toBe(c.validUntil.getTime());
    expect(arrived!.validFrom.getTime()).toBe(c.validFrom.getTime());
    // the tabs: the giver's under transferred (to whom), the friend's under unused (from whom)
    expect(await tab(from.token, 'unused')).toEqual([]);
    expect(await tab(from.token, 'transferred')).toMatchObject([{ id: c.id, giftedTo: masked(toPhone), giftedFrom: null }]);
    expect(await tab(to.token, 'unused')).toMatchObject([
      { id: arrived!.id, giftedFrom: masked(fromPhone), giftedTo: null, percentOff: 15, appliesTo: ['card'] },
    ]);
    const [n] = await s.deps.db.select().from(notifications).where(eq(notifications.accountId, to.id)).orderBy(desc(notifications.id));
    expect(n).toMatchObject({ title: '您收到一张优惠券', titleEn: 'You received a coupon' });
  });

  it('a received coupon can be used (and gifted on) by the friend like any other', async () => {
    const { from, to, toPhone } = await pair();
    const third = await newMember(s);
    const c = await giveCoupon(s, from.id);
    await gift(from.token, c.id, toPhone);
    const [arrived] = await heldBy(to.id);
    expect((await gift(to.token, arrived!.id, await phoneOf(s, third.id))).body.code).toBe(200);
    expect(await heldBy(third.id)).toHaveLength(1);
  });

  it('the gifting terms must be accepted and a phone given (70003 naming the field)', async () => {
    const { from, toPhone } = await pair();
    const c = await giveCoupon(s, from.id);
    const noTerms = await gift(from.token, c.id, toPhone, { agreed: false });
    expect(refusal(noTerms)).toEqual([400, 70003]);
    expect(noTerms.body.field).toBe('agreed');
    const noPhone = await gift(from.token, c.id, '  ');
    expect(refusal(noPhone)).toEqual([400, 70003]);
    expect(noPhone.body.field).toBe('phone');
    expect((await couponRow(s, c.id)).state).toBe('unused');
  });

  it('no such member (30036): an unknown phone, a banned member', async () => {
    const { from, to, toPhone } = await pair();
    const c = await giveCoupon(s, from.id);
    expect(refusal(await gift(from.token, c.id, '13999999998'))).toEqual([404, 30036]);
    await s.deps.db.update(accounts).set({ banned: true }).where(eq(accounts.id, to.id));
    expect(refusal(await gift(from.token, c.id, toPhone))).toEqual([404, 30036]);
    expect((await couponRow(s, c.id)).state).toBe('unused');
  });

  it('not to myself (70112)', async () => {
    const { from, fromPhone } = await pair();
    const c = await giveCoupon(s, from.id);
    expect(refusal(await gift(from.token, c.id, fromPhone))).toEqual([400, 70112]);
  });

  it('another member’s coupon is 404, as absent, and stays theirs', async () => {
    const { from, to, toPhone } = await pair();
    const theirs = await giveCoupon(s, to.id);
    const other = await newMember(s);
    expect(refusal(await gift(from.token, theirs.id, await phoneOf(s, other.id)))).toEqual([404, 70004]);
    expect(refusal(await gift(from.token, 2_000_000, toPhone))).toEqual([404, 70004]);
    expect(await couponRow(s, theirs.id)).toMatchObject({ accountId: to.id, state: 'unused' });
  });

  it('only an unused coupon within its validity (70110): used, expired, past its end, already gifted', async () => {
    const { from, toPhone } = await pair();
    const now = s.clock.now().getTime();
    const used = await giveCoupon(s, from.id, { state: 'used', usedAt: new Date(now) });
    const expired = await giveCoupon(s, from.id, { state: 'expired' });
    const pastEnd = await giveCoupon(s, from.id, { validFrom: new Date(now - 40 * DAY), validUntil: new Date(now - DAY) });
    const once = await giveCoupon(s, from.id);
    expect((await gift(from.token, once.id, toPhone)).body.code).toBe(200);
    for (const c of [used, expired, pastEnd, once])
      expect(refusal(await gift(from.token, c.id, toPhone)), `coupon ${c.id}`).toEqual([409, 70110]);
    // the one past its end was brought to expired by the time-passing rule, not gifted
    expect((await couponRow(s, pastEnd.id)).state).toBe('expired');
  });

  it('coupon transfer limit reached (70111): the limit is data (3 in 30 days seeded; here 2), counted over the period', async () => {
    const { from, toPhone } = await pair();
    await s.deps.db.update(couponGiftLimit).set({ maxGifts: 2 }).where(eq(couponGiftLimit.id, 1));
    try {
      const cs = [await giveCoupon(s, from.id), await giveCoupon(s, from.id), await giveCoupon(s, from.id)];
      expect((await gift(from.token, cs[0]!.id, toPhone)).body.data.giftsLeft).toBe(1);
      expect((await gift(from.token, cs[1]!.id, toPhone)).body.data.giftsLeft).toBe(0);
      expect(refusal(await gift(from.token, cs[2]!.id, toPhone))).toEqual([409, 70111]);
      expect((await couponRow(s, cs[2]!.id)).state).toBe('unused');
      expect((await s.call('GET', `/api/customers/coupons/detail?id=${cs[2]!.id}`, { token: from.token })).body.data.giftsLeft).toBe(0);
      // a gift older than the period no longer counts
      await s.deps.db
        .update(memberCoupons)
        .set({ giftedAt: new Date(s.clock.now().getTime() - 31 * DAY) })
        .where(eq(memberCoupons.id, cs[0]!.id));
      expect((await gift(from.token, cs[2]!.id, toPhone)).body.code).toBe(200);
    } finally {
      await s.deps.db.update(couponGiftLimit).set({ maxGifts: 3 }).where(eq(couponGiftLimit.id, 1));
    }
  });

  it('a retry with the same Idempotency-Key gifts once', async () => {
    const { from, to, toPhone } = await pair();
    const c = await giveCoupon(s, from.id);
    const call = () =>
      s.call('POST', '/api/customers/coupons/gift', {
        token: from.token,
        body: { couponId: c.id, phone: toPhone, agreed: true },
        headers: { 'Idempotency-Key': 'gift-key-000000001' },
      });
    const [a, b] = [await call(), await call()];
    expect([a.body.code, b.body.code]).toEqual([200, 200]);
    expect(await heldBy(to.id)).toHaveLength(1);
  });

  it('a visitor is asked to log in', async () => {
    expect(
      (await s.call('POST', '/api/customers/coupons/gift', { body: { couponId: 1, phone: '13700000001', agreed: true } })).status,
    ).toBe(401);
  });
});

describe('one coupon (GET /customers/coupons/detail)', () => {
  it('mine with its terms and validity; another member’s is 404', async () => {
    const { from, to } = await pair();
    const c = await giveCoupon(s, from.id);
    expect((await s.call('GET', `/api/customers/coupons/detail?id=${c.id}`, { token: from.token })).body.data).toMatchObject({
      coupon: { id: c.id, offCents: 2000, minSpendCents: 10000, state: 'unused' },
      giftsLeft: 3,
    });
    expect(refusal(await s.call('GET', `/api/customers/coupons/detail?id=${c.id}`, { token: to.token }))).toEqual([404, 70004]);
  });
});
