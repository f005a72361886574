import type { GoodsKind } from '../../src/domain/catalog';
import { couponTermsRefusal, type CouponRefusal, type CouponState, type HeldCoupon } from '../../src/domain/pricing';
import { nextFlatState, storedStates } from './chart-states';
import { couponMachine, type CouponEvent } from './coupon.machine';

export type { CouponState };

/** Every value `member_coupons.state` may hold, from the chart. */
export const COUPON_STORED_STATES = storedStates<CouponState>(couponMachine);

/** A new coupon's state (the chart's initial state). */
export const COUPON_INITIAL_STATE = couponMachine.config.initial as CouponState;

/**
 * Where a coupon in `state` goes on `event`, by the chart; null when the chart refuses the change.
 * Pure (xstate's getNextSnapshot): the server's one way to accept or refuse a coupon change.
 */
export function nextCouponState(state: CouponState, event: CouponEvent['type']): CouponState | null {
  return nextFlatState<CouponState>(couponMachine, state, event);
}

/** The stored states in which the chart lets `event` happen (a guarded update's `where state in`). */
export function couponStatesAllowing(event: CouponEvent['type']): CouponState[] {
  return COUPON_STORED_STATES.filter((s) => nextCouponState(s, event) !== null);
}

/**
 * The moves the chart makes on `coupon.expire` (an unused coupon expires at its validity end; a used
 * one is held by its order), read from the chart: the time-passing job writes exactly these.
 */
export function couponExpiryMoves(): { from: CouponState; to: CouponState }[] {
  return COUPON_STORED_STATES.flatMap((from) => {
    const to = nextCouponState(from, 'coupon.expire');
    return to !== null && to !== from ? [{ from, to }] : [];
  });
}

/** Whether the coupon may take money off goods of `kind` at `priceCents` now: the chart lets it be used, and its terms (validity included). */
export function couponRefusal(c: HeldCoupon, kind: GoodsKind, priceCents: number, now: Date): CouponRefusal | null {
  if (!nextCouponState(c.state, 'coupon.use')) return 'couponNotUsable';
  return couponTermsRefusal(c, kind, priceCents, now);
}
