import { setTimeout as sleep } from 'node:timers/promises';

/**
 * One forced interleaving of a decision and another request (decision 006, "Forced interleavings"):
 * `decide` is run with an `afterCheck` (DecideOptions) that starts `other` inside the decision's
 * window, after its checks and before its writes; the decision goes on once `other` has answered, or
 * after `holdMs` when `other` waits for the decision's locks. Answers whether the decision went
 * through and what `other` answered.
 */
export async function otherInsideDecision<T>(
  decide: (afterCheck: () => Promise<void>) => Promise<unknown>,
  other: () => Promise<T>,
  holdMs: number,
): Promise<{ decided: boolean; other: T }> {
  let started: Promise<T> | undefined;
  const afterCheck = async () => {
    started = other();
    await Promise.race([started, sleep(holdMs)]);
  };
  const decided = await decide(afterCheck).then(
    () => true,
    () => false,
  );
  if (!started) throw new Error('the decision never reached its afterCheck');
  return { decided, other: await started };
}
