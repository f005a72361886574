import { describe, expect, it } from 'vitest';
import { BOOKING_OPEN_STATES, bookingTimeMoves, initialBookingState } from '../../machines/domain/booking-transitions';
import { bookingMachine } from '../../machines/domain/booking.machine';
import { mutantMachine, mutantsOf, plantMutant } from './support/mutants';

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

  it("a new request's first state is the chart's: a seat with room, the queue when full, and a planted chart's own answer", () => {
    expect([initialBookingState({ classFull: false }), initialBookingState({ classFull: true })]).toEqual(['booked', 'queued']);
    // the guard of the first choice negated: the chart now queues a class with room (asked once per chart, not per process)
    const negated = mutantsOf(bookingMachine).find((m) => m.description.startsWith('requested') && m.description.includes('negated'))!;
    const restore = plantMutant(bookingMachine, mutantMachine(bookingMachine, negated));
    try {
      expect(initialBookingState({ classFull: false })).toBe('queued');
    } finally {
      restore();
    }
    expect(initialBookingState({ classFull: false })).toBe('booked');
  });
});
