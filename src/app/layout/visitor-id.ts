import { safeStorage } from '../safe-storage';

const KEY = 'visitorId';
let memory: string | undefined;

/** 128 random bits as hex. crypto.getRandomValues works on plain http too (randomUUID does not). */
function randomId(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The anonymous id page views are counted under: random, kept in localStorage so one browser counts
 * as one visitor; in memory only when storage is blocked (private mode).
 */
export function visitorId(storage: Pick<Storage, 'getItem' | 'setItem'> | undefined = safeStorage('localStorage')): string {
  try {
    const kept = storage?.getItem(KEY);
    if (kept && /^[0-9a-f]{32}$/.test(kept)) return kept;
    const id = memory ?? randomId();
    storage?.setItem(KEY, id);
    memory = id;
    return id;
  } catch {
    memory ??= randomId();
    return memory;
  }
}
