import { describe, expect, it } from 'vitest';
import { retryFailedStart, START_RETRY_KEY, startSucceeded } from '../../src/app/start-retry';

function memoryStore() {
  const m = new Map<string, string>();
  return {
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, v),
    removeItem: (k: string) => void m.delete(k),
  };
}

describe('a failed start reloads once per page (src/app/start-retry.ts)', () => {
  it('reloads the first time, not the second time on the same page, again on another page or after a start', () => {
    const store = memoryStore();
    let reloads = 0;
    const reload = () => void (reloads += 1);
    expect(retryFailedStart(store, '/club', reload)).toBe(true);
    expect(retryFailedStart(store, '/club', reload)).toBe(false);
    expect(reloads).toBe(1);
    expect(retryFailedStart(store, '/vipcard', reload)).toBe(true);
    startSucceeded(store);
    expect(store.getItem(START_RETRY_KEY)).toBeNull();
    expect(retryFailedStart(store, '/vipcard', reload)).toBe(true);
    expect(reloads).toBe(3);
  });

  it('without a storage it may use (none, or one that refuses), it does not reload: it could not stop a loop', () => {
    let reloads = 0;
    const reload = () => void (reloads += 1);
    const refusing = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {
        throw new Error('SecurityError');
      },
    };
    expect(retryFailedStart(undefined, '/club', reload)).toBe(false);
    expect(retryFailedStart(refusing, '/club', reload)).toBe(false);
    expect(() => startSucceeded(refusing)).not.toThrow();
    expect(reloads).toBe(0);
  });
});
