import { describe, expect, it } from 'vitest';
import { BOOKING_OPEN_STATES, bookingTimeMoves } from '../../machines/domain/booking-transitions';

/** What time does to a booking, read from the chart (decision 018): the moves the time-passing job writes. */
describe('the booking chart on time events', () => {
  it('at the class start a queue entry expires, and nothing else moves', () => {
    expect(bookingTimeMoves('class.start')).toEqual([{ from: 'queued', promoted: false, to: 'expired' }]);
  });

  it('at the class end a seat not checked in (booked directly or from the queue) ends not checked in', () => {
    expect(bookingTimeMoves('class.end')).toEqual([
      { from: 'booked', promoted: false, to: 'not_checked_in' },
      { from: 'booked', promoted: true, to: 'not_checked_in' },
    ]);
  });

  it('a booking is upcoming while it is a seat or a queue entry (the chart states that are not final)', () => {
    expect(BOOKING_OPEN_STATES).toEqual(['booked', 'queued']);
  });
});
