import { sql } from 'drizzle-orm';
import type { TestServer } from './harness';

/** Rows of a raw query on PGlite or postgres-js. */
async function rows<T>(s: TestServer, query: string): Promise<T[]> {
  const r = (await s.deps.db.execute(sql.raw(query))) as unknown;
  return (Array.isArray(r) ? r : (r as { rows: T[] }).rows) as T[];
}

/**
 * Every table's row count and a hash over its rows' text, in one query (a refused request writes
 * 0 rows): an insert, an update or a delete in any table changes its entry.
 */
export async function tableChecksums(s: TestServer, skip: readonly string[] = []): Promise<Record<string, string>> {
  const tables = (
    await rows<{ t: string }>(
      s,
      "select table_name as t from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1",
    )
  )
    .map((r) => r.t)
    .filter((t) => !skip.includes(t));
  const parts = tables.map((t) => `select '${t}' as t, count(*) || ':' || coalesce(sum(hashtext(x::text)::bigint), 0) as h from "${t}" x`);
  const all = await rows<{ t: string; h: string }>(s, parts.join(' union all '));
  return Object.fromEntries(all.map((r) => [r.t, r.h]));
}

/** The tables whose entry differs between two checksums. */
export function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((t) => before[t] !== after[t]).sort();
}

/**
 * The next transaction id PostgreSQL would hand out: it moves only when something took a transaction id
 * (a write, a row lock), so a request that leaves it where it was wrote nothing. Cheaper than a checksum.
 */
export async function nextXid(s: TestServer): Promise<string> {
  return (await rows<{ x: string }>(s, 'select pg_snapshot_xmax(pg_current_snapshot())::text as x'))[0]!.x;
}
