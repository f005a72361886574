import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { BOOKING_OPEN_STATES } from '../../../machines/domain/booking-transitions';
import { bookingMachine } from '../../../machines/domain/booking.machine';
import { notifications } from '../../../src/server/db/schema/index';
import { enqueueJob } from '../../../src/server/jobs/queue';
import { runDueJobs } from '../../../src/server/jobs/runner';
import { TIME_PASSING_JOB } from '../../../src/server/jobs/time-passing';
import { book, bookingRow, cardRow, DAY, HOUR, MINUTE, newCard, newClass, newMember } from '../booking/support';
import { startTestServer } from '../support/harness';
import { accepted, defineServerPaths } from '../support/server-paths';

/**
 * The booking chart (spec §4 booking, decisions 006, 007, 018) against the server. A member books a
 * class with room (a seat) or a full one (its queue, behind another member's seat). Each event is
 * what causes it: the member's cancel, queue cancel and check-in calls; a promotion or a skip when
 * the other member gives up their seat (a skip when our member has meanwhile booked an overlapping
 * class); the class's start and end by moving the injected clock and running the time-passing job.
 * Each state is read back from GET /customers/classes/mine and the bookings table, with what it
 * promises: the use spent or given back, the queue counted, the notice sent, check-in recorded.
 */
const s = await startTestServer({ seed: true });
// the time-passing job, scheduled as the runner schedules it (only it: housekeeping has nothing to do with bookings)
await enqueueJob(s.deps.db, { kind: TIME_PASSING_JOB, runAt: s.clock.now() });

const USES = 10;

interface Booking {
  token: string;
  accountId: number;
  cardId: number;
  classId: number;
  startsAt: Date;
  endsAt: Date;
  code: string;
  bookingId: number;
  /** the other member, in the class before ours */
  other: { token: string; bookingId: number };
  /** our booking as the list showed it at the last read (the states' checks look at it) */
  shown?: Record<string, any>;
}

/** The chart's name of a stored booking state. */
const CHART: Record<string, string> = { queue_cancelled: 'queueCancelled', checked_in: 'checkedIn', not_checked_in: 'notCheckedIn' };
const chartName = (state: string, promoted: boolean) =>
  state === 'booked' ? `booked.${promoted ? 'promoted' : 'direct'}` : (CHART[state] ?? state);

/** Our booking as GET /customers/classes/mine lists it: upcoming or past (where `first` says it should be, first). */
async function listed(w: Booking, first: 'upcoming' | 'past'): Promise<Record<string, any>> {
  for (const scope of first === 'upcoming' ? ['upcoming', 'past'] : ['past', 'upcoming']) {
    const r = await s.call('GET', `/api/customers/classes/mine?scope=${scope}&pagesize=50`, { token: w.token });
    const b = (r.body.data.list as Array<{ bookingId: number }>).find((x) => x.bookingId === w.bookingId);
    if (b) return { scope, ...(b as Record<string, any>) };
  }
  throw new Error(`booking ${w.bookingId} is in neither list`);
}
const classView = async (w: Booking) =>
  (await s.call('GET', `/api/customers/classes/detail?id=${w.classId}`, { token: w.token })).body.data;
const usesLeft = async (w: Booking) => (await cardRow(s, w.cardId)).usesLeft;
const notices = async (w: Booking) =>
  (await s.deps.db.select().from(notifications).where(eq(notifications.accountId, w.accountId))).map((n) => n.title);

/** Moves the injected clock to `at` (never back) and runs the jobs that are due, as the runner would. */
async function passTo(at: Date) {
  if (at.getTime() > s.clock.now().getTime()) s.clock.set(at);
  await runDueJobs(s.deps);
}

const refusedHere = () => {
  throw new Error('a request is a seat or a queue entry at once: never at rest here');
};

defineServerPaths<Booking>(s, {
  machine: bookingMachine,
  record: "a member's booking",
  inputs: {
    'a class with room': { classFull: false },
    'a full class': { classFull: true },
  },
  async start(_s, input) {
    const { classFull } = input as { classFull: boolean };
    const startsAt = new Date(s.clock.now().getTime() + DAY);
    const cls = await newClass(s, { startsAt, capacity: classFull ? 1 : 2, queueCapacity: 5 });
    const other = await newMember(s);
    const seat = await book(s, other.token, cls.id, (await newCard(s, other.id)).id);
    accepted(seat, "the other member's seat");
    const m = await newMember(s);
    const card = await newCard(s, m.id, { usesTotal: USES, usesLeft: USES });
    const mine = await book(s, m.token, cls.id, card.id);
    accepted(mine, 'book');
    return {
      token: m.token,
      accountId: m.id,
      cardId: card.id,
      classId: cls.id,
      startsAt,
      endsAt: new Date(startsAt.getTime() + cls.durationMin * MINUTE),
      code: cls.checkinCode,
      bookingId: mine.body.data.bookingId,
      other: { token: other.token, bookingId: seat.body.data.bookingId },
    };
  },
  events: {
    'booking.cancel': async (w) =>
      accepted(await s.call('POST', '/api/customers/classes/cancel', { token: w.token, body: { bookingId: w.bookingId } }), 'cancel'),
    'queue.cancel': async (w) =>
      accepted(
        await s.call('POST', '/api/customers/classes/queue/cancel', { token: w.token, body: { bookingId: w.bookingId } }),
        'leave the queue',
      ),
    // the seat before ours is given up: the queue moves up
    'queue.promote': async (w) =>
      accepted(
        await s.call('POST', '/api/customers/classes/cancel', { token: w.other.token, body: { bookingId: w.other.bookingId } }),
        'the other member cancels',
      ),
    // our member has booked a class at the same time meanwhile (another card), so the freed seat cannot be theirs
    'queue.skip': async (w) => {
      const clash = await newClass(s, { startsAt: w.startsAt });
      await book(s, w.token, clash.id, (await newCard(s, w.accountId)).id);
      accepted(
        await s.call('POST', '/api/customers/classes/cancel', { token: w.other.token, body: { bookingId: w.other.bookingId } }),
        'the other member cancels',
      );
    },
    'class.start': (w) => passTo(w.startsAt),
    'class.end': async (w, from) => {
      // a queue entry meets its class's start first (class.start): the end alone cannot happen to it
      if (from === 'queued') return;
      await passTo(w.endsAt);
    },
    // the member scans the class's code once check-in has opened (an hour before the start)
    'booking.checkin': async (w) => {
      await passTo(new Date(w.startsAt.getTime() - 30 * MINUTE));
      accepted(
        await s.call('POST', '/api/customers/classes/checkin', { token: w.token, body: { classId: w.classId, code: w.code } }),
        'check in',
      );
    },
  },
  async read(w) {
    const row = await bookingRow(s, w.bookingId);
    const b = (w.shown = await listed(w, BOOKING_OPEN_STATES.includes(row.state) ? 'upcoming' : 'past'));
    return { stored: chartName(row.state, row.promoted), shown: chartName(b.state, b.promoted) };
  },
  states: {
    requested: refusedHere,
    // a seat: upcoming, its use spent, the class counts it; cancellable until the start
    booked: async (w) => {
      const b = w.shown!;
      const before = s.clock.now() < w.startsAt;
      expect({ scope: b.scope, canCancel: b.canCancel, canCancelQueue: b.canCancelQueue }).toEqual({
        scope: 'upcoming',
        canCancel: before,
        canCancelQueue: false,
      });
      expect(await usesLeft(w), 'the use is spent').toBe(USES - 1);
      expect((await bookingRow(s, w.bookingId)).usesSpent).toBe(1);
      const view = await classView(w);
      expect(view).toMatchObject({ state: 'booked', bookingId: w.bookingId });
      expect(view.bookedCount, 'never more seats than the class has').toBeLessThanOrEqual(view.capacity);
    },
    'booked.direct': async (w) => {
      expect((await bookingRow(s, w.bookingId)).queuedAt, 'never queued').toBeNull();
      expect(await notices(w)).toEqual([]);
    },
    // from the queue: the member is told, once
    'booked.promoted': async (w) => {
      expect((await notices(w)).filter((t) => t.startsWith('候补成功'))).toHaveLength(1);
      expect((await classView(w)).queueCount, 'out of the queue').toBe(0);
    },
    // in the queue of a class that has not started, first in line; nothing spent yet
    queued: async (w) => {
      expect(s.clock.now().getTime(), 'the class has not started').toBeLessThan(w.startsAt.getTime());
      const b = w.shown!;
      expect({ scope: b.scope, queuePosition: b.queuePosition, canCancelQueue: b.canCancelQueue, canCancel: b.canCancel }).toEqual({
        scope: 'upcoming',
        queuePosition: 1,
        canCancelQueue: s.clock.now() < w.startsAt,
        canCancel: false,
      });
      expect(await usesLeft(w)).toBe(USES);
      expect((await bookingRow(s, w.bookingId)).cancelledAt, 'it has not left').toBeNull();
      expect(await classView(w)).toMatchObject({ state: 'queued', queueCount: 1 });
    },
    // cancelled by the member: the use back, past
    cancelled: async (w) => {
      const row = await bookingRow(s, w.bookingId);
      expect({ reason: row.cancelReason, at: row.cancelledAt !== null, hadSeat: row.bookedAt !== null }).toEqual({
        reason: 'member',
        at: true,
        hadSeat: true,
      });
      expect(await usesLeft(w), 'the use comes back').toBe(USES);
      expect(w.shown!.scope).toBe('past');
      expect((await classView(w)).bookingId, 'no live booking in the class').toBeNull();
    },
    // out of the queue: by the member, or skipped (told why); nothing spent
    queueCancelled: async (w) => {
      const row = await bookingRow(s, w.bookingId);
      const skipped = (await notices(w)).filter((t) => t.startsWith('候补未能转为预约'));
      expect(row.cancelReason === 'not-qualified' ? skipped.length : 0, 'a skipped member is told once').toBe(
        row.cancelReason === 'not-qualified' ? 1 : 0,
      );
      expect(['member', 'not-qualified']).toContain(row.cancelReason);
      expect(row.bookedAt, 'it never had a seat').toBeNull();
      expect(await usesLeft(w)).toBe(USES);
      expect(w.shown!.scope).toBe('past');
      expect((await classView(w)).queueCount, 'not counted in the queue').toBe(0);
    },
    // checked in at the door: recorded, the use stays spent, past
    checkedIn: async (w) => {
      expect(s.clock.now().getTime(), 'check-in had opened').toBeGreaterThanOrEqual(w.startsAt.getTime() - HOUR);
      const row = await bookingRow(s, w.bookingId);
      expect({ by: row.checkedInBy, at: row.checkedInAt !== null }).toEqual({ by: w.accountId, at: true });
      expect(await usesLeft(w)).toBe(USES - 1);
      expect(w.shown!.scope).toBe('past');
      expect((await classView(w)).state).toBe('checked-in');
    },
    // the class ended without them: no check-in, the use not given back, past
    notCheckedIn: async (w) => {
      expect(s.clock.now().getTime(), 'the class has ended').toBeGreaterThanOrEqual(w.endsAt.getTime());
      expect((await bookingRow(s, w.bookingId)).checkedInAt).toBeNull();
      expect(await usesLeft(w), 'a seat not used is not refunded').toBe(USES - 1);
      expect(w.shown!.scope).toBe('past');
      expect((await classView(w)).state).toBe('not-checked-in');
    },
    // the class started while they queued: past, nothing spent, out of the queue
    expired: async (w) => {
      expect(s.clock.now().getTime(), 'the class has started').toBeGreaterThanOrEqual(w.startsAt.getTime());
      expect((await bookingRow(s, w.bookingId)).bookedAt, 'it never had a seat').toBeNull();
      expect(await usesLeft(w)).toBe(USES);
      expect(w.shown!.scope).toBe('past');
      expect(await classView(w)).toMatchObject({ state: 'expired', queueCount: 0, bookingId: null });
    },
  },
});
