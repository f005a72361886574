import { createActor, fromPromise } from 'xstate';
import { describe, expect, it } from 'vitest';
import { checkInMachine, type CheckInContext } from '../../machines/check-in.machine';
import { defineModelTest } from './support/define-model-test';

const done = { code: 200, status: true, data: { bookingId: 5, classId: 7, state: 'checked_in', checkedInAt: '2026-11-22T10:30:00Z', usesSpent: 0 } };
const closed = { code: 70043, status: false, data: null };

defineModelTest({
  machine: checkInMachine,
  inputs: { 'a scanned class code': { classId: 7, code: 'a1b2c3d4' } },
  cases: {
    'xstate.done.actor.checkIn': [{ output: done }, { output: closed }],
    'xstate.error.actor.checkIn': [{ error: new Error('network') }],
  },
  project: (c: CheckInContext) => ({ keyed: !!c.idempotencyKey, errorCode: c.errorCode ?? null }),
});

describe('check-in machine', () => {
  it('retries with the same idempotency key; a new tap after a refusal gets a new one', async () => {
    const keys: string[] = [];
    const answers: unknown[] = [closed];
    let fail = true;
    const actor = createActor(
      checkInMachine.provide({
        actors: {
          checkIn: fromPromise(async ({ input }) => {
            keys.push(input.idempotencyKey);
            if (fail) throw new Error('network');
            return (answers.shift() ?? done) as never;
          }),
        },
      }),
      { input: { classId: 7, code: 'a1b2c3d4' } },
    ).start();
    actor.send({ type: 'checkin.submit' });
    await new Promise((r) => setTimeout(r, 0));
    expect(actor.getSnapshot().value).toBe('unreachable');
    fail = false;
    actor.send({ type: 'retry' });
    await new Promise((r) => setTimeout(r, 0));
    expect(actor.getSnapshot().value).toBe('refused');
    expect(actor.getSnapshot().context.errorCode).toBe(70043);
    actor.send({ type: 'checkin.submit' });
    await new Promise((r) => setTimeout(r, 0));
    expect(actor.getSnapshot().value).toBe('checkedIn');
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
  });
});
