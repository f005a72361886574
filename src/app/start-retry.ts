/** Where a tab remembers the page it reloaded because its start failed (sessionStorage). */
export const START_RETRY_KEY = 'start-retried';

type SessionStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/**
 * A page whose start failed (its screen's code or its catalog did not arrive, even after the
 * catalog's own retry, on a bad network) stays as the server rendered it: readable and its links
 * work, but its buttons do nothing. It reloads once to try again. The same page failing again after
 * that reload is left so: no reload loop. Returns whether it reloads.
 */
export function retryFailedStart(store: SessionStore | undefined, here: string, reload: () => void): boolean {
  try {
    if (!store || store.getItem(START_RETRY_KEY) === here) return false;
    store.setItem(START_RETRY_KEY, here);
  } catch {
    // storage refused (a private window): without a memory, no reload
    return false;
  }
  reload();
  return true;
}

/** The page started: a later failure of this or another page may reload once again. */
export function startSucceeded(store: SessionStore | undefined): void {
  try {
    store?.removeItem(START_RETRY_KEY);
  } catch {
    // nothing to forget
  }
}
