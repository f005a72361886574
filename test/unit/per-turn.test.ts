import { describe, expect, it } from 'vitest';
import { perTurn } from '../../src/server/db/per-turn';

/** A batch runner that records each batch it was given and answers each item doubled. */
function recorder() {
  const batches: { owner: object; items: number[] }[] = [];
  const run = perTurn(async (owner: object, items: readonly number[]) => {
    batches.push({ owner, items: [...items] });
    return items.map((n) => n * 2);
  }, 3);
  return { batches, run };
}

describe('perTurn: the calls of one turn of the event loop run as one batch', () => {
  it('gathers the calls made before the turn ends, per owner, and answers each its own', async () => {
    const { batches, run } = recorder();
    const a = {};
    const b = {};
    const answers = Promise.all([run(a, 1), run(b, 10), run(a, 2)]);
    expect(batches).toEqual([]);
    expect(await answers).toEqual([2, 20, 4]);
    expect(batches).toEqual([
      { owner: a, items: [1, 2] },
      { owner: b, items: [10] },
    ]);
  });

  it('a call made after the turn ended waits for the next batch', async () => {
    const { batches, run } = recorder();
    const owner = {};
    const first = run(owner, 1);
    await new Promise((resolve) => setImmediate(resolve));
    const second = run(owner, 2);
    expect(await Promise.all([first, second])).toEqual([2, 4]);
    expect(batches.map((x) => x.items)).toEqual([[1], [2]]);
  });

  it('splits a crowd into batches of the largest size, in arrival order', async () => {
    const { batches, run } = recorder();
    const owner = {};
    expect(await Promise.all([1, 2, 3, 4, 5, 6, 7].map((n) => run(owner, n)))).toEqual([2, 4, 6, 8, 10, 12, 14]);
    expect(batches.map((x) => x.items)).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
  });

  it('a failed batch is run again call by call: only the calls that fail alone fail', async () => {
    const batches: number[][] = [];
    const run = perTurn(async (_owner: object, items: readonly number[]) => {
      batches.push([...items]);
      if (items.includes(0)) throw new Error('statement failed');
      return items.map((n) => n * 2);
    });
    const owner = {};
    const other = {};
    const results = await Promise.allSettled([run(owner, 1), run(owner, 0), run(owner, 3), run(other, 4)]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([2, 'statement failed', 6, 8]);
    // the batch, then its calls one by one (the other owner's batch on its own)
    expect(batches).toHaveLength(5);
    expect(batches).toEqual(expect.arrayContaining([[1, 0, 3], [4], [1], [0], [3]]));
  });
});
