import { and, eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bookings, memberCards } from '../../../src/server/db/schema/index';
import { bookClass } from '../../../src/server/services/booking/decide';
import { startTestServer, usePostgres } from '../support/harness';
import { unlockedRace } from '../support/without-locks';
import { book, classRow, newCard, newClass, newMember, sh } from './support';

/**
 * Races for the last mats, on PostgreSQL only: PGlite is one connection, so its transactions never
 * overlap and a race there proves nothing (STACK-NOTES.md). Each request runs its transaction on
 * its own pooled connection (pool of 20). The negative control runs the same decision without the
 * row locks (a database handle that takes none, and book_seats built without its lock: `without-locks.ts`)
 * and shows the test would catch the oversell (the pretix concurrency tests' model).
 */
describe.runIf(usePostgres)('booking races on PostgreSQL', async () => {
  const s = await startTestServer({ seed: true });

  async function members(n: number, cardOver: Parameters<typeof newCard>[2] = {}) {
    const out: { id: number; token: string; cardId: number }[] = [];
    for (let i = 0; i < n; i++) {
      const m = await newMember(s);
      out.push({ ...m, cardId: (await newCard(s, m.id, cardOver)).id });
    }
    return out;
  }

  async function seatsOf(classId: number) {
    return s.deps.db
      .select()
      .from(bookings)
      .where(and(eq(bookings.classId, classId), eq(bookings.state, 'booked')));
  }

  it('books exactly capacity of 40 concurrent requests for 5 mats; the rest queue 1..35 in order; one use per seat', async () => {
    const cls = await newClass(s, { capacity: 5, queueCapacity: 100 });
    const ms = await members(40);
    const answers = await Promise.all(ms.map((m) => book(s, m.token, cls.id, m.cardId)));
    expect(answers.filter((r) => r.status !== 200).map((r) => r.body)).toEqual([]);
    const booked = answers.filter((r) => r.body.data.state === 'booked');
    const queued = answers.filter((r) => r.body.data.state === 'queued');
    expect(booked).toHaveLength(5);
    expect(queued).toHaveLength(35);
    // positions 1..35, and in the order the queue rows were written (id order)
    const byId = [...queued].sort((a, b) => a.body.data.bookingId - b.body.data.bookingId);
    expect(byId.map((r) => r.body.data.position)).toEqual(Array.from({ length: 35 }, (_, i) => i + 1));
    expect((await classRow(s, cls.id)).bookedCount).toBe(5);
    expect(await seatsOf(cls.id)).toHaveLength(5);
    const cards = await s.deps.db
      .select()
      .from(memberCards)
      .where(
        inArray(
          memberCards.id,
          ms.map((m) => m.cardId),
        ),
      );
    expect(cards.reduce((n, c) => n + (10 - c.usesLeft!), 0)).toBe(5);
    console.log(`race with row locks: 40 requests, capacity 5 -> booked ${booked.length}, queued ${queued.length}, uses spent 5`);
  });

  it('spends a last use once when one member taps ten classes at the same moment', async () => {
    const [m] = await members(1, { usesLeft: 1 });
    const classes = [];
    for (let h = 0; h < 10; h++)
      classes.push(await newClass(s, { startsAt: sh(`2026-11-22 ${String(8 + h).padStart(2, '0')}:00`), durationMin: 50 }));
    const answers = await Promise.all(classes.map((c) => book(s, m!.token, c.id, m!.cardId)));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    expect(answers.filter((r) => r.body.code === 20004)).toHaveLength(9);
    const [card] = await s.deps.db.select().from(memberCards).where(eq(memberCards.id, m!.cardId));
    expect(card!.usesLeft).toBe(0);
  });

  it('lets one of two simultaneous taps on overlapping classes win (two cards: the member row is locked)', async () => {
    for (let round = 0; round < 5; round++) {
      const m = await newMember(s);
      const [c1, c2] = [await newCard(s, m.id), await newCard(s, m.id)];
      const x = await newClass(s, { startsAt: sh(`2026-11-21 ${String(8 + 2 * round).padStart(2, '0')}:00`), durationMin: 90 });
      const y = await newClass(s, { startsAt: sh(`2026-11-21 ${String(8 + 2 * round).padStart(2, '0')}:30`), clubId: 2 });
      const answers = await Promise.all([book(s, m.token, x.id, c1.id), book(s, m.token, y.id, c2.id)]);
      expect(answers.map((r) => r.body.data?.state ?? r.body.code).sort()).toEqual([20030, 'booked']);
    }
  });

  it('promotes the queue in order when three booked members cancel at once', async () => {
    const cls = await newClass(s, { capacity: 3, queueCapacity: 20 });
    const ms = await members(8);
    const ids: number[] = [];
    for (const m of ms) ids.push((await book(s, m.token, cls.id, m.cardId)).body.data.bookingId);
    const cancels = await Promise.all(
      ms.slice(0, 3).map((m, i) => s.call('POST', '/api/customers/classes/cancel', { token: m.token, body: { bookingId: ids[i] } })),
    );
    expect(cancels.every((r) => r.status === 200)).toBe(true);
    const seats = await seatsOf(cls.id);
    expect(seats.map((b) => b.id).sort((a, b) => a - b)).toEqual(ids.slice(3, 6));
    expect((await classRow(s, cls.id)).bookedCount).toBe(3);
  });

  it('a queued member tapping Book again while a seat is cancelled and others book: the lock orders may cross (member, card, class against class, member), and the answers still hold', async () => {
    for (let round = 0; round < 3; round++) {
      const cls = await newClass(s, { capacity: 1, queueCapacity: 20 });
      const [seated, waiting, ...others] = await members(6);
      const seat = await book(s, seated!.token, cls.id, seated!.cardId);
      const queued = await book(s, waiting!.token, cls.id, waiting!.cardId);
      expect([seat.body.data.state, queued.body.data.state]).toEqual(['booked', 'queued']);
      const [cancel, again, ...rest] = await Promise.all([
        s.call('POST', '/api/customers/classes/cancel', { token: seated!.token, body: { bookingId: seat.body.data.bookingId } }),
        book(s, waiting!.token, cls.id, waiting!.cardId),
        ...others.map((m) => book(s, m.token, cls.id, m.cardId)),
      ]);
      expect(cancel!.status).toBe(200);
      // already in the class (queued, or just promoted): never a second entry
      expect(again!.body.code).toBe(20006);
      expect(rest.every((r) => r.status === 200)).toBe(true);
      const seats = await seatsOf(cls.id);
      expect(seats).toHaveLength(1);
      expect((await classRow(s, cls.id)).bookedCount).toBe(1);
      // the cancel promotes the queue's head in its own transaction: the freed seat is never free for the others
      expect(seats[0]!.accountId).toBe(waiting!.id);
      expect(rest.map((r) => r.body.data.state)).toEqual(others.map(() => 'queued'));
    }
  });

  it('NEGATIVE CONTROL: without the row locks the same race oversells (the test would catch it)', async () => {
    let worst = { booked: 0, capacity: 0, bookedCount: 0 };
    for (let round = 0; round < 5 && worst.booked <= worst.capacity; round++) {
      const cls = await newClass(s, { capacity: 5, queueCapacity: 100 });
      const ms = await members(40);
      await unlockedRace(s.deps.db, (unsafe) =>
        Promise.allSettled(
          ms.map((m) => bookClass(unsafe, s.clock, { accountId: m.id, level: '2' }, { classId: cls.id, cardId: m.cardId })),
        ),
      );
      const seats = await seatsOf(cls.id);
      worst = { booked: seats.length, capacity: 5, bookedCount: (await classRow(s, cls.id)).bookedCount };
    }
    console.log(`race without row locks: 40 requests, capacity 5 -> booked ${worst.booked} (booked_count ${worst.bookedCount})`);
    expect(worst.booked).toBeGreaterThan(worst.capacity);
  });

  it('NEGATIVE CONTROL: without the card lock a last use is spent more than once', async () => {
    let lowest = 0;
    for (let round = 0; round < 5 && lowest >= 0; round++) {
      const [m] = await members(1, { usesLeft: 1 });
      const classes: Awaited<ReturnType<typeof newClass>>[] = [];
      for (let h = 0; h < 10; h++)
        classes.push(await newClass(s, { startsAt: sh(`2026-11-23 ${String(8 + h).padStart(2, '0')}:00`), durationMin: 50 }));
      await unlockedRace(s.deps.db, (unsafe) =>
        Promise.allSettled(
          classes.map((c) => bookClass(unsafe, s.clock, { accountId: m!.id, level: '2' }, { classId: c.id, cardId: m!.cardId })),
        ),
      );
      const [card] = await s.deps.db.select().from(memberCards).where(eq(memberCards.id, m!.cardId));
      lowest = card!.usesLeft!;
    }
    console.log(`race without the card lock: one use, ten classes -> uses left ${lowest}`);
    expect(lowest).toBeLessThan(0);
  });

  it('keeps booked_count equal to the seats in every class after the races', async () => {
    const r = await s.deps.db.execute(
      sql`select c.id from classes c where c.booked_count <> (select count(*) from bookings b where b.class_id = c.id and b.state in ('booked', 'checked_in', 'not_checked_in')) and c.capacity <> 5`,
    );
    const rows = (r as unknown as { rows?: unknown[] }).rows ?? (r as unknown as unknown[]);
    expect(rows).toHaveLength(0);
  });
});
