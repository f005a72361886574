import { describe, expect, it } from 'vitest';
import { bookingMachine } from '../../machines/domain/booking.machine';
import { canApply, initialBookingState, nextBookingState } from '../../machines/domain/booking-transitions';
import { defineModelTest } from './support/define-model-test';

defineModelTest({
  machine: bookingMachine,
  inputs: {
    'a seat in a class with room': { classFull: false },
    'a full class (queue)': { classFull: true },
  },
  project: (c: { classFull: boolean }) => ({ classFull: c.classFull }),
});

describe('the server reads the booking chart (canApply)', () => {
  it('lets a seat be cancelled, checked in or end not checked in', () => {
    expect(nextBookingState('booked', 'booking.cancel')).toBe('cancelled');
    expect(nextBookingState('booked', 'checkin')).toBe('checked_in');
    expect(nextBookingState('booked', 'class.end')).toBe('not_checked_in');
    expect(canApply('booked', 'queue.cancel')).toBe(false);
    expect(canApply('booked', 'queue.promote')).toBe(false);
  });

  it('lets a queue entry be promoted, cancelled, skipped or expire', () => {
    expect(nextBookingState('queued', 'queue.promote')).toBe('booked');
    expect(nextBookingState('queued', 'queue.cancel')).toBe('queue_cancelled');
    expect(nextBookingState('queued', 'queue.skip')).toBe('queue_cancelled');
    expect(nextBookingState('queued', 'class.start')).toBe('expired');
    expect(canApply('queued', 'booking.cancel')).toBe(false);
  });

  it('a promoted seat is a seat (booked.promoted): cancelled, checked in or ending like any other', () => {
    expect(nextBookingState('booked', 'booking.cancel', { promoted: true })).toBe('cancelled');
    expect(nextBookingState('booked', 'checkin', { promoted: true })).toBe('checked_in');
    expect(nextBookingState('booked', 'class.end', { promoted: true })).toBe('not_checked_in');
    expect(canApply('booked', 'queue.promote', { promoted: true })).toBe(false);
    expect(bookingMachine.resolveState({ value: { booked: 'promoted' }, context: { classFull: true } }).matches({ booked: 'promoted' })).toBe(true);
  });

  it('gives a new request its first state: a seat when the class has room, the queue when it is full', () => {
    expect(initialBookingState({ classFull: false })).toBe('booked');
    expect(initialBookingState({ classFull: true })).toBe('queued');
  });

  it('refuses every change to a finished booking', () => {
    for (const s of ['cancelled', 'queue_cancelled', 'checked_in', 'not_checked_in', 'expired'] as const) {
      for (const e of ['booking.cancel', 'queue.cancel', 'queue.promote', 'queue.skip', 'class.start', 'checkin', 'class.end'] as const) {
        expect(canApply(s, e), `${s} ${e}`).toBe(false);
      }
    }
  });
});
