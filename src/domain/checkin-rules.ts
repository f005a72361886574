import type { BookingRowState } from './booking-rules';

/** Check-in opens this long before a class starts (members arrive early to change). */
export const CHECKIN_OPENS_BEFORE_MS = 60 * 60_000;

export type CheckinRefusal = 'checkinNotBooked' | 'checkinAlready' | 'checkinClosed';

/**
 * Whether a seat can be checked in now (decision 007). `state` is the member's stored state for the
 * class, up to date with the clock (decision 018: a seat not checked in by the end is written
 * not-checked-in by the time-passing job), or null without one.
 * Check-in opens an hour before the start and closes at the end.
 */
export function checkinRefusal(state: BookingRowState | null, startsAt: Date, now: Date): CheckinRefusal | null {
  if (state === 'checked_in') return 'checkinAlready';
  if (state === 'not_checked_in') return 'checkinClosed';
  if (state !== 'booked') return 'checkinNotBooked';
  if (now.getTime() < startsAt.getTime() - CHECKIN_OPENS_BEFORE_MS) return 'checkinClosed';
  return null;
}

/** Uses a seat still owes at the door: a count card pays the class's cost once (booked seats have paid already). */
export function usesOwed(card: { usesLeft: number | null }, usesCost: number, usesSpent: number): number {
  return card.usesLeft === null ? 0 : Math.max(0, usesCost - usesSpent);
}
