/**
 * Closing an account (PIPL: a member may ask for their account to be closed; decision 057). Pure: no
 * imports of ours. What blocks a request, in the order the member is told, and the limits of its texts.
 */

/** The stored states of a closing request (the account-closing chart's; the state-checks test keeps them equal). */
export const ACCOUNT_CLOSING_STATE_VALUES = ['requested', 'closed', 'withdrawn', 'refused'] as const;
export type AccountClosingStateValue = (typeof ACCOUNT_CLOSING_STATE_VALUES)[number];

/** The longest reason staff give for refusing, and the longest note a member adds (characters). */
export const CLOSING_REASON_MAX = 200;
export const CLOSING_NOTE_MAX = 200;

/** What the server found that the member still holds (each counted by the caller, at one instant). */
export interface ClosingFacts {
  /** cards not ended (not transferred, not refunded) and not expired: they still have value */
  liveCards: number;
  /** courses with uses left and not expired, or without uses (workshops, trainings) not yet over */
  liveCourses: number;
  /** orders waiting for money, or with a refund under way */
  openOrders: number;
  /** the balance, in cents */
  balanceCents: number;
  /** bookings of classes not yet held (booked or queued) */
  liveBookings: number;
  /** card transfers or card refunds not yet decided */
  openApplications: number;
}

/** Why a closing is refused (the error names of src/domain/errors.ts, 10030-10035). */
export type ClosingBlocker = 'closingLiveCard' | 'closingOpenOrder' | 'closingBalance' | 'closingLiveBooking' | 'closingOpenApplication';

/**
 * What keeps the account from being closed now, in the order the member should deal with them: money
 * first (a card or course with value, an order with money moving, a balance), then the bookings and
 * the applications staff have not decided. Empty: it may be closed. Nothing of value is ever erased
 * silently: the member refunds, transfers or uses it first.
 */
export function closingBlockers(f: ClosingFacts): ClosingBlocker[] {
  const out: ClosingBlocker[] = [];
  if (f.liveCards > 0 || f.liveCourses > 0) out.push('closingLiveCard');
  if (f.openOrders > 0) out.push('closingOpenOrder');
  if (f.balanceCents > 0) out.push('closingBalance');
  if (f.liveBookings > 0) out.push('closingLiveBooking');
  if (f.openApplications > 0) out.push('closingOpenApplication');
  return out;
}

/**
 * The phone a closed account keeps: not a mobile number (so no code is sent to it, no login finds it)
 * and unique (the phone column is), so the real number is free for a new account.
 */
export const closedPhone = (accountId: number): string => `closed-${accountId}`;
