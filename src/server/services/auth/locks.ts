import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';

/**
 * Serialises decisions about one key (a phone, an IP) across processes until the transaction ends:
 * a rate limit counted and then written cannot be overrun by parallel requests.
 */
export async function lockKey(tx: Tx, key: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${key}))`);
}
