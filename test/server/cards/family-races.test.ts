import { and, eq, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { cardFamilyMembers } from '../../../src/server/db/schema/index';
import { addFamilySub } from '../../../src/server/services/cards/family';
import { newCard, newMember } from '../booking/support';
import { startTestServer, usePostgres } from '../support/harness';
import { withoutLocks } from '../support/without-locks';
import { phoneOf } from './transfer-support';

/**
 * Two adds of a family main card's last sub-card place at once on PostgreSQL (decision 040; PGlite is
 * one connection): under the member and card locks one is decided after the other has committed, so
 * one is added and the other refused 30051; the card never shares with more members than its type's
 * places (2). The negative control adds without the locks: both count one holder, both add, and the
 * card ends with three.
 */
describe.runIf(usePostgres)('family sub-card races on PostgreSQL', async () => {
  const s = await startTestServer({ seed: true });

  /** A family main card with one of its two places taken, and two more members whose adds race; the live holders after, per round. */
  async function lastPlaceTwice(
    add: (token: string, accountId: number, cardId: number, phone: string) => Promise<unknown>,
    rounds = 6,
    enough: (counts: number[]) => boolean = () => false,
  ) {
    const counts: number[] = [];
    for (let i = 0; i < rounds && !enough(counts); i++) {
      const holder = await newMember(s);
      const [first, a, b] = [await newMember(s), await newMember(s), await newMember(s)];
      const card = await newCard(s, holder.id, { cardType: 'family-main' });
      await s.deps.db
        .insert(cardFamilyMembers)
        .values({ cardId: card.id, accountId: first.id, addedBy: holder.id, createdAt: s.clock.now() });
      await Promise.all([
        add(holder.token, holder.id, card.id, await phoneOf(s, a.id)),
        add(holder.token, holder.id, card.id, await phoneOf(s, b.id)),
      ]);
      const live = await s.deps.db
        .select()
        .from(cardFamilyMembers)
        .where(and(eq(cardFamilyMembers.cardId, card.id), isNull(cardFamilyMembers.removedAt)));
      counts.push(live.length);
    }
    return counts;
  }

  it('one add takes the last place, the other is refused 30051: never more holders than places', async () => {
    const codes: number[] = [];
    const counts = await lastPlaceTwice(async (token, _a, id, phone) => {
      const r = await s.call('POST', '/api/customers/cards/family/add', { token, body: { id, phone } });
      codes.push(r.body.code);
    });
    expect(counts).toEqual([2, 2, 2, 2, 2, 2]);
    expect(codes.filter((c) => c === 200)).toHaveLength(6);
    expect(codes.filter((c) => c === 30051)).toHaveLength(6);
  });

  // the overlap depends on how the two transactions interleave: up to 60 rounds, stopping at the first card over its places
  it('negative control: without the locks both count one holder and the card ends shared with three', { retry: 2 }, async () => {
    const counts = await lastPlaceTwice(
      (_t, accountId, id, phone) => addFamilySub(withoutLocks(s.deps.db), s.clock, accountId, { id, phone }).catch(() => undefined),
      60,
      (cs) => cs.some((n) => n > 2),
    );
    expect(counts.some((n) => n > 2)).toBe(true);
  });
});
