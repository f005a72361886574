import { eq } from 'drizzle-orm';
import { couponTerms, goodsPhases, goodsTeachers, memberCoupons, teachers } from '../../../src/server/db/schema/index';
import type { TestServer } from '../support/harness';
import { newGoods } from '../orders/support';

export { balance, cardsOf, create, credit, goodsRow, newGoods, newMember, orderRow, pay } from '../orders/support';

const DAY = 86_400_000;

/** A coupon in the member's hand: ¥20 off from ¥100 unless told; valid 30 days from now. */
export async function giveCoupon(s: TestServer, accountId: number, over: Partial<typeof memberCoupons.$inferInsert> = {}) {
  const now = s.clock.now();
  const [c] = await s.deps.db
    .insert(memberCoupons)
    .values({
      accountId,
      name: '满100减20',
      offCents: 2_000,
      minSpendCents: 10_000,
      validFrom: now,
      validUntil: new Date(now.getTime() + 30 * DAY),
      createdAt: now,
      ...over,
    })
    .returning();
  return c!;
}

export async function couponRow(s: TestServer, id: number) {
  const [c] = await s.deps.db.select().from(memberCoupons).where(eq(memberCoupons.id, id));
  return c!;
}

/** A training course with two phases: the first at its own price, the second (already started) closed. */
export async function trainingWithPhases(s: TestServer) {
  const g = await newGoods(s, {
    kind: 'training',
    cardType: null,
    name: '教培',
    listPriceCents: 100_000,
    memberPriceCents: 90_000,
    uses: null,
    validityDays: null,
  });
  const now = s.clock.now().getTime();
  const [open] = await s.deps.db
    .insert(goodsPhases)
    .values({
      goodsId: g.id,
      name: '一期',
      startsAt: new Date(now + 10 * DAY),
      endsAt: new Date(now + 40 * DAY),
      listPriceCents: 80_000,
      memberPriceCents: 70_000,
      sort: 1,
    })
    .returning();
  const [closed] = await s.deps.db
    .insert(goodsPhases)
    .values({ goodsId: g.id, name: '零期', startsAt: new Date(now - DAY), endsAt: new Date(now + 20 * DAY), sort: 0 })
    .returning();
  return { g, open: open!, closed: closed! };
}

/** A private class with the first two seeded teachers to choose from. */
export async function privateWithTeachers(s: TestServer) {
  const g = await newGoods(s, {
    kind: 'private',
    cardType: null,
    name: '私教',
    listPriceCents: 60_000,
    memberPriceCents: 50_000,
    uses: 1,
    validityDays: 30,
  });
  const ts = await s.deps.db.select({ id: teachers.id }).from(teachers).limit(3);
  await s.deps.db.insert(goodsTeachers).values(ts.slice(0, 2).map((t, i) => ({ goodsId: g.id, teacherId: t.id, sort: i })));
  return { g, teacherIds: ts.slice(0, 2).map((t) => t.id), otherTeacherId: ts[2]!.id };
}

/** A coupon product: 10% off cards from ¥0, valid 7 days. */
export async function couponGoods(s: TestServer) {
  const g = await newGoods(s, {
    kind: 'coupon',
    cardType: null,
    name: '九折券',
    listPriceCents: 1_000,
    memberPriceCents: 500,
    uses: null,
    validityDays: null,
  });
  await s.deps.db.insert(couponTerms).values({ goodsId: g.id, percentOff: 10, minSpendCents: 0, appliesTo: ['card'], validityDays: 7 });
  return g;
}
