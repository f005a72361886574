import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { cardFreezes } from '../../../src/server/db/schema/index';
import { addDays, shanghaiDate } from '../../../src/domain/time';
import { freezeCard } from '../../../src/server/services/cards/freeze';
import { book, bookingRow, cardRow, DAY, newCard, newClass, newMember, sh } from '../booking/support';
import { startTestServer, usePostgres } from '../support/harness';
import { otherInsideDecision } from '../support/interleave';
import { withoutGuards, withoutLocks } from '../support/without-locks';

/**
 * Card freezes racing on PostgreSQL (PGlite is one connection, its transactions never overlap): two
 * freezes of one card, and a freeze racing a booking of a class in its period. A freeze and a booking
 * lock the member and then the card, so one decides after the other has committed. The negative
 * controls freeze without the locks: two freezes of one card are both stored (without the chart's
 * state condition too, which alone would stop the second), and a booked class ends up inside a freeze.
 */
describe.runIf(usePostgres)('card freeze races on PostgreSQL', async () => {
  const s = await startTestServer({ seed: true });
  const today = () => shanghaiDate(s.clock.now());

  it('ten freezes of one card at once (different days): one is stored, the end moved once', async () => {
    const m = await newMember(s);
    const card = await newCard(s, m.id);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        s.call('POST', '/api/customers/cards/freeze', {
          token: m.token,
          body: { id: card.id, from: addDays(today(), i), until: addDays(today(), i + 1) },
        }),
      ),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    expect(new Set(answers.filter((r) => r.status !== 200).map((r) => r.body.code))).toSatisfy((codes: Set<number>) =>
      [...codes].every((c) => c === 30003 || c === 30016),
    );
    const row = await cardRow(s, card.id);
    expect(row.validUntil!.getTime()).toBe(card.validUntil!.getTime() + 2 * DAY);
  });

  // the same ten freezes without the member and card locks and the chart's state condition: more than
  // one is stored (two freeze records, the end moved by each), up to 20 rounds, stopping at the first
  it('negative control: without the locks and the state condition two freezes of one card are both stored', { retry: 2 }, async () => {
    let stored = 0;
    for (let round = 0; round < 20 && stored < 2; round++) {
      const m = await newMember(s);
      const card = await newCard(s, m.id);
      const outcomes = await withoutGuards(() =>
        Promise.allSettled(
          Array.from({ length: 10 }, (_, i) =>
            freezeCard(withoutLocks(s.deps.db), s.clock, m.id, { id: card.id, from: addDays(today(), i), until: addDays(today(), i + 1) }),
          ),
        ),
      );
      stored = Math.max(stored, (await s.deps.db.select().from(cardFreezes).where(eq(cardFreezes.cardId, card.id))).length);
      expect(outcomes.some((o) => o.status === 'fulfilled')).toBe(true);
    }
    expect(stored).toBeGreaterThan(1);
  });

  type Outcome = { frozen: boolean; booked: boolean; storedFrozen: boolean; storedBooked: boolean };
  /**
   * One freeze and one booking of a class on its first day, `rounds` times over (or until `enough` holds
   * of the outcomes so far); what each answered, and what was stored.
   */
  async function freezeAgainstBooking(
    freeze: (token: string, accountId: number, cardId: number, from: string) => Promise<boolean>,
    rounds = 8,
  ) {
    const outcomes: Outcome[] = [];
    for (let i = 0; i < rounds; i++) {
      const m = await newMember(s);
      const card = await newCard(s, m.id);
      const from = addDays(today(), 1);
      const cls = await newClass(s, { startsAt: sh(`${from} 19:00`) });
      const [frozen, b] = await Promise.all([freeze(m.token, m.id, card.id, from), book(s, m.token, cls.id, card.id)]);
      const row = await cardRow(s, card.id);
      const booked = b.body.code === 200;
      outcomes.push({
        frozen,
        booked,
        storedFrozen: row.frozenFrom !== null,
        storedBooked: booked && (await bookingRow(s, b.body.data.bookingId)).state === 'booked',
      });
    }
    return outcomes;
  }

  it('a freeze racing a booking in its period: never both (the other is refused: 30005 or 20003)', async () => {
    const outcomes = await freezeAgainstBooking(async (token, _a, cardId, from) => {
      const r = await s.call('POST', '/api/customers/cards/freeze', { token, body: { id: cardId, from, until: addDays(from, 1) } });
      if (r.status !== 200) expect(r.body.code).toBe(30005);
      return r.status === 200;
    });
    for (const o of outcomes) {
      expect(o.frozen !== o.booked, JSON.stringify(o)).toBe(true);
      expect(o.storedFrozen && o.storedBooked).toBe(false);
    }
  });

  /**
   * One forced interleaving: the freeze checks the card's bookings in its period (none), then, before
   * it writes, the member books a class in that period with the card; the freeze goes on once the
   * booking has answered, or after `holdMs` when the booking is waiting for the freeze's locks.
   */
  async function bookingInsideFreeze(lock: 'row' | 'none', holdMs: number): Promise<Outcome> {
    const unsafe = lock === 'none';
    const m = await newMember(s);
    const card = await newCard(s, m.id);
    const from = addDays(today(), 1);
    const cls = await newClass(s, { startsAt: sh(`${from} 19:00`) });
    const { decided: frozen, other: b } = await otherInsideDecision(
      (at) => {
        const freeze = () =>
          freezeCard(at(unsafe ? withoutLocks(s.deps.db) : s.deps.db), s.clock, m.id, { id: card.id, from, until: addDays(from, 1) });
        return unsafe ? withoutGuards(freeze) : freeze();
      },
      () => book(s, m.token, cls.id, card.id),
      holdMs,
    );
    const booked = b.body.code === 200;
    return {
      frozen,
      booked,
      storedFrozen: (await cardRow(s, card.id)).frozenFrom !== null,
      storedBooked: booked && (await bookingRow(s, b.body.data.bookingId)).state === 'booked',
    };
  }

  it("a booking inside the freeze's window waits for it, and is refused on the frozen card", async () => {
    expect(await bookingInsideFreeze('row', 500)).toEqual({ frozen: true, booked: false, storedFrozen: true, storedBooked: false });
  });

  // The same interleaving without the locks and the state condition: the booking goes through, and the
  // freeze is then stored over it.
  it('negative control: without the locks a booked class ends up inside a freeze', async () => {
    expect(await bookingInsideFreeze('none', 60_000)).toEqual({ frozen: true, booked: true, storedFrozen: true, storedBooked: true });
  });
});
