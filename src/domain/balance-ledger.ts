/**
 * Why a member's balance changed: each `balance_ledger` row's reason (decision 021). `order`: paid at
 * checkout or for a whole order; `split_part`: one part of a split order; `cancel`: given back by a
 * cancel or an un-split; `refund`: a refund of a paid order or of money that was not wanted; `topup`
 * and `grant`: money put in by the member or given by the club.
 */
export const LEDGER_REASONS = ['topup', 'grant', 'order', 'split_part', 'cancel', 'refund'] as const;
export type LedgerReason = (typeof LEDGER_REASONS)[number];

export const isLedgerReason = (s: string): s is LedgerReason => (LEDGER_REASONS as readonly string[]).includes(s);
