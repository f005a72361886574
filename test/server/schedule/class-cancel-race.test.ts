import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { BOOKING_OPEN_STATES } from '../../../machines/domain/booking-transitions';
import { bookings } from '../../../src/server/db/schema/index';
import { cancelClass } from '../../../src/server/services/schedule/class-admin';
import { book, cardRow, classRow, DAY, newCard, newClass, newMember } from '../booking/support';
import { newStaff } from '../orders/support';
import { startTestServer, usePostgres } from '../support/harness';
import { otherInsideDecision } from '../support/interleave';
import { withoutLocks } from '../support/without-locks';

/**
 * A class cancelled while a member books it, on PostgreSQL (PGlite is one connection; decision 041):
 * both take the class's row lock first, so either the booking comes first and is cancelled with the
 * class (its use given back), or it finds the class cancelled and is refused. Never a live booking on
 * a cancelled class, and the card ends where it started: its use spent and given back exactly once.
 * The negative control cancels without the locks, and a booking then survives on a cancelled class.
 */
describe.runIf(usePostgres)('cancelling a class while it is booked, on PostgreSQL', async () => {
  const s = await startTestServer({ seed: true });
  let n = 0;

  async function bookable() {
    const title = `取消竞态${++n}`;
    const cls = await newClass(s, { title, titleEn: title, startsAt: new Date(s.clock.now().getTime() + 2 * DAY), room: `竞态${n}` });
    const member = await newMember(s);
    const card = await newCard(s, member.id);
    // another member already holds a seat: the cancel has a booking to give back too
    const early = await newMember(s);
    const earlyCard = await newCard(s, early.id);
    expect((await book(s, early.token, cls.id, earlyCard.id)).body.code).toBe(200);
    return {
      cls,
      member,
      card,
      earlyCard,
      before: (await cardRow(s, card.id)).usesLeft!,
      earlyBefore: (await cardRow(s, earlyCard.id)).usesLeft! + 1,
    };
  }

  const liveOn = async (classId: number) =>
    s.deps.db
      .select()
      .from(bookings)
      .where(and(eq(bookings.classId, classId), inArray(bookings.state, BOOKING_OPEN_STATES)));

  it('no booking left on a cancelled class; uses given back exactly once', async () => {
    const staff = await newStaff(s);
    const outcomes = new Set<number>();
    for (let round = 0; round < 12; round++) {
      const { cls, member, card, earlyCard, before, earlyBefore } = await bookable();
      const [cancelled, booked] = await Promise.all([
        s.call('POST', `/api/staff/classes/${cls.id}/cancel`, { token: staff.token, body: {} }),
        book(s, member.token, cls.id, card.id),
      ]);
      expect(cancelled.body.code).toBe(200);
      outcomes.add(booked.body.code);
      expect((await classRow(s, cls.id)).status).toBe('cancelled');
      expect(await liveOn(cls.id)).toEqual([]);
      expect((await cardRow(s, card.id)).usesLeft, 'booked then given back, or never spent').toBe(before);
      expect((await cardRow(s, earlyCard.id)).usesLeft).toBe(earlyBefore);
      expect(cancelled.body.data.usesReturned).toBe(booked.body.code === 200 ? 2 : 1);
    }
    // either order happened; each ended clean (the booking's refusal is the bookable check's 20001)
    expect([...outcomes].every((c) => c === 200 || c === 20001)).toBe(true);
  });

  /**
   * One forced interleaving: the cancel reads the class's open bookings, then, before it writes, a
   * member books the class; the cancel goes on once the booking has answered, or after `holdMs` when
   * the booking is waiting for the cancel's lock on the class.
   */
  async function bookingInsideCancel(lock: 'row' | 'none', holdMs: number) {
    const staff = await newStaff(s);
    const { cls, member, card } = await bookable();
    const { other: b } = await otherInsideDecision(
      (at) => cancelClass(at(lock === 'none' ? withoutLocks(s.deps.db) : s.deps.db), s.clock.now(), staff.id, cls.id),
      () => book(s, member.token, cls.id, card.id),
      holdMs,
    );
    return { booked: b.body.code, cancelled: (await classRow(s, cls.id)).status === 'cancelled', live: (await liveOn(cls.id)).length };
  }

  it("a booking inside the cancel's window waits for it, and is refused (20001)", async () => {
    expect(await bookingInsideCancel('row', 500)).toEqual({ booked: 20001, cancelled: true, live: 0 });
  });

  it('negative control: cancelling without the locks leaves a booking on a cancelled class', async () => {
    expect(await bookingInsideCancel('none', 60_000)).toEqual({ booked: 200, cancelled: true, live: 1 });
  });
});
