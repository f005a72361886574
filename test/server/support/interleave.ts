import { setTimeout as sleep } from 'node:timers/promises';
import { vi } from 'vitest';
import { guards } from '../../../src/server/db/guards';

/**
 * Runs `run` with `hook` awaited at the first decision's `guards.checked()` (src/server/db/guards.ts:
 * after its checks, before its first write); every later decision passes that point as usual.
 */
export async function atFirstCheck<T>(hook: () => Promise<void>, run: () => Promise<T>): Promise<T> {
  const checked = vi.spyOn(guards, 'checked').mockImplementationOnce(hook);
  try {
    return await run();
  } finally {
    checked.mockRestore();
  }
}

/**
 * One forced interleaving of a decision and another request (decision 006, "Forced interleavings"):
 * `decide` is run so that, at its `guards.checked()` (after its checks and before its writes), `other`
 * starts inside the decision's window; the decision goes on once `other` has answered, or after
 * `holdMs` when `other` waits for the decision's locks. Answers whether the decision went through and
 * what `other` answered.
 */
export async function otherInsideDecision<T>(
  decide: () => Promise<unknown>,
  other: () => Promise<T>,
  holdMs: number,
): Promise<{ decided: boolean; other: T }> {
  let started: Promise<T> | undefined;
  const afterCheck = async () => {
    started = other();
    await Promise.race([started, sleep(holdMs)]);
  };
  const decided = await atFirstCheck(afterCheck, decide).then(
    () => true,
    () => false,
  );
  if (!started) throw new Error('the decision never reached its checked point');
  return { decided, other: await started };
}
