import { describe, expect, it } from 'vitest';
import { runDueJobs, scheduleRecurringJobs } from '../../../src/server/jobs/runner';
import { startTestServer } from '../support/harness';
import { book, bookingRow, cardRow, DAY, HOUR, MINUTE, newCard, newClass, newMember } from './support';

/**
 * States that pass with time (decision 018) are written by the time-passing job on the
 * injected clock, through the charts: a queue entry expires when its class starts, a seat not checked
 * in ends so at the class end, a card in use expires at its validity end. What the API shows and
 * what SQL filters count is then the one stored value: a record never reads one way and counts another.
 */
describe('states that pass with time are written by a job, and read and counted one way', async () => {
  const s = await startTestServer({ seed: true });
  await scheduleRecurringJobs(s.deps);

  /** Moves the clock to `at` (never back) and runs what is due, as the job runner would. */
  const passTo = async (at: Date) => {
    if (at.getTime() > s.clock.now().getTime()) s.clock.set(at);
    await runDueJobs(s.deps);
  };

  it('a queue entry expires when its class starts: stored, shown and no longer counted in the queue', async () => {
    const start = new Date(s.clock.now().getTime() + DAY);
    const cls = await newClass(s, { startsAt: start, capacity: 1, queueCapacity: 5 });
    const seat = await newMember(s);
    const waiting = await newMember(s);
    expect((await book(s, seat.token, cls.id, (await newCard(s, seat.id)).id)).body.data.state).toBe('booked');
    const q = await book(s, waiting.token, cls.id, (await newCard(s, waiting.id)).id);
    expect(q.body.data.state).toBe('queued');

    await passTo(new Date(start.getTime() + MINUTE));
    expect((await bookingRow(s, q.body.data.bookingId)).state).toBe('expired');
    const past = await s.call('GET', '/api/customers/classes/mine?scope=past', { token: waiting.token });
    expect(past.body.data.list.map((b: { state: string }) => b.state)).toEqual(['expired']);
    const detail = await s.call('GET', `/api/customers/classes/detail?id=${cls.id}`, { token: seat.token });
    expect(detail.body.data.queueCount, 'the queue counts what the member is shown').toBe(0);
  });

  it('a seat not checked in by the end of its class is stored and shown not checked in, and is past', async () => {
    const start = new Date(s.clock.now().getTime() + DAY);
    const cls = await newClass(s, { startsAt: start, durationMin: 60 });
    const m = await newMember(s);
    const b = await book(s, m.token, cls.id, (await newCard(s, m.id)).id);
    await passTo(new Date(start.getTime() + 30 * MINUTE));
    expect((await bookingRow(s, b.body.data.bookingId)).state, 'still a seat while the class runs').toBe('booked');

    await passTo(new Date(start.getTime() + HOUR));
    expect((await bookingRow(s, b.body.data.bookingId)).state).toBe('not_checked_in');
    const upcoming = await s.call('GET', '/api/customers/classes/mine?scope=upcoming', { token: m.token });
    expect(upcoming.body.data.total).toBe(0);
    const past = await s.call('GET', '/api/customers/classes/mine?scope=past', { token: m.token });
    expect(past.body.data.list.map((x: { state: string }) => x.state)).toEqual(['not_checked_in']);
    const checkin = await s.call('POST', '/api/customers/classes/checkin', {
      token: m.token,
      body: { classId: cls.id, code: cls.checkinCode },
    });
    expect(checkin.body.code, 'check-in has closed').toBe(70043);
  });

  it('a check-in after the class end is refused even before the job has run (the seat is brought up to date first)', async () => {
    const start = new Date(s.clock.now().getTime() + DAY);
    const cls = await newClass(s, { startsAt: start, durationMin: 60 });
    const m = await newMember(s);
    const b = await book(s, m.token, cls.id, (await newCard(s, m.id)).id);
    s.clock.set(new Date(start.getTime() + HOUR));
    const checkin = await s.call('POST', '/api/customers/classes/checkin', {
      token: m.token,
      body: { classId: cls.id, code: cls.checkinCode },
    });
    expect(checkin.body.code).toBe(70043);
    expect((await bookingRow(s, b.body.data.bookingId)).checkedInAt).toBeNull();
  });

  it('a card in use expires at its validity end: stored, and the same in my cards and the card detail', async () => {
    const m = await newMember(s);
    const until = new Date(s.clock.now().getTime() + 2 * DAY);
    const card = await newCard(s, m.id, { validUntil: until });
    const frozen = await newCard(s, m.id, { status: 'frozen', validUntil: until });

    await passTo(new Date(until.getTime() - MINUTE));
    expect((await cardRow(s, card.id)).status).toBe('in_use');

    await passTo(until);
    expect((await cardRow(s, card.id)).status).toBe('expired');
    const list = await s.call('GET', '/api/customers/cards', { token: m.token });
    const detail = await s.call('GET', `/api/customers/cards/detail?id=${card.id}`, { token: m.token });
    expect(list.body.data.find((c: { id: number }) => c.id === card.id).status).toBe('expired');
    expect(detail.body.data.status).toBe('expired');
    // the chart does not expire a frozen card (its validity waits while frozen)
    expect((await cardRow(s, frozen.id)).status).toBe('frozen');
  });
});
