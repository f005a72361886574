import { and, count, desc, eq, inArray, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { cardFactsOf } from '../../../../machines/domain/card-transitions';
import { EVER_PAID_STATES } from '../../../../machines/domain/order-transitions';
import { cardOperationsServed } from '../cards/operations';
import { cardTimeline } from '../cards/timeline';
import { passCouponTime } from '../../jobs/time-passing';
import type { CouponState } from '../../../domain/pricing';
import type { Db } from '../../db/client';
import { accounts, clubs, goods, goodsPhases, memberCards, memberCoupons, memberCourses, orders, teachers } from '../../db/schema/index';
import type { Locale } from '../../i18n';
import { cardOut } from '../booking/views';
import { maskPhone } from '../cards/transfer';
import { heldBy } from '../cards/holders';
import { loc } from '../catalog';
import { moneyBreakdowns } from './breakdown';

/** What a member owns and bought (spec §2 /mycourse, /myPurchaseHistory, /mine/CardDetailPage, coupons). */

/**
 * Spec §4 coupon tabs, by the stored state: the member's coupons past their validity are first brought
 * up to date the way the time-passing job does it (decision 018), so the list is exact between its runs.
 */
export async function myCoupons(
  db: Db,
  now: Date,
  accountId: number,
  tab: CouponState | undefined,
  locale: Locale,
  pagenum: number,
  pagesize: number,
  id?: number,
) {
  await passCouponTime(db, now, eq(memberCoupons.accountId, accountId));
  const to = alias(accounts, 'gifted_to');
  const origin = alias(memberCoupons, 'gift_origin');
  const from = alias(accounts, 'gifted_from');
  const rows = await db
    .select({ c: memberCoupons, toPhone: to.phone, fromPhone: from.phone })
    .from(memberCoupons)
    .leftJoin(to, eq(to.id, memberCoupons.giftedToAccountId))
    .leftJoin(origin, eq(origin.id, memberCoupons.giftedFromCouponId))
    .leftJoin(from, eq(from.id, origin.accountId))
    .where(and(eq(memberCoupons.accountId, accountId), id === undefined ? undefined : eq(memberCoupons.id, id)))
    .orderBy(desc(memberCoupons.id));
  const all = rows
    .filter(({ c }) => !tab || c.state === tab)
    .map(({ c, toPhone, fromPhone }) => ({
      id: c.id,
      name: loc(locale, c.name, c.nameEn),
      offCents: c.offCents,
      percentOff: c.percentOff,
      minSpendCents: c.minSpendCents,
      appliesTo: c.appliesTo,
      validFrom: c.validFrom.toISOString(),
      validUntil: c.validUntil.toISOString(),
      state: c.state,
      usedAt: c.usedAt?.toISOString() ?? null,
      giftedAt: c.giftedAt?.toISOString() ?? null,
      giftedTo: toPhone ? maskPhone(toPhone) : null,
      giftedFrom: fromPhone ? maskPhone(fromPhone) : null,
    }));
  return { list: all.slice(pagenum * pagesize, (pagenum + 1) * pagesize), total: all.length, pagenum, pagesize };
}

/** My goods: courses I bought, with uses left, newest first. */
export async function myCourses(db: Db, now: Date, accountId: number, locale: Locale, pagenum: number, pagesize: number) {
  const rows = await db
    .select({
      m: memberCourses,
      image: goods.image,
      phaseName: goodsPhases.name,
      phaseNameEn: goodsPhases.nameEn,
      teacherName: teachers.name,
      teacherNameEn: teachers.nameEn,
      clubName: clubs.name,
      clubNameEn: clubs.nameEn,
      orderNo: orders.orderNo,
    })
    .from(memberCourses)
    .innerJoin(goods, eq(goods.id, memberCourses.goodsId))
    .innerJoin(orders, eq(orders.id, memberCourses.orderId))
    .leftJoin(clubs, eq(clubs.id, memberCourses.clubId))
    .leftJoin(goodsPhases, eq(goodsPhases.id, memberCourses.phaseId))
    .leftJoin(teachers, eq(teachers.id, memberCourses.teacherId))
    .where(eq(memberCourses.accountId, accountId))
    .orderBy(desc(memberCourses.createdAt), desc(memberCourses.id))
    .limit(pagesize)
    .offset(pagenum * pagesize);
  const [t] = await db.select({ n: count() }).from(memberCourses).where(eq(memberCourses.accountId, accountId));
  const list = rows.map(({ m, ...r }) => {
    const expired = m.validUntil !== null && m.validUntil.getTime() <= now.getTime();
    return {
      id: m.id,
      goodsId: m.goodsId,
      kind: m.kind,
      name: loc(locale, m.name, m.nameEn),
      image: r.image,
      phaseId: m.phaseId,
      phaseName: r.phaseName === null ? null : loc(locale, r.phaseName, r.phaseNameEn),
      teacherId: m.teacherId,
      teacherName: r.teacherName === null ? null : loc(locale, r.teacherName, r.teacherNameEn),
      clubId: m.clubId,
      clubName: r.clubName === null ? null : loc(locale, r.clubName, r.clubNameEn),
      usesTotal: m.usesTotal,
      usesLeft: m.usesLeft,
      startsAt: m.startsAt?.toISOString() ?? null,
      endsAt: m.endsAt?.toISOString() ?? null,
      validUntil: m.validUntil?.toISOString() ?? null,
      status: expired ? ('expired' as const) : m.usesLeft !== null && m.usesLeft <= 0 ? ('used_up' as const) : ('active' as const),
      orderNo: r.orderNo,
      boughtAt: m.createdAt.toISOString(),
    };
  });
  return { list, total: t?.n ?? 0, pagenum, pagesize };
}

/** My purchase history: orders paid (and those refunding or refunded), newest first. */
export async function myPurchases(db: Db, accountId: number, locale: Locale, pagenum: number, pagesize: number) {
  const where: SQL = and(eq(orders.accountId, accountId), inArray(orders.state, EVER_PAID_STATES))!;
  const rows = await db
    .select({
      o: orders,
      name: goods.name,
      nameEn: goods.nameEn,
      kind: goods.kind,
      image: goods.image,
      phaseName: goodsPhases.name,
      phaseNameEn: goodsPhases.nameEn,
      teacherName: teachers.name,
      teacherNameEn: teachers.nameEn,
    })
    .from(orders)
    .innerJoin(goods, eq(goods.id, orders.goodsId))
    .leftJoin(goodsPhases, eq(goodsPhases.id, orders.phaseId))
    .leftJoin(teachers, eq(teachers.id, orders.teacherId))
    .where(where)
    .orderBy(desc(orders.paidAt), desc(orders.id))
    .limit(pagesize)
    .offset(pagenum * pagesize);
  const [t] = await db.select({ n: count() }).from(orders).where(where);
  const money = await moneyBreakdowns(
    db,
    rows.map((r) => r.o),
  );
  const list = rows.map(({ o, ...r }) => ({
    orderNo: o.orderNo,
    goodsId: o.goodsId,
    goodsName: loc(locale, r.name, r.nameEn),
    goodsKind: r.kind,
    image: r.image,
    phaseName: r.phaseName === null ? null : loc(locale, r.phaseName, r.phaseNameEn),
    teacherName: r.teacherName === null ? null : loc(locale, r.teacherName, r.teacherNameEn),
    priceCents: o.priceCents,
    couponDeductionCents: o.couponDeductionCents,
    balanceUsedCents: o.balanceUsedCents,
    amountToPayCents: o.amountToPayCents,
    state: o.state,
    payMethod: o.payMethod,
    paidAt: o.paidAt?.toISOString() ?? null,
    money: money.get(o.id)!,
  }));
  return { list, total: t?.n ?? 0, pagenum, pagesize };
}

async function myCard(db: Db, accountId: number, cardId: number) {
  const [card] = await db
    .select({ c: memberCards, clubName: clubs.name, clubNameEn: clubs.nameEn })
    .from(memberCards)
    .leftJoin(clubs, eq(clubs.id, memberCards.clubId))
    .where(and(eq(memberCards.id, cardId), heldBy(accountId)));
  return card;
}

/**
 * One of my cards (spec §3 card: name, number, studio, status, extension count, frequency, validity
 * start and end). The status is the stored one (a card past its validity end was written expired by
 * the time-passing job, decision 018), with the operations the chart allows and the server can carry out.
 * A family sub-card holder reads the main card they share too (decision 040).
 */
export async function myCardDetail(db: Db, accountId: number, cardId: number, locale: Locale) {
  const card = await myCard(db, accountId, cardId);
  if (!card) return undefined;
  const c = card.c;
  const facts = cardFactsOf(c);
  // stored: a card past its validity end was written expired by the time-passing job (decision 018)
  const status = c.status;
  return {
    ...cardOut(c, locale, accountId),
    status,
    goodsId: c.goodsId,
    clubName: card.clubName === null ? null : loc(locale, card.clubName, card.clubNameEn),
    usesUsed: c.usesTotal === null || c.usesLeft === null ? null : c.usesTotal - c.usesLeft,
    operations: cardOperationsServed(status, facts),
  };
}

/** A page of one of my cards' timeline, newest first (decision 034: services/cards/timeline.ts); another member's card is undefined (404). */
export async function myCardHistory(db: Db, accountId: number, cardId: number, locale: Locale, pagenum: number, pagesize: number) {
  const card = await myCard(db, accountId, cardId);
  if (!card) return undefined;
  const items = await cardTimeline(db, card.c, locale);
  return { list: items.slice(pagenum * pagesize, (pagenum + 1) * pagesize), total: items.length, pagenum, pagesize };
}
