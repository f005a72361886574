import { setup } from 'xstate';

/** What can happen to a coupon a member holds. */
export type CouponEvent = { type: 'coupon.use' } | { type: 'coupon.release' } | { type: 'coupon.expire' } | { type: 'coupon.gift' };

/**
 * A member's coupon (spec §4 coupon tabs: unused, used, expired, transferred; decision 008). An unused
 * coupon is used by the order it is applied to, and given back (unused again) when that order is
 * cancelled or expires unpaid; it expires at the end of its validity; it may be gifted to another
 * member (it leaves the giver: transferred). State names are the stored
 * `member_coupons.state` values. The server checks every change against this chart.
 */
export const couponMachine = setup({
  types: { events: {} as CouponEvent },
}).createMachine({
  id: 'coupon',
  initial: 'unused',
  states: {
    unused: {
      description: 'Held and usable: applies to a purchase within its validity; can be gifted to another member.',
      on: {
        'coupon.use': 'used',
        'coupon.expire': 'expired',
        'coupon.gift': 'transferred',
      },
    },
    used: {
      description: 'Applied to an order: given back (unused again) when that order is cancelled or expires unpaid.',
      on: { 'coupon.release': 'unused' },
    },
    expired: { description: 'Past its validity without being used.', type: 'final' },
    transferred: { description: "Gifted to another member: it left this member's coupons.", type: 'final' },
  },
});
