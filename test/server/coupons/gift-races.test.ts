import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { memberCoupons } from '../../../src/server/db/schema/index';
import { giftCoupon } from '../../../src/server/services/coupons/gift';
import { newMember } from '../booking/support';
import { giveCoupon } from '../buying/support';
import { phoneOf } from '../cards/transfer-support';
import { startTestServer, usePostgres } from '../support/harness';
import { withoutGuards, withoutLocks } from '../support/without-locks';

/**
 * One coupon gifted to two members at once, on PostgreSQL (PGlite is one connection, its
 * transactions never overlap; decision 032). A gift locks the giver, then the coupon, and writes the
 * move only where the coupon is still unused: exactly one friend receives it. The negative control
 * gifts without the locks and the state condition: both transactions read it unused and both
 * friends receive it.
 */
describe.runIf(usePostgres)('coupon gift races on PostgreSQL', async () => {
  const s = await startTestServer({ seed: true });
  const arrivals = async (couponId: number) =>
    (await s.deps.db.select().from(memberCoupons).where(eq(memberCoupons.giftedFromCouponId, couponId))).length;

  async function twoFriends() {
    const giver = await newMember(s);
    const a = await newMember(s);
    const b = await newMember(s);
    const coupon = await giveCoupon(s, giver.id);
    return { giver, coupon, phones: [await phoneOf(s, a.id), await phoneOf(s, b.id)] };
  }

  it('one coupon gifted to two members at once: exactly one receives it, the other gift is refused 70110', async () => {
    for (let round = 0; round < 8; round++) {
      const { giver, coupon, phones } = await twoFriends();
      const answers = await Promise.all(
        phones.map((phone) =>
          s.call('POST', '/api/customers/coupons/gift', { token: giver.token, body: { couponId: coupon.id, phone, agreed: true } }),
        ),
      );
      expect(answers.map((r) => r.body.code).sort()).toEqual([200, 70110]);
      expect(await arrivals(coupon.id)).toBe(1);
    }
  });

  it('negative control: without the locks and the state condition the coupon arrives twice', { retry: 2 }, async () => {
    let doubled = false;
    for (let round = 0; round < 30 && !doubled; round++) {
      const { giver, coupon, phones } = await twoFriends();
      const results = await withoutGuards(() =>
        Promise.allSettled(phones.map((phone) => giftCoupon(withoutLocks(s.deps.db), s.clock, giver.id, { couponId: coupon.id, phone }))),
      );
      if ((await arrivals(coupon.id)) === 2) doubled = results.every((r) => r.status === 'fulfilled');
    }
    expect(doubled, 'two transactions both read the coupon unused and both gave it').toBe(true);
  });
});
