import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bookings, cardRefunds, payments, refunds } from '../../../src/server/db/schema/index';
import { requestCardRefund } from '../../../src/server/services/cards/refund';
import { approveCardRefund } from '../../../src/server/services/cards/refund-staff';
import { book, cardRow, newClass } from '../booking/support';
import { balance, newStaff } from '../orders/support';
import { startTestServer, usePostgres } from '../support/harness';
import { atFirstWrite, otherInsideDecision } from '../support/interleave';
import { withoutGuards, withoutLocks } from '../support/without-locks';
import { askRefund, boughtCard, cardRefundRow, staffRefund } from './refund-support';

/**
 * Card refunds racing on PostgreSQL (PGlite is one connection, its transactions never overlap;
 * decision 030): the same request approved by two staff at once, and a request racing a booking
 * with the same card. An approval locks the request, then the member and the card (the booking
 * decisions' order), then the order, so one decides after the other has committed; a request and a
 * booking both lock the card first. The negative controls run without the locks and the state conditions.
 */
// a sweep of rounds checks who won, not how fast: on two cores shared with the other suites it has
// taken over the 20 s default, so the safety net is wider here
describe.runIf(usePostgres)('card refund races on PostgreSQL', { timeout: 120_000 }, async () => {
  const s = await startTestServer({ seed: true });

  /** A card bought with the balance (¥199), its refund asked for; `staffCount` staff accounts. */
  async function asked(staffCount = 2) {
    const bought = await boughtCard(s);
    const r = await askRefund(s, bought.m.token, bought.card.id);
    expect(r.body.code).toBe(200);
    const staff = await Promise.all(Array.from({ length: staffCount }, () => newStaff(s)));
    return { ...bought, id: r.body.data.id as number, staff };
  }
  const refundsOf = (orderId: number) =>
    s.deps.db
      .select({ id: refunds.id, amountCents: refunds.amountCents })
      .from(refunds)
      .innerJoin(payments, eq(payments.id, refunds.paymentId))
      .where(eq(payments.orderId, orderId));

  it('two staff approve one request at once: it is applied once (one refund, the money back once, the other answered 30044)', async () => {
    for (let round = 0; round < 5; round++) {
      const { m, card, order, id, staff } = await asked();
      const answers = await Promise.all(staff.map((st) => staffRefund(s, st.token, 'approve', id)));
      expect(answers.map((r) => r.body.code).sort()).toEqual([200, 30044]);
      expect(await refundsOf(order.id)).toHaveLength(1);
      expect(await balance(s, m.token)).toBe(19_900);
      expect((await cardRow(s, card.id)).status).toBe('invalid');
      const winner = staff[answers.findIndex((r) => r.body.code === 200)]!;
      expect((await cardRefundRow(s, id)).decidedBy).toBe(winner.id);
    }
  });

  // Without the locks and the state conditions both approvals pass the request's check: the one that
  // checked first goes on to write the card again, and is stopped late, by the order already
  // refunded (30041, the wrong words), instead of the clear 30044 of a request decided. The
  // money goes back once: the order's chart and the refund's (payment, key) are the last guards.
  it('negative control: without the locks the second approval gets past the request and writes the card again', async () => {
    // forced interleaving: the second approval runs whole after the first has checked and before it writes
    const { m, id, staff } = await asked();
    const codeOf = (p: Promise<unknown>) =>
      p.then(
        () => 'ok',
        (e: { def?: { code: number } }) => e.def?.code ?? String(e),
      );
    const unsafe = { ...s.deps, db: withoutLocks(s.deps.db) };
    let second: Promise<string | number> | undefined;
    const afterCheck = async () => {
      second = codeOf(approveCardRefund(unsafe, staff[1]!.id, id));
      await second;
    };
    const firstUnsafe = { ...unsafe, db: atFirstWrite(unsafe.db, afterCheck) };
    const first = await withoutGuards(() => codeOf(approveCardRefund(firstUnsafe, staff[0]!.id, id)));
    expect([await second, first]).toEqual(['ok', 30041]);
    expect(await balance(s, m.token)).toBe(19_900);
  });

  // A card with a refund waiting books nothing (30004), and a card booked ahead is not refunded
  // (30043): the request and the booking each check the other under the card's lock.
  type Outcome = { requested: boolean; booked: boolean; pending: number; bookedOnCard: number };
  async function outcomeOf(cardId: number, requested: boolean, booked: boolean): Promise<Outcome> {
    const live = await s.deps.db.select().from(bookings).where(eq(bookings.cardId, cardId));
    const asks = await s.deps.db.select().from(cardRefunds).where(eq(cardRefunds.cardId, cardId));
    return {
      requested,
      booked,
      pending: asks.filter((r) => r.state === 'pending').length,
      bookedOnCard: live.filter((x) => x.state === 'booked').length,
    };
  }

  it('a refund request racing a booking with the same card: never both (the booking refused 30004, or the request 30043)', async () => {
    for (let round = 0; round < 8; round++) {
      const { m, card } = await boughtCard(s);
      const cls = await newClass(s);
      const [r, b] = await Promise.all([askRefund(s, m.token, card.id), book(s, m.token, cls.id, card.id)]);
      if (r.body.code !== 200) expect(r.body.code).toBe(30043);
      if (b.body.code !== 200) expect(b.body.code).toBe(30004);
      const o = await outcomeOf(card.id, r.body.code === 200, b.body.code === 200);
      expect(o.requested !== o.booked, JSON.stringify(o)).toBe(true);
      expect(o.pending > 0 && o.bookedOnCard > 0, JSON.stringify(o)).toBe(false);
    }
  });

  /**
   * One forced interleaving: the request checks the card (no booking on it), then, before it writes,
   * the member books with that card; the request goes on once the booking has answered, or after
   * `holdMs` when the booking is waiting for the request's locks.
   */
  async function bookingInsideRequest(lock: 'row' | 'none', holdMs: number): Promise<Outcome> {
    const unsafe = lock === 'none';
    const { m, card } = await boughtCard(s);
    const cls = await newClass(s);
    const { decided, other: b } = await otherInsideDecision(
      (at) => {
        const ask = () => requestCardRefund(at(unsafe ? withoutLocks(s.deps.db) : s.deps.db), s.deps.clock, m.id, card.id);
        return unsafe ? withoutGuards(ask) : ask();
      },
      () => book(s, m.token, cls.id, card.id),
      holdMs,
    );
    return outcomeOf(card.id, decided, b.body.code === 200);
  }

  it("a booking inside the request's window waits for it, and is refused on the card with a refund waiting (30004)", async () => {
    expect(await bookingInsideRequest('row', 500)).toEqual({ requested: true, booked: false, pending: 1, bookedOnCard: 0 });
  });

  // The same interleaving without the locks: the booking goes through on the card the request has
  // checked, and the request is then stored with the booking still on the card.
  it('negative control: without the locks a card waiting on its refund keeps a booking', async () => {
    expect(await bookingInsideRequest('none', 60_000)).toEqual({ requested: true, booked: true, pending: 1, bookedOnCard: 1 });
  });
});
