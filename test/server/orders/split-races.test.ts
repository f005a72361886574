import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/server/http/api-error';
import { splitOrder } from '../../../src/server/services/orders/split';
import { startTestServer, usePostgres } from '../support/harness';
import { assertMoneyInvariants } from '../support/money-invariants';
import { withoutGuards, withoutLocks } from '../support/without-locks';
import { create, newGoods, newMember, orderRow } from './support';

/**
 * A double tap on split (decision 021), on PostgreSQL: ten splits of one order at once, each with its
 * own Idempotency-Key, make one split; the others are told it is split already (40015), never a 500.
 * The negative control splits without the order's lock and the part's guarded write: the taps then
 * split twice or fail on the database.
 */
// a sweep of rounds checks who won, not how fast: on two cores shared with the other suites it has
// taken over the 20 s default, so the safety net is wider here
describe.runIf(usePostgres)('split races on PostgreSQL', { timeout: 120_000 }, async () => {
  const s = await startTestServer({ seed: true });

  it('10 concurrent splits of one order: one split, nine 40015; the money invariants hold', async () => {
    const m = await newMember(s);
    const g = await newGoods(s);
    const no = (await create(s, m.token, { goodsId: g.id })).body.data.orderNo as string;
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        s.call('POST', '/api/orders/split', {
          token: m.token,
          body: { orderNo: no, parts: [9_900, 10_000] },
          headers: { 'Idempotency-Key': `split-race-${no}-${i}` },
        }),
      ),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    expect(answers.filter((r) => r.status !== 200).map((r) => r.body.code)).toEqual(Array(9).fill(40015));
    const d = (await s.call('GET', `/api/orders/detail?orderNo=${no}`, { token: m.token })).body.data;
    expect(d.parts.filter((p: { state: string }) => p.state === 'unpaid').map((p: { amountCents: number }) => p.amountCents)).toEqual([
      9_900, 10_000,
    ]);
    await assertMoneyInvariants(s.deps.db);
  });

  it('negative control: without the lock the taps split twice or fail on the database', { retry: 2 }, async () => {
    let broken = 0;
    for (let round = 0; round < 10 && broken === 0; round++) {
      const m = await newMember(s);
      const g = await newGoods(s);
      const no = (await create(s, m.token, { goodsId: g.id })).body.data.orderNo as string;
      const unsafe = { ...s.deps, db: withoutLocks(s.deps.db) };
      const results = await withoutGuards(() =>
        Promise.allSettled(Array.from({ length: 10 }, () => splitOrder(unsafe, m.id, no, [9_900, 10_000]))),
      );
      const ok = results.filter((r) => r.status === 'fulfilled').length;
      const other = results.filter((r) => r.status === 'rejected' && !(r.reason instanceof ApiError && r.reason.def.code === 40015)).length;
      if (ok > 1 || other > 0) broken++;
      expect((await orderRow(s, no)).state).toBe('unpaid');
    }
    expect(broken).toBeGreaterThan(0);
  });
});
