import { eq } from 'drizzle-orm';
import type { Clock } from '../../../domain/clock';
import { mediaUrl } from '../../services/catalog-media';
import type { Tx } from '../client';
import { couponRewards, couponTerms, goods, goodsPhases, goodsTeachers, memberCoupons } from '../schema/index';
import { DAY_MS } from '../../../domain/time';

async function goodsBySlug(tx: Tx, slug: string): Promise<{ id: number; startsAt: Date | null } | undefined> {
  const [g] = await tx
    .select({ id: goods.id, startsAt: goods.startsAt })
    .from(goods)
    .where(eq(goods.image, mediaUrl('goods', slug)));
  return g;
}

/**
 * What checkout needs beyond the goods rows: the teacher training's phases, the teachers a
 * private class is bought with, the coupon product's terms, and coupons in the first demo member's
 * hand (one usable on cards, one on workshops and training, one expired) so every coupon tab shows.
 */
export async function seedBuying(tx: Tx, clock: Clock, memberIds: readonly number[], teacherIds: readonly number[]) {
  const now = clock.now().getTime();
  const ttc = await goodsBySlug(tx, 'ttc-200');
  if (ttc) {
    const start = ttc.startsAt?.getTime() ?? now + 40 * DAY_MS;
    await tx.insert(goodsPhases).values([
      {
        goodsId: ttc.id,
        name: '第一期（周末班）',
        nameEn: 'Phase 1 (weekends)',
        startsAt: new Date(start),
        endsAt: new Date(start + 60 * DAY_MS),
        sort: 0,
      },
      {
        goodsId: ttc.id,
        name: '第二期（全日制）',
        nameEn: 'Phase 2 (full time)',
        startsAt: new Date(start + 90 * DAY_MS),
        endsAt: new Date(start + 118 * DAY_MS),
        listPriceCents: 2_580_000,
        memberPriceCents: 2_380_000,
        sort: 1,
      },
      {
        goodsId: ttc.id,
        name: '第三期（晚间班）',
        nameEn: 'Phase 3 (evenings)',
        startsAt: new Date(start + 180 * DAY_MS),
        endsAt: new Date(start + 270 * DAY_MS),
        sort: 2,
      },
    ]);
  }
  const privateClass = await goodsBySlug(tx, 'private-single');
  if (privateClass) {
    await tx.insert(goodsTeachers).values(teacherIds.slice(0, 4).map((teacherId, sort) => ({ goodsId: privateClass.id, teacherId, sort })));
  }
  const couponProduct = await goodsBySlug(tx, 'coupon-50');
  if (couponProduct) {
    await tx
      .insert(couponTerms)
      .values({ goodsId: couponProduct.id, offCents: 5_000, minSpendCents: 50_000, appliesTo: ['card'], validityDays: 30 });
  }
  // the welcome notice's promise: a trial coupon for completing one's personal information (decision 105)
  await tx.insert(couponRewards).values({
    rule: 'person-info',
    name: '完善资料体验券',
    nameEn: 'Profile trial coupon',
    offCents: 5_000,
    minSpendCents: 0,
    appliesTo: ['open'],
    validityDays: 30,
  });
  const member = memberIds[0];
  if (member !== undefined) {
    await tx.insert(memberCoupons).values([
      {
        accountId: member,
        name: '新会员满200减30',
        nameEn: '¥30 off ¥200 for new members',
        offCents: 3_000,
        minSpendCents: 20_000,
        validFrom: new Date(now - DAY_MS),
        validUntil: new Date(now + 30 * DAY_MS),
        createdAt: new Date(now - DAY_MS),
      },
      {
        accountId: member,
        name: '工作坊与培训9折券',
        nameEn: '10% off workshops and training',
        percentOff: 10,
        appliesTo: ['workshop', 'training'],
        validFrom: new Date(now - DAY_MS),
        validUntil: new Date(now + 60 * DAY_MS),
        createdAt: new Date(now - DAY_MS),
      },
      {
        accountId: member,
        name: '国庆满100减10',
        nameEn: '¥10 off ¥100 (National Day)',
        offCents: 1_000,
        minSpendCents: 10_000,
        validFrom: new Date(now - 60 * DAY_MS),
        validUntil: new Date(now - 45 * DAY_MS),
        createdAt: new Date(now - 60 * DAY_MS),
      },
    ]);
  }
}
