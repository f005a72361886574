import { describe, expect, it } from 'vitest';
import type { MyBooking } from '../../../src/api/booking';
import { bookedDays, monthGrid, parseMonth } from '../../../src/app/screens/booking/calendar-grid';

const booking = (startsAt: string, state: MyBooking['state']) => ({ bookingId: 1, state, class: { startsAt } }) as unknown as MyBooking;

describe('calendar of my bookings (/takecourse)', () => {
  it('lays a month out Monday first', () => {
    const weeks = monthGrid('2026-11'); // 1 Nov 2026 is a Sunday
    expect(weeks[0]).toEqual([null, null, null, null, null, null, '2026-11-01']);
    expect(weeks.at(-1)![0]).toBe('2026-11-30');
    expect(weeks.flat().filter(Boolean)).toHaveLength(30);
  });

  it('refuses malformed months', () => {
    expect(parseMonth('2026-13')).toBeNull();
    expect(parseMonth('2026-02')).toBe('2026-02');
  });

  it('dots the Shanghai day of each live booking; a seat outranks a queue place; cancelled ones are not shown', () => {
    const days = bookedDays([
      booking('2026-11-22T16:30:00Z', 'booked'), // 00:30 on 23 Nov in Shanghai
      booking('2026-11-24T02:00:00Z', 'queued'),
      booking('2026-11-24T10:00:00Z', 'checked_in'),
      booking('2026-11-25T10:00:00Z', 'cancelled'),
      booking('2026-11-26T10:00:00Z', 'queued'),
    ]);
    expect([...days]).toEqual([
      ['2026-11-23', 'booked'],
      ['2026-11-24', 'booked'],
      ['2026-11-26', 'queued'],
    ]);
  });
});
