import { eq } from 'drizzle-orm';
import { CARD_INITIAL_STATUS } from '../../../../machines/domain/card-transitions';
import { COUPON_INITIAL_STATE } from '../../../../machines/domain/coupon-transitions';
import { CLASS_TYPES, type ClassTypeKey } from '../../../domain/catalog';
import type { Clock } from '../../../domain/clock';
import { daysAfter } from '../../../domain/time';
import type { Tx } from '../../db/client';
import { couponTerms, goods, goodsPhases, memberCards, memberCoupons, memberCourses, type orders } from '../../db/schema/index';

type OrderRow = typeof orders.$inferSelect;
export interface Issued {
  issuedCardId: number | null;
  issuedCourseId: number | null;
  issuedCouponId: number | null;
}

/**
 * Issues what a paid order bought, once (the caller moves the order to paid in the same transaction):
 * a card starts inactive until its first booking or activation (the card chart's initial state);
 * a coupon lands in the member's coupons; a course (workshop, open, private, primary, training)
 * grants its uses as a member course.
 */
export async function issueGoods(tx: Tx, clock: Clock, order: OrderRow): Promise<Issued> {
  const none: Issued = { issuedCardId: null, issuedCourseId: null, issuedCouponId: null };
  const [g] = await tx.select().from(goods).where(eq(goods.id, order.goodsId));
  if (!g) return none;
  const now = clock.now();
  if (g.kind === 'card') {
    const [card] = await tx
      .insert(memberCards)
      .values({
        accountId: order.accountId,
        goodsId: g.id,
        cardType: g.cardType ?? 'count',
        name: g.name,
        nameEn: g.nameEn,
        number: `C${order.orderNo.slice(1)}`,
        clubId: g.clubId,
        status: CARD_INITIAL_STATUS,
        usesTotal: g.uses,
        usesLeft: g.uses,
        validityDays: g.validityDays,
        buyerAccountId: order.accountId,
        allowedClassTypes: CLASS_TYPES.map((t) => t.value) as ClassTypeKey[],
        createdAt: now,
      })
      .returning({ id: memberCards.id });
    return { ...none, issuedCardId: card!.id };
  }
  if (g.kind === 'coupon') {
    const [terms] = await tx.select().from(couponTerms).where(eq(couponTerms.goodsId, g.id));
    const days = terms?.validityDays ?? g.validityDays ?? 30;
    const [c] = await tx
      .insert(memberCoupons)
      .values({
        accountId: order.accountId,
        goodsId: g.id,
        name: g.name,
        nameEn: g.nameEn,
        offCents: terms?.offCents ?? 0,
        percentOff: terms?.percentOff ?? null,
        minSpendCents: terms?.minSpendCents ?? 0,
        appliesTo: terms?.appliesTo ?? [],
        validFrom: now,
        validUntil: daysAfter(now, days),
        state: COUPON_INITIAL_STATE,
        sourceOrderId: order.id,
        createdAt: now,
      })
      .returning({ id: memberCoupons.id });
    return { ...none, issuedCouponId: c!.id };
  }
  const [phase] = order.phaseId ? await tx.select().from(goodsPhases).where(eq(goodsPhases.id, order.phaseId)) : [];
  const uses = g.uses ?? 1;
  const [course] = await tx
    .insert(memberCourses)
    .values({
      accountId: order.accountId,
      goodsId: g.id,
      orderId: order.id,
      kind: g.kind,
      name: g.name,
      nameEn: g.nameEn,
      phaseId: phase?.id ?? null,
      teacherId: order.teacherId ?? g.teacherId,
      clubId: g.clubId,
      usesTotal: uses,
      usesLeft: uses,
      startsAt: phase?.startsAt ?? g.startsAt,
      endsAt: phase?.endsAt ?? g.endsAt,
      validUntil: g.validityDays !== null ? daysAfter(now, g.validityDays) : (phase?.endsAt ?? g.endsAt),
      createdAt: now,
    })
    .returning({ id: memberCourses.id });
  return { ...none, issuedCourseId: course!.id };
}
