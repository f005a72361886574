import { describe, expect, it } from 'vitest';
import { BOOKING_ROW_STATES } from '../../src/domain/booking-rules';
import { checkinRefusal, usesOwed } from '../../src/domain/checkin-rules';

/** Shanghai wall time "YYYY-MM-DD HH:MM" as an instant (UTC+08:00, no DST). */
const sh = (s: string) => new Date(`${s.replace(' ', 'T')}:00+08:00`);
const start = sh('2026-11-21 10:00');
const ms = (d: Date, delta: number) => new Date(d.getTime() + delta);

describe('check-in time: a booked seat checks in from an hour before the start (decision 007)', () => {
  it('opens exactly one hour before the start, not a millisecond earlier', () => {
    expect(checkinRefusal('booked', start, sh('2026-11-21 09:00'))).toBeNull();
    expect(checkinRefusal('booked', start, ms(sh('2026-11-21 09:00'), -1))).toBe('checkinClosed');
    expect(checkinRefusal('booked', start, sh('2026-11-21 08:00'))).toBe('checkinClosed');
    expect(checkinRefusal('booked', start, sh('2026-11-20 10:00'))).toBe('checkinClosed');
  });

  it('stays open at the start and while the class runs', () => {
    expect(checkinRefusal('booked', start, sh('2026-11-21 09:30'))).toBeNull();
    expect(checkinRefusal('booked', start, start)).toBeNull();
    expect(checkinRefusal('booked', start, sh('2026-11-21 10:45'))).toBeNull();
  });

  it('is closed once the class has ended: the seat was written not checked in (decision 018)', () => {
    expect(checkinRefusal('not_checked_in', start, sh('2026-11-21 11:01'))).toBe('checkinClosed');
    // even inside the hour (a stored state is what counts, not the clock alone)
    expect(checkinRefusal('not_checked_in', start, start)).toBe('checkinClosed');
  });
});

describe('check-in refusals of spec §8', () => {
  it('"already signed": a seat checked in is refused at any time, before the window too', () => {
    expect(checkinRefusal('checked_in', start, start)).toBe('checkinAlready');
    expect(checkinRefusal('checked_in', start, sh('2026-11-20 10:00'))).toBe('checkinAlready');
  });

  it('"not purchased": no seat (no booking, only a queue place, cancelled or expired) is refused, inside the window too', () => {
    expect(checkinRefusal(null, start, start)).toBe('checkinNotBooked');
    for (const state of ['queued', 'cancelled', 'queue_cancelled', 'expired'] as const) {
      expect(checkinRefusal(state, start, start), state).toBe('checkinNotBooked');
      expect(checkinRefusal(state, start, sh('2026-11-20 10:00')), state).toBe('checkinNotBooked');
    }
  });

  it('only a booked seat can be checked in (every stored state covered)', () => {
    const allowed = BOOKING_ROW_STATES.filter((s) => checkinRefusal(s, start, start) === null);
    expect(allowed).toEqual(['booked']);
  });
});

describe('"no remaining count": what a seat still owes at the door', () => {
  it('a count-card seat that has not paid its class owes the class cost', () => {
    expect(usesOwed({ usesLeft: 5 }, 1, 0)).toBe(1);
    expect(usesOwed({ usesLeft: 5 }, 2, 0)).toBe(2);
    // a card with nothing left still owes it (the check-in then refuses: 70042)
    expect(usesOwed({ usesLeft: 0 }, 2, 0)).toBe(2);
  });

  it('a seat that paid at booking owes nothing more, and never a negative number', () => {
    expect(usesOwed({ usesLeft: 5 }, 1, 1)).toBe(0);
    expect(usesOwed({ usesLeft: 5 }, 2, 1)).toBe(1);
    expect(usesOwed({ usesLeft: 5 }, 1, 3)).toBe(0);
  });

  it('a card without a use count (time-based) owes nothing at the door', () => {
    expect(usesOwed({ usesLeft: null }, 2, 0)).toBe(0);
  });
});
