import type { Db, Tx } from './client';

/**
 * What a transaction read changed before it took its lock (a class moved or was cancelled): the work is
 * run again from the top; when it keeps changing, `exhausted()` is what the caller is answered.
 */
export class StaleRead extends Error {
  readonly code = 'stale-read';
  constructor(
    message: string,
    readonly exhausted: () => Error,
  ) {
    super(message);
  }
}

/** PostgreSQL deadlock or serialization failure, or a stale read, possibly wrapped by drizzle. */
function isRetryable(err: unknown): boolean {
  for (let e: unknown = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (code === '40P01' || code === '40001' || code === 'stale-read') return true;
  }
  return false;
}

/**
 * One transaction per decision (a change that moves money or capacity); retried a few times when
 * PostgreSQL picks it as a deadlock victim or what it read went stale before its lock.
 */
export async function decide<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(work);
    } catch (err) {
      // a read that kept changing: answered as the caller chose (a booking: refused as any failed one), never a 500
      if (attempt >= 4 && err instanceof StaleRead) throw err.exhausted();
      if (attempt >= 4 || !isRetryable(err)) throw err;
    }
  }
}
