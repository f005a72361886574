import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { cardAdviserChanges } from '../../../src/server/db/schema/index';
import { changeCardAdviser } from '../../../src/server/services/cards/adviser';
import { cardRow, newCard, newMember } from '../booking/support';
import { startTestServer, usePostgres } from '../support/harness';
import { withoutLocks } from '../support/without-locks';

/**
 * Two changes of one card's adviser at once on PostgreSQL (decision 034; PGlite is one connection):
 * under the member and card locks one is decided after the other has committed, so the stored
 * changes form one chain (the second's "from" is the first's "to") ending at the card's adviser. The
 * negative control changes without the locks: both read the same adviser, and the chain breaks.
 */
describe.runIf(usePostgres)('adviser change races on PostgreSQL', async () => {
  const s = await startTestServer({ seed: true });

  /** Two changes of a fresh card at once (to advisers 1 and 2), `rounds` times or until `enough`; each card's stored changes. */
  async function twoAtOnce(
    change: (token: string, accountId: number, cardId: number, adviserId: number) => Promise<unknown>,
    rounds = 6,
    enough: (chains: Chain[]) => boolean = () => false,
  ) {
    const chains: Chain[] = [];
    for (let i = 0; i < rounds && !enough(chains); i++) {
      const m = await newMember(s);
      const card = await newCard(s, m.id);
      await Promise.all([change(m.token, m.id, card.id, 1), change(m.token, m.id, card.id, 2)]);
      const rows = await s.deps.db
        .select()
        .from(cardAdviserChanges)
        .where(eq(cardAdviserChanges.cardId, card.id))
        .orderBy(asc(cardAdviserChanges.id));
      chains.push({ changes: rows.map((r) => [r.fromAdviserId, r.toAdviserId] as const), adviser: (await cardRow(s, card.id)).adviserId });
    }
    return chains;
  }
  type Chain = { changes: (readonly [number | null, number])[]; adviser: number | null };
  const unbroken = (c: Chain) =>
    c.changes.length === 2 && c.changes[0]![0] === null && c.changes[1]![0] === c.changes[0]![1] && c.adviser === c.changes[1]![1];

  it('both are stored, one after the other: one chain ending at the card adviser', async () => {
    const chains = await twoAtOnce(async (token, _a, cardId, adviserId) => {
      const r = await s.call('POST', '/api/customers/cards/adviser', { token, body: { id: cardId, clubId: 1, adviserId } });
      expect(r.body.code).toBe(200);
    });
    for (const c of chains) expect(unbroken(c), JSON.stringify(c)).toBe(true);
  });

  // the overlap depends on how the two transactions interleave: up to 60 rounds, stopping at the first broken chain
  it('negative control: without the locks both read the same adviser and the chain breaks', { retry: 2 }, async () => {
    const chains = await twoAtOnce(
      (_t, accountId, cardId, adviserId) =>
        changeCardAdviser(withoutLocks(s.deps.db), s.clock, accountId, { id: cardId, clubId: 1, adviserId }).catch(() => undefined),
      60,
      (cs) => cs.some((c) => !unbroken(c)),
    );
    expect(chains.some((c) => !unbroken(c))).toBe(true);
  });
});
