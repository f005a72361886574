import { describe, expect, it } from 'vitest';
import { refundQuote, shareRefund, type RefundPolicyInput } from '../../src/domain/card-refund';

/** Decision 030's refund policy and the sharing of a refund over the order's payments. */
const DAY = 86_400_000;
const now = new Date('2026-11-20T02:00:00Z');
const card = (over: Partial<RefundPolicyInput> = {}): RefundPolicyInput => ({
  status: 'in_use',
  usesTotal: 20,
  usesLeft: 13,
  validityDays: 90,
  validUntil: new Date(now.getTime() + 80 * DAY),
  paidCents: 19_900,
  feePercent: 10,
  ...over,
});

describe('refundQuote', () => {
  it('a type never refunded (no fee on its type) has no quote', () => {
    expect(refundQuote(card({ feePercent: null }), now)).toBeNull();
    expect(refundQuote(card({ status: 'inactive', feePercent: null }), now)).toBeNull();
  });

  it('a card never used gives back all it took, no fee', () => {
    expect(refundQuote(card({ status: 'inactive', usesLeft: 20 }), now)).toEqual({
      paidCents: 19_900,
      leftPerMille: 1000,
      feePercent: 0,
      amountCents: 19_900,
    });
  });

  it('a card with uses: uses left of uses bought, less the fee, cents rounded down', () => {
    expect(refundQuote(card(), now)).toEqual({ paidCents: 19_900, leftPerMille: 650, feePercent: 10, amountCents: 11_641 });
    expect(refundQuote(card({ usesLeft: 0 }), now)!.amountCents).toBe(0);
    expect(refundQuote(card({ usesLeft: null }), now)!.amountCents).toBe(0);
    expect(refundQuote(card({ usesLeft: 20, feePercent: 0 }), now)!.amountCents).toBe(19_900);
  });

  it('a time card: whole days left of its validity days, never more than all, never below nothing', () => {
    const time = (days: number, over: Partial<RefundPolicyInput> = {}) =>
      refundQuote(
        card({ usesTotal: null, usesLeft: null, validityDays: 100, validUntil: new Date(now.getTime() + days * DAY), ...over }),
        now,
      )!;
    expect(time(40.9)).toMatchObject({ leftPerMille: 400, amountCents: 7_164 });
    expect(time(150)).toMatchObject({ leftPerMille: 1000, amountCents: 17_910 });
    expect(time(-3)).toMatchObject({ leftPerMille: 0, amountCents: 0 });
    expect(time(10, { validUntil: null })).toMatchObject({ leftPerMille: 0, amountCents: 0 });
    expect(time(10, { validityDays: null })).toMatchObject({ leftPerMille: 0 });
  });

  it('a card with no uses counted (0 bought) is counted by days', () => {
    expect(refundQuote(card({ usesTotal: 0, validityDays: 100, validUntil: new Date(now.getTime() + 50 * DAY) }), now)!.leftPerMille).toBe(
      500,
    );
  });
});

describe('shareRefund', () => {
  it('shares in proportion to what each payment can still give back, the cents left to the largest remainders, never over any', () => {
    expect(shareRefund(100, [100])).toEqual([100]);
    expect(shareRefund(100, [50, 50])).toEqual([50, 50]);
    expect(shareRefund(10, [1, 1, 1])).toEqual([1, 1, 1]);
    expect(shareRefund(100, [1, 2])).toEqual([1, 2]);
    expect(shareRefund(11_641, [10_000, 9_900])).toEqual([5_850, 5_791]);
    expect(shareRefund(5, [3, 3])).toEqual([3, 2]);
    expect(shareRefund(7, [1, 10])).toEqual([1, 6]);
    const shares = shareRefund(9_999, [3_333, 3_333, 3_334]);
    expect(shares.reduce((a, b) => a + b, 0)).toBe(9_999);
  });

  it('nothing to share, or nothing to share from: all zero', () => {
    expect(shareRefund(0, [10, 10])).toEqual([0, 0]);
    expect(shareRefund(10, [0, 0])).toEqual([0, 0]);
    expect(shareRefund(10, [])).toEqual([]);
  });
});
