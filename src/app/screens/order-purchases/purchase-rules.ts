import type { MemberCourse, Purchase } from '../../../api/cards';

/** A course's uses left of its total, or null when it has no count (unlimited while valid). */
export function courseUsesLeft(c: Pick<MemberCourse, 'usesTotal' | 'usesLeft'>): { left: number; total: number } | null {
  if (c.usesTotal === null) return null;
  return { left: Math.max(0, c.usesLeft ?? 0), total: c.usesTotal };
}

/** The lines of what a purchase cost (spec §3 order: price, coupon deduction, balance use, amount paid); deductions only when used. */
export type CostLine = { kind: 'price' | 'coupon' | 'balance' | 'paid'; cents: number };

export function purchaseCostLines(
  p: Pick<Purchase, 'priceCents' | 'couponDeductionCents' | 'balanceUsedCents' | 'amountToPayCents'>,
): CostLine[] {
  const lines: CostLine[] = [{ kind: 'price', cents: p.priceCents }];
  if (p.couponDeductionCents > 0) lines.push({ kind: 'coupon', cents: -p.couponDeductionCents });
  if (p.balanceUsedCents > 0) lines.push({ kind: 'balance', cents: -p.balanceUsedCents });
  lines.push({ kind: 'paid', cents: p.amountToPayCents });
  return lines;
}
