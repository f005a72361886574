import type { GoodsKind } from './catalog';
import { applyPercent } from './money';

/**
 * Checkout pricing (spec §3 order: price, coupon deduction, balance use, amount to pay), pure and in
 * integer cents. The server prices every quote and order with it; the client's numbers are never
 * trusted. Decision record 008.
 */

/** Spec §4 coupon tabs (the chart is machines/domain/coupon.machine.ts); `unused` past its validity reads as `expired`. */
export const COUPON_STATES = ['unused', 'used', 'expired', 'transferred'] as const;
export type CouponState = (typeof COUPON_STATES)[number];

/** An unpaid order is cancelled this long after it was created (its stock, coupon and balance come back). */
export const ORDER_PAY_WITHIN_MS = 15 * 60_000;

/** How long a friend-pay invitation stays open (spec §4, §9: 1 hour). */
export const FRIEND_INVITATION_TTL_MS = 60 * 60_000;

export interface CouponTerms {
  offCents: number;
  /** percent off (1-99), rounded half up to the cent; null = offCents */
  percentOff: number | null;
  minSpendCents: number;
  /** goods kinds it applies to; empty = every kind but coupons */
  appliesTo: readonly GoodsKind[];
}

export interface HeldCoupon extends CouponTerms {
  state: CouponState;
  validFrom: Date;
  validUntil: Date;
}

/** Why a coupon cannot be applied to this price, or null. */
export type CouponRefusal = 'couponNotUsable' | 'couponMinSpend';

/**
 * Whether the coupon's terms let it take money off goods of `kind` at `priceCents` now (its validity
 * has begun, the kind, the minimum spend). Whether its state lets it be used is the coupon chart's
 * (couponRefusal in machines/domain/coupon-transitions.ts, which the server calls).
 */
export function couponTermsRefusal(c: HeldCoupon, kind: GoodsKind, priceCents: number, now: Date): CouponRefusal | null {
  // usable from its start until its end (at the end the time-passing job writes it expired)
  if (now.getTime() < c.validFrom.getTime() || now.getTime() >= c.validUntil.getTime()) return 'couponNotUsable';
  if (c.appliesTo.length > 0 ? !c.appliesTo.includes(kind) : kind === 'coupon') return 'couponNotUsable';
  if (priceCents < c.minSpendCents) return 'couponMinSpend';
  return null;
}

/** What the coupon takes off the price: never more than the price. */
export function couponDeduction(c: CouponTerms, priceCents: number): number {
  const off = c.percentOff !== null ? applyPercent(priceCents, c.percentOff) : c.offCents;
  return Math.max(0, Math.min(off, priceCents));
}

export interface PriceInput {
  listPriceCents: number;
  memberPriceCents: number;
  /** the buyer is logged in (spec §1: member prices only after login) */
  member: boolean;
  couponDeductionCents: number;
  useBalance: boolean;
  balanceCents: number;
}

export interface PriceQuote {
  listPriceCents: number;
  memberPriceCents: number;
  priceCents: number;
  couponDeductionCents: number;
  balanceUsedCents: number;
  amountToPayCents: number;
}

/** Price, then coupon, then balance: the balance covers what the coupon left, never below zero. */
export function priceOrder(p: PriceInput): PriceQuote {
  const priceCents = p.member ? p.memberPriceCents : p.listPriceCents;
  const couponDeductionCents = Math.max(0, Math.min(p.couponDeductionCents, priceCents));
  const afterCoupon = priceCents - couponDeductionCents;
  const balanceUsedCents = p.useBalance ? Math.max(0, Math.min(p.balanceCents, afterCoupon)) : 0;
  return {
    listPriceCents: p.listPriceCents,
    memberPriceCents: p.memberPriceCents,
    priceCents,
    couponDeductionCents,
    balanceUsedCents,
    amountToPayCents: afterCoupon - balanceUsedCents,
  };
}
