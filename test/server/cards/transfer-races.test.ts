import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { OPEN_TRANSFER_STATES } from '../../../machines/domain/card-transfer-application-transitions';
import { bookings, cardTransfers, memberCards } from '../../../src/server/db/schema/index';
import { applyTransfer } from '../../../src/server/services/cards/transfer';
import { approveTransfer } from '../../../src/server/services/cards/transfer-staff';
import { book, cardRow, newCard, newClass, newMember } from '../booking/support';
import { newStaff } from '../orders/support';
import { startTestServer, usePostgres } from '../support/harness';
import { otherInsideDecision } from '../support/interleave';
import { withoutGuards, withoutLocks } from '../support/without-locks';
import { applyFor, ID_NUMBER, phoneOf, staffCall, transferRow, uploadImages } from './transfer-support';

/**
 * Card transfers racing on PostgreSQL (PGlite is one connection, its transactions never overlap;
 * decision 026): the same application approved by two staff at once, and an application racing a
 * booking with the same card. An approval locks the application, then the giver and the card (the
 * booking decisions' order), so one decides after the other has committed; an application and a
 * booking both lock the card first. The negative controls run without the locks and the state conditions.
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

  // A card with a transfer waiting books nothing (30004), and a card booked ahead is not applied for
  // (30035): the application and the booking each check the other under the card's lock.
  type Outcome = { applied: boolean; booked: boolean; open: number; bookedOnCard: number };
  async function outcomeOf(cardId: number, applied: boolean, booked: boolean): Promise<Outcome> {
    const live = await s.deps.db.select().from(bookings).where(eq(bookings.cardId, cardId));
    const asks = await s.deps.db.select().from(cardTransfers).where(eq(cardTransfers.cardId, cardId));
    return {
      applied,
      booked,
      open: asks.filter((t) => OPEN_TRANSFER_STATES.includes(t.state)).length,
      bookedOnCard: live.filter((x) => x.state === 'booked').length,
    };
  }

  it('an application racing a booking with the same card: never both (the booking refused 30004, or the application 30035)', async () => {
    for (let round = 0; round < 8; round++) {
      const m = await newMember(s);
      const to = await newMember(s);
      const card = await newCard(s, m.id, { usesLeft: 7 });
      const cls = await newClass(s);
      const phone = await phoneOf(s, to.id);
      const images = await uploadImages(s, m.token);
      const [a, b] = await Promise.all([applyFor(s, m.token, card.id, phone, images), book(s, m.token, cls.id, card.id)]);
      if (b.body.code !== 200) expect(b.body.code).toBe(30004);
      if (a.body.code !== 200) expect(a.body.code).toBe(30035);
      const o = await outcomeOf(card.id, a.body.code === 200, b.body.code === 200);
      expect(o.applied !== o.booked, JSON.stringify(o)).toBe(true);
      expect(o.open > 0 && o.bookedOnCard > 0, JSON.stringify(o)).toBe(false);
    }
  });

  /**
   * One forced interleaving: the application checks the card (no booking on it), then, before it
   * writes, the giver books with that card; the application goes on once the booking has answered, or
   * after `holdMs` when the booking is waiting for the application's locks.
   */
  async function bookingInsideApplication(lock: 'row' | 'none', holdMs: number): Promise<Outcome> {
    const unsafe = lock === 'none';
    const m = await newMember(s);
    const to = await newMember(s);
    const card = await newCard(s, m.id, { usesLeft: 7 });
    const cls = await newClass(s);
    const input = {
      cardId: card.id,
      phone: await phoneOf(s, to.id),
      name: '王小明',
      idNumber: ID_NUMBER,
      agreed: true as const,
      ...(await uploadImages(s, m.token)),
    };
    const { decided, other: b } = await otherInsideDecision(
      (at) => {
        const apply = () => applyTransfer(at(unsafe ? withoutLocks(s.deps.db) : s.deps.db), s.clock, s.deps.gateways.keys, m.id, input);
        return unsafe ? withoutGuards(apply) : apply();
      },
      () => book(s, m.token, cls.id, card.id),
      holdMs,
    );
    return outcomeOf(card.id, decided, b.body.code === 200);
  }

  it("a booking inside the application's window waits for it, and is refused on the card with a transfer waiting (30004)", async () => {
    expect(await bookingInsideApplication('row', 500)).toEqual({ applied: true, booked: false, open: 1, bookedOnCard: 0 });
  });

  // The same interleaving without the locks: the booking goes through on the card the application
  // has checked, and the application is then stored with the booking still on the card.
  it('negative control: without the locks a card waiting on its transfer keeps a booking', async () => {
    expect(await bookingInsideApplication('none', 60_000)).toEqual({ applied: true, booked: true, open: 1, bookedOnCard: 1 });
  });
});
