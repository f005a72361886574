import { describe, expect, it } from 'vitest';
import { couponExpiryMoves, couponRefusal } from '../../machines/domain/coupon-transitions';
import { couponDeduction, priceOrder, type HeldCoupon } from '../../src/domain/pricing';

const now = new Date('2026-11-22T02:00:00Z');
const coupon = (over: Partial<HeldCoupon> = {}): HeldCoupon => ({
  offCents: 2_000,
  percentOff: null,
  minSpendCents: 10_000,
  appliesTo: [],
  state: 'unused',
  validFrom: new Date('2026-11-01T00:00:00Z'),
  validUntil: new Date('2026-12-01T00:00:00Z'),
  ...over,
});

describe('checkout pricing (spec §3 order: price, coupon deduction, balance use, amount to pay)', () => {
  it('members pay the member price, visitors the list price', () => {
    const base = { listPriceCents: 29_900, memberPriceCents: 19_900, couponDeductionCents: 0, useBalance: false, balanceCents: 0 };
    expect(priceOrder({ ...base, member: true }).priceCents).toBe(19_900);
    expect(priceOrder({ ...base, member: false }).priceCents).toBe(29_900);
  });

  it('price, then coupon, then balance; the balance never covers more than the coupon left; amount never below zero', () => {
    const q = priceOrder({
      listPriceCents: 29_900,
      memberPriceCents: 19_900,
      member: true,
      couponDeductionCents: 2_000,
      useBalance: true,
      balanceCents: 50_000,
    });
    expect(q).toEqual({
      listPriceCents: 29_900,
      memberPriceCents: 19_900,
      priceCents: 19_900,
      couponDeductionCents: 2_000,
      balanceUsedCents: 17_900,
      amountToPayCents: 0,
    });
    const big = priceOrder({
      listPriceCents: 1_000,
      memberPriceCents: 1_000,
      member: true,
      couponDeductionCents: 5_000,
      useBalance: true,
      balanceCents: 100,
    });
    expect(big).toMatchObject({ couponDeductionCents: 1_000, balanceUsedCents: 0, amountToPayCents: 0 });
    expect(
      priceOrder({
        listPriceCents: 1_000,
        memberPriceCents: 1_000,
        member: true,
        couponDeductionCents: 0,
        useBalance: false,
        balanceCents: 999,
      }).balanceUsedCents,
    ).toBe(0);
  });

  it('a percent coupon rounds half up to the cent; a fixed one is capped at the price', () => {
    expect(couponDeduction({ offCents: 0, percentOff: 50, minSpendCents: 0, appliesTo: [] }, 1_005)).toBe(503);
    expect(couponDeduction({ offCents: 0, percentOff: 10, minSpendCents: 0, appliesTo: [] }, 19_999)).toBe(2_000);
    expect(couponDeduction({ offCents: 0, percentOff: 10, minSpendCents: 0, appliesTo: [] }, 19_994)).toBe(1_999);
    expect(couponDeduction({ offCents: 5_000, percentOff: null, minSpendCents: 0, appliesTo: [] }, 1_500)).toBe(1_500);
  });

  it('a coupon applies when unused, in its validity, for the goods kind and from its minimum spend', () => {
    expect(couponRefusal(coupon(), 'card', 10_000, now)).toBeNull();
    expect(couponRefusal(coupon(), 'card', 9_999, now)).toBe('couponMinSpend');
    expect(couponRefusal(coupon({ state: 'used' }), 'card', 10_000, now)).toBe('couponNotUsable');
    expect(couponRefusal(coupon({ validUntil: now }), 'card', 10_000, now)).toBe('couponNotUsable');
    expect(couponRefusal(coupon({ validFrom: new Date(now.getTime() + 1) }), 'card', 10_000, now)).toBe('couponNotUsable');
    expect(couponRefusal(coupon({ appliesTo: ['workshop'] }), 'card', 10_000, now)).toBe('couponNotUsable');
    expect(couponRefusal(coupon({ appliesTo: ['workshop'] }), 'workshop', 10_000, now)).toBeNull();
    // a coupon never buys a coupon unless it says so
    expect(couponRefusal(coupon(), 'coupon', 10_000, now)).toBe('couponNotUsable');
  });

  it('a coupon is usable from its start until its end, not at the end', () => {
    expect(couponRefusal(coupon({ validUntil: now }), 'card', 10_000, now)).toBe('couponNotUsable');
    expect(couponRefusal(coupon({ validUntil: new Date(now.getTime() + 1) }), 'card', 10_000, now)).toBeNull();
  });

  it('at its validity end only an unused coupon expires (the job writes these moves; a used one is held by its order)', () => {
    expect(couponExpiryMoves()).toEqual([{ from: 'unused', to: 'expired' }]);
  });
});
