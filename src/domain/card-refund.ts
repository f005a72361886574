/**
 * Card refund rules shared by the server and the app (decision 030). Pure: no imports of ours.
 */

/** The stored states of a card refund request (the card-refund chart's; the state-checks test keeps them equal). */
export const CARD_REFUND_STATE_VALUES = ['pending', 'approved', 'rejected', 'cancelled'] as const;

const DAY_MS = 86_400_000;

/** What the refund policy reads of a card and its order (decision 030). */
export interface RefundPolicyInput {
  /** the card's status: an inactive card was never used */
  status: string;
  usesTotal: number | null;
  usesLeft: number | null;
  validityDays: number | null;
  validUntil: Date | null;
  /** the money the order took (applied payments) less what was already given back */
  paidCents: number;
  /** the card type's handling fee on a started card, percent; null: the type is never refunded */
  feePercent: number | null;
}

/** The amount the policy gives back, and how it was reached (shown to the member before confirming). */
export interface RefundQuote {
  paidCents: number;
  /** the part of the card left, in thousandths (1000 = all of it) */
  leftPerMille: number;
  feePercent: number;
  amountCents: number;
}

/**
 * Decision 030: an inactive card gives back all it took; a started card gives back the part left
 * (uses left of uses bought for a count card; whole days of validity left of its validity days for a
 * time card; never more than all), less the card type's handling fee. Cents rounded down. Null when
 * the type is never refunded.
 */
export function refundQuote(p: RefundPolicyInput, now: Date): RefundQuote | null {
  if (p.feePercent === null) return null;
  if (p.status === 'inactive') return { paidCents: p.paidCents, leftPerMille: 1000, feePercent: 0, amountCents: Math.max(0, p.paidCents) };
  let left: number;
  if (p.usesTotal !== null && p.usesTotal > 0) left = (p.usesLeft ?? 0) / p.usesTotal;
  else if (p.validityDays && p.validUntil) left = Math.floor((p.validUntil.getTime() - now.getTime()) / DAY_MS) / p.validityDays;
  else left = 0;
  left = Math.min(1, Math.max(0, left));
  const leftPerMille = Math.floor(left * 1000);
  const amountCents = Math.max(0, Math.floor((p.paidCents * leftPerMille * (100 - p.feePercent)) / 100_000));
  return { paidCents: p.paidCents, leftPerMille, feePercent: p.feePercent, amountCents };
}

/** Shares `amountCents` over payments in proportion to what each can still give back (largest remainder), never over any. */
export function shareRefund(amountCents: number, lefts: readonly number[]): number[] {
  const total = lefts.reduce((a, b) => a + b, 0);
  if (total <= 0 || amountCents <= 0) return lefts.map(() => 0);
  const amount = Math.min(amountCents, total);
  const exact = lefts.map((l) => (amount * l) / total);
  const out = exact.map(Math.floor);
  let rest = amount - out.reduce((a, b) => a + b, 0);
  const order = exact.map((e, i) => [e - Math.floor(e), i] as const).sort((a, b) => b[0] - a[0]);
  for (const [, i] of order) {
    if (rest <= 0) break;
    if (out[i]! < lefts[i]!) {
      out[i]! += 1;
      rest -= 1;
    }
  }
  return out;
}
