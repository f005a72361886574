import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bookings, payments, refunds } from '../../../src/server/db/schema/index';
import { approveCardRefund } from '../../../src/server/services/cards/refund-staff';
import { book, cardRow, newClass } from '../booking/support';
import { balance, newStaff } from '../orders/support';
import { startTestServer, usePostgres } from '../support/harness';
import { atFirstWrite, otherInsideDecision } from '../support/interleave';
import { withoutGuards, withoutLocks } from '../support/without-locks';
import { askRefund, boughtCard, cardRefundRow, staffRefund } from './refund-support';

/**
 * Card refunds racing on PostgreSQL (PGlite is one connection, its transactions never overlap;
 * decision 030): the same request approved by two staff at once, and an approval racing a booking
 * with the same card. An approval locks the request, then the member and the card (the booking
 * decisions' order), then the order, so one decides after the other has committed. The negative
 * controls approve without the locks and the state conditions.
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

  type Outcome = { approved: boolean; booked: boolean; invalid: boolean; bookedOnCard: number; back: number };
  async function approvalAgainstBooking(approve: (staffId: number, staffToken: string, id: number) => Promise<boolean>, rounds = 8) {
    const outcomes: Outcome[] = [];
    for (let i = 0; i < rounds; i++) {
      const { m, card, id, staff } = await asked(1);
      const cls = await newClass(s);
      const [approved, b] = await Promise.all([approve(staff[0]!.id, staff[0]!.token, id), book(s, m.token, cls.id, card.id)]);
      const live = await s.deps.db.select().from(bookings).where(eq(bookings.cardId, card.id));
      outcomes.push({
        approved,
        booked: b.body.code === 200,
        invalid: (await cardRow(s, card.id)).status === 'invalid',
        bookedOnCard: live.filter((x) => x.state === 'booked').length,
        back: await balance(s, m.token),
      });
    }
    return outcomes;
  }

  it('an approval racing a booking with the same card: never both (the booking refused 20003, or the approval 30043); the money back only with the card invalid', async () => {
    const outcomes = await approvalAgainstBooking(async (_id, token, id) => {
      const r = await staffRefund(s, token, 'approve', id);
      if (r.body.code !== 200) expect(r.body.code).toBe(30043);
      return r.body.code === 200;
    });
    for (const o of outcomes) {
      expect(o.approved !== o.booked, JSON.stringify(o)).toBe(true);
      expect(o.invalid && o.bookedOnCard > 0, JSON.stringify(o)).toBe(false);
      expect(o.back, JSON.stringify(o)).toBe(o.approved ? 19_900 : 0);
    }
  });

  /**
   * One forced interleaving: the approval checks the card (no booking on it), then, before it writes,
   * the member books with that card; the approval goes on once the booking has answered, or after
   * `holdMs` when the booking is waiting for the approval's locks.
   */
  async function bookingInsideApproval(lock: 'row' | 'none', holdMs: number): Promise<Outcome> {
    const unsafe = lock === 'none';
    const { m, card, id, staff } = await asked(1);
    const cls = await newClass(s);
    const { decided: approved, other: b } = await otherInsideDecision(
      (at) => {
        const approve = () => approveCardRefund({ ...s.deps, db: at(unsafe ? withoutLocks(s.deps.db) : s.deps.db) }, staff[0]!.id, id);
        return unsafe ? withoutGuards(approve) : approve();
      },
      () => book(s, m.token, cls.id, card.id),
      holdMs,
    );
    const live = await s.deps.db.select().from(bookings).where(eq(bookings.cardId, card.id));
    return {
      approved,
      booked: b.body.code === 200,
      invalid: (await cardRow(s, card.id)).status === 'invalid',
      bookedOnCard: live.filter((x) => x.state === 'booked').length,
      back: await balance(s, m.token),
    };
  }

  it("a booking inside the approval's window waits for it, and is refused on the refunded card (20003)", async () => {
    const o = await bookingInsideApproval('row', 500);
    expect(o).toEqual({ approved: true, booked: false, invalid: true, bookedOnCard: 0, back: 19_900 });
  });

  // The same interleaving without the locks and the state conditions: the booking goes through on the
  // card the approval has checked, and the approval then refunds it with the booking still on it.
  it('negative control: without the locks a refunded card keeps a booking', async () => {
    const o = await bookingInsideApproval('none', 60_000);
    expect(o).toEqual({ approved: true, booked: true, invalid: true, bookedOnCard: 1, back: 19_900 });
  });
});
