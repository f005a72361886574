import { and, count, eq, gt, isNotNull } from 'drizzle-orm';
import { nextCouponState } from '../../../../machines/domain/coupon-transitions';
import type { Clock } from '../../../domain/clock';
import { shownName } from '../person/shown-name';
import { Errors } from '../../../domain/errors';
import { daysAfter } from '../../../domain/time';
import type { CouponGift } from '../../../contracts/coupons';
import type { Db, Tx } from '../../db/client';
import { accounts, couponGiftLimit, memberCoupons, notifications } from '../../db/schema/index';
import { ApiError } from '../../http/api-error';
import { passCouponTime } from '../../jobs/time-passing';
import { decide } from '../../db/transaction';
import { guards } from '../../db/guards';
import { recipientByPhone } from '../cards/transfer-rules';
import { maskPhone } from '../cards/transfer';

/** The gifting limit (spec §8 "coupon transfer limit reached"; decision 032): data in `coupon_gift_limit`, none when the row is absent. */
async function giftLimit(db: Db | Tx): Promise<{ maxGifts: number; periodDays: number } | undefined> {
  const [row] = await db.select().from(couponGiftLimit).where(eq(couponGiftLimit.id, 1));
  return row;
}

/** How many more coupons the member may gift now (Infinity without a limit). */
export async function giftsLeft(db: Db | Tx, accountId: number, now: Date): Promise<number> {
  const limit = await giftLimit(db);
  if (!limit) return Number.POSITIVE_INFINITY;
  const since = daysAfter(now, -limit.periodDays);
  const [n] = await db
    .select({ n: count() })
    .from(memberCoupons)
    .where(and(eq(memberCoupons.accountId, accountId), isNotNull(memberCoupons.giftedAt), gt(memberCoupons.giftedAt, since)));
  return Math.max(0, limit.maxGifts - (n?.n ?? 0));
}

export interface GiftInput {
  couponId: number;
  phone: string;
}

/**
 * Gives one of my unused coupons to another member by phone (spec §5, §8; decision 032). In one
 * transaction: the giver is locked (their gifts counted against the limit one at a time), then the
 * coupon; the chart must allow `coupon.gift` (unused, within its validity); the coupon leaves me
 * (transferred, to whom and when kept) and arrives with the friend as a new unused coupon with the
 * same terms and validity, and the friend is notified. The move is written only where the coupon is
 * still in the state it was read in, so of two gifts at once exactly one wins.
 */
export async function giftCoupon(db: Db, clock: Clock, accountId: number, input: GiftInput): Promise<CouponGift> {
  const now = clock.now();
  await passCouponTime(db, now, eq(memberCoupons.accountId, accountId));
  return decide(db, async (tx) => {
    await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).for('no key update');
    const q = tx
      .select()
      .from(memberCoupons)
      .where(and(eq(memberCoupons.id, input.couponId), eq(memberCoupons.accountId, accountId)));
    const [coupon] = await q.for('update');
    if (!coupon) throw new ApiError(Errors.notFound, { field: 'couponId' });
    const to = await recipientByPhone(tx, input.phone);
    if (!to) throw new ApiError(Errors.noSuchMember, { field: 'phone' });
    if (to.id === accountId) throw new ApiError(Errors.couponGiftToSelf, { field: 'phone' });
    const state = nextCouponState(coupon.state, 'coupon.gift');
    if (!state || coupon.validUntil <= now) throw new ApiError(Errors.couponNotGiftable);
    const left = await giftsLeft(tx, accountId, now);
    if (left <= 0) throw new ApiError(Errors.couponGiftLimit);
    const [moved] = await tx
      .update(memberCoupons)
      .set({ state, giftedToAccountId: to.id, giftedAt: now })
      .where(and(eq(memberCoupons.id, coupon.id), guards.still(memberCoupons.state, coupon.state)))
      .returning({ id: memberCoupons.id });
    if (!moved) throw new ApiError(Errors.couponNotGiftable);
    const {
      id: _id,
      accountId: _from,
      usedOrderId: _o,
      usedAt: _u,
      sourceOrderId: _s,
      giftedToAccountId: _t,
      giftedAt: _g,
      giftedFromCouponId: _f,
      state: _st,
      createdAt: _c,
      ...terms
    } = coupon;
    await tx.insert(memberCoupons).values({ ...terms, accountId: to.id, giftedFromCouponId: coupon.id, createdAt: now });
    const [giver] = await tx.select({ phone: accounts.phone }).from(accounts).where(eq(accounts.id, accountId));
    const from = maskPhone(giver?.phone ?? '');
    await tx.insert(notifications).values({
      accountId: to.id,
      title: '您收到一张优惠券',
      titleEn: 'You received a coupon',
      body: `${from} 赠送给您一张优惠券「${coupon.name}」，请在「我的优惠券」中查看。`,
      bodyEn: `${from} gave you a coupon, "${coupon.nameEn ?? coupon.name}". See it in My coupons.`,
      createdAt: now,
    });
    return {
      couponId: coupon.id,
      state,
      recipientName: (await shownName(tx, to.id)) ?? '',
      recipientPhone: maskPhone(to.phone),
      giftsLeft: Number.isFinite(left) ? left - 1 : 999,
    };
  });
}
