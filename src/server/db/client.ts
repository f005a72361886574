import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { applySqlFunctions } from './functions';
import * as schema from './schema/index';

/** Both drivers (PGlite and postgres.js) give this type; services only see it. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction has the same query API as the database. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
  /** PGlite only: the whole data dir as an uncompressed tarball (test templates: loads twice as fast as gzip) */
  dump?(): Promise<Blob>;
}

/** Where the SQL migrations live (the source tree; the built server reads the same folder). */
export function migrationsFolder(): string {
  return process.env.MIGRATIONS_DIR ?? resolve(process.cwd(), 'src/server/db/migrations');
}

export interface OpenOptions {
  /** postgres://… switches to PostgreSQL */
  url?: string;
  /** PGlite data dir; 'memory' for an in-memory database */
  dataDir?: string;
  /** a PGlite dump to start from (tests) */
  loadDataDir?: Blob;
  /** max connections for PostgreSQL */
  max?: number;
}

/** Any constant: the advisory lock under which a starting process runs the migrations and applies the SQL functions. */
const MIGRATION_LOCK = 774_202;

/** Opens the database, runs the migrations, then applies the SQL functions (`functions.ts`). */
export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.url) {
    const { default: postgres } = await import('postgres');
    const { drizzle } = await import('drizzle-orm/postgres-js');
    const { migrate } = await import('drizzle-orm/postgres-js/migrator');
    const sql = postgres(opts.url, { max: opts.max ?? 10, onnotice: () => {} });
    const db = drizzle(sql, { schema }) as unknown as Db;
    // processes starting together on one database (a deploy, a scale-up) migrate one at a time: the
    // first applies the migrations, the others wait on the lock, then find nothing left to apply
    // (the lock's own connection, so a pool of one still has its connection for the migrations)
    const lock = postgres(opts.url, { max: 1, onnotice: () => {} });
    try {
      await lock`select pg_advisory_lock(${MIGRATION_LOCK})`;
      await migrate(db as never, { migrationsFolder: migrationsFolder() });
      await applySqlFunctions(db);
    } finally {
      await lock.end({ timeout: 5 });
    }
    return { db, kind: 'postgres', close: () => sql.end({ timeout: 5 }) };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const dir = opts.dataDir ?? 'memory';
  if (dir !== 'memory') mkdirSync(dir, { recursive: true });
  const client = await PGlite.create(dir === 'memory' ? undefined : dir, opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {});
  const db = drizzle(client, { schema }) as unknown as Db;
  await migrate(db as never, { migrationsFolder: migrationsFolder() });
  await applySqlFunctions(db);
  return { db, kind: 'pglite', close: () => client.close(), dump: () => client.dumpDataDir('none') };
}
