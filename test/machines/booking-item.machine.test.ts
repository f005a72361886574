import { createActor, fromPromise } from 'xstate';
import { describe, expect, it } from 'vitest';
import { bookingItemMachine, type BookingItemContext } from '../../machines/booking-item.machine';
import { defineModelTest } from './support/define-model-test';

const cancelled = { code: 200, status: true, data: { bookingId: 5, state: 'cancelled', bookedNum: 0 } };
const left = { code: 200, status: true, data: { bookingId: 5, state: 'queue_cancelled', bookedNum: 0 } };
const expired = { code: 20008, status: false, data: null };

defineModelTest({
  machine: bookingItemMachine,
  inputs: {
    'a booked seat': { bookingId: 5, state: 'booked' },
    'a queue entry': { bookingId: 5, state: 'queued' },
    'a checked-in class (no change)': { bookingId: 5, state: 'checked_in' },
  },
  cases: {
    'xstate.done.actor.cancelBooking': [{ output: cancelled }, { output: expired }],
    'xstate.error.actor.cancelBooking': [{ error: new Error('network') }],
    'xstate.done.actor.cancelQueue': [{ output: left }, { output: expired }],
    'xstate.error.actor.cancelQueue': [{ error: new Error('network') }],
  },
  project: (c: BookingItemContext) => ({ state: c.state, keyed: !!c.idempotencyKey, errorCode: c.errorCode ?? null }),
});

describe('booking-item machine: the domain chart decides the offer', () => {
  it('offers cancel booking on a seat and cancel queue on a queue entry only', () => {
    const seat = createActor(bookingItemMachine, { input: { bookingId: 1, state: 'booked' } }).start();
    seat.send({ type: 'queue.cancel' });
    expect(seat.getSnapshot().value).toBe('idle');
    seat.send({ type: 'booking.cancel' });
    expect(seat.getSnapshot().value).toEqual({ cancellingSeat: 'confirming' });

    const queued = createActor(bookingItemMachine, { input: { bookingId: 1, state: 'queued' } }).start();
    queued.send({ type: 'booking.cancel' });
    expect(queued.getSnapshot().value).toBe('idle');
    queued.send({ type: 'queue.cancel' });
    expect(queued.getSnapshot().value).toEqual({ leavingQueue: 'confirming' });
  });

  it('retries with the same idempotency key', async () => {
    const keys: string[] = [];
    let fail = true;
    let changed = 0;
    const actor = createActor(
      bookingItemMachine.provide({
        actors: {
          cancelBooking: fromPromise(async ({ input }) => {
            keys.push(input.idempotencyKey);
            if (fail) throw new Error('network');
            return cancelled as never;
          }),
        },
        actions: { bookingChanged: () => void changed++ },
      }),
      { input: { bookingId: 5, state: 'booked' } },
    ).start();
    actor.send({ type: 'booking.cancel' });
    actor.send({ type: 'confirm.accept' });
    await new Promise((r) => setTimeout(r, 0));
    expect(actor.getSnapshot().value).toEqual({ cancellingSeat: 'unreachable' });
    fail = false;
    actor.send({ type: 'retry' });
    await new Promise((r) => setTimeout(r, 0));
    expect(actor.getSnapshot().value).toBe('cancelled');
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    expect(changed).toBe(1);
  });
});
