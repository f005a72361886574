import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bookings, memberCards } from '../../../src/server/db/schema/index';
import { approveTransfer } from '../../../src/server/services/cards/transfer-staff';
import { book, cardRow, newCard, newClass, newMember } from '../booking/support';
import { newStaff } from '../orders/support';
import { startTestServer, usePostgres } from '../support/harness';
import { otherInsideDecision } from '../support/interleave';
import { withoutGuards, withoutLocks } from '../support/without-locks';
import { applyFor, phoneOf, staffCall, transferRow } from './transfer-support';

/**
 * Card transfers racing on PostgreSQL (PGlite is one connection, its transactions never overlap;
 * decision 026): the same application approved by two staff at once, and an approval racing a booking
 * with the same card. An approval locks the application, then the giver and the card (the booking
 * decisions' order), so one decides after the other has committed. The negative controls approve
 * without the locks and the state conditions.
 */
// a sweep of rounds checks who won, not how fast: on two cores shared with the other suites it has
// taken over the 20 s default, so the safety net is wider here
describe.runIf(usePostgres)('card transfer races on PostgreSQL', { timeout: 120_000 }, async () => {
  const s = await startTestServer({ seed: true });

  /** A card in use with 7 uses, applied for and taken by a staff member; `staff` more staff accounts. */
  async function taken(staffCount = 2) {
    const m = await newMember(s);
    const to = await newMember(s);
    const card = await newCard(s, m.id, { usesLeft: 7 });
    const id = (await applyFor(s, m.token, card.id, await phoneOf(s, to.id))).body.data.id as number;
    const staff = await Promise.all(Array.from({ length: staffCount }, () => newStaff(s)));
    expect((await staffCall(s, staff[0]!.token, 'take', id)).body.code).toBe(200);
    return { m, to, card, id, staff };
  }
  const received = (accountId: number) => s.deps.db.select().from(memberCards).where(eq(memberCards.accountId, accountId));

  it('two staff approve one application at once: one is applied (one card issued, the other answered 30037)', async () => {
    for (let round = 0; round < 5; round++) {
      const { to, card, id, staff } = await taken();
      const answers = await Promise.all(staff.map((st) => staffCall(s, st.token, 'approve', id)));
      expect(answers.map((r) => r.body.code).sort()).toEqual([200, 30037]);
      expect(await received(to.id)).toHaveLength(1);
      expect((await cardRow(s, card.id)).status).toBe('transferred');
      const winner = staff[answers.findIndex((r) => r.body.code === 200)]!;
      expect((await transferRow(s, id)).decidedBy).toBe(winner.id);
    }
  });

  // Without the locks and the state conditions both approvals pass every check and issue the card:
  // only the new card's number (the old one's, unique, and a card is transferred once) stops the
  // second, as a unique violation (23505) instead of the clear 30037.
  it('negative control: without the locks both approvals get as far as issuing the card', { retry: 2 }, async () => {
    let overlapped = false;
    for (let round = 0; round < 30 && !overlapped; round++) {
      const { to, id, staff } = await taken();
      const outcomes = await withoutGuards(() =>
        Promise.allSettled(staff.map((st) => approveTransfer(withoutLocks(s.deps.db), s.clock, st.id, id))),
      );
      const codes = outcomes.map((o) =>
        o.status === 'rejected'
          ? ((o.reason as { code?: string; cause?: { code?: string } }).code ?? (o.reason as { cause?: { code?: string } }).cause?.code)
          : 'ok',
      );
      overlapped = codes.includes('23505');
      expect(await received(to.id)).toHaveLength(1);
    }
    expect(overlapped).toBe(true);
  });

  type Outcome = { approved: boolean; booked: boolean; storedTransferred: boolean; bookedOnCard: number; receivedUses: number | null };
  async function approvalAgainstBooking(approve: (staffId: number, staffToken: string, id: number) => Promise<boolean>, rounds = 8) {
    const outcomes: Outcome[] = [];
    for (let i = 0; i < rounds; i++) {
      const { m, to, card, id, staff } = await taken(1);
      const cls = await newClass(s);
      const [approved, b] = await Promise.all([approve(staff[0]!.id, staff[0]!.token, id), book(s, m.token, cls.id, card.id)]);
      const [got] = await received(to.id);
      const live = await s.deps.db.select().from(bookings).where(eq(bookings.cardId, card.id));
      outcomes.push({
        approved,
        booked: b.body.code === 200,
        storedTransferred: (await cardRow(s, card.id)).status === 'transferred',
        bookedOnCard: live.filter((x) => x.state === 'booked').length,
        receivedUses: got?.usesLeft ?? null,
      });
    }
    return outcomes;
  }

  it('an approval racing a booking with the same card: never both (the booking refused 20003, or the approval 30035); uses never counted twice', async () => {
    const outcomes = await approvalAgainstBooking(async (_id, token, id) => {
      const r = await staffCall(s, token, 'approve', id);
      if (r.body.code !== 200) expect(r.body.code).toBe(30035);
      return r.body.code === 200;
    });
    for (const o of outcomes) {
      expect(o.approved !== o.booked, JSON.stringify(o)).toBe(true);
      expect(o.storedTransferred && o.bookedOnCard > 0, JSON.stringify(o)).toBe(false);
      if (o.approved) expect(o.receivedUses).toBe(7);
    }
  });

  /**
   * One forced interleaving: the approval checks the card (no booking on it), then, before it writes,
   * the giver books with that card; the approval goes on once the booking has answered, or after
   * `holdMs` when the booking is waiting for the approval's locks.
   */
  async function bookingInsideApproval(lock: 'row' | 'none', holdMs: number): Promise<Outcome> {
    const unsafe = lock === 'none';
    const { m, to, card, id, staff } = await taken(1);
    const cls = await newClass(s);
    const { decided: approved, other: b } = await otherInsideDecision(
      (at) => {
        const approve = () => approveTransfer(at(unsafe ? withoutLocks(s.deps.db) : s.deps.db), s.clock, staff[0]!.id, id);
        return unsafe ? withoutGuards(approve) : approve();
      },
      () => book(s, m.token, cls.id, card.id),
      holdMs,
    );
    const [got] = await received(to.id);
    const live = await s.deps.db.select().from(bookings).where(eq(bookings.cardId, card.id));
    return {
      approved,
      booked: b.body.code === 200,
      storedTransferred: (await cardRow(s, card.id)).status === 'transferred',
      bookedOnCard: live.filter((x) => x.state === 'booked').length,
      receivedUses: got?.usesLeft ?? null,
    };
  }

  it("a booking inside the approval's window waits for it, and is refused on the transferred card (20003)", async () => {
    const o = await bookingInsideApproval('row', 500);
    expect(o).toEqual({ approved: true, booked: false, storedTransferred: true, bookedOnCard: 0, receivedUses: 7 });
  });

  // The same interleaving without the locks and the state conditions: the booking goes through on the
  // card the approval has checked, and the approval then transfers it with the booking still on it
  // (its use spent on the old card and given again on the new).
  it('negative control: without the locks a transferred card keeps a booking', async () => {
    const o = await bookingInsideApproval('none', 60_000);
    expect(o).toEqual({ approved: true, booked: true, storedTransferred: true, bookedOnCard: 1, receivedUses: 7 });
  });
});
