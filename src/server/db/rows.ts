/** The rows of `db.execute(sql...)`: PGlite answers `{ rows }`, postgres.js the rows themselves. */
export function rowsOf<T>(r: unknown): T[] {
  return (r && typeof r === 'object' && 'rows' in r ? (r as { rows: T[] }).rows : (r as T[])) ?? [];
}
