import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { afterAll } from 'vitest';
import { fixedClock } from '../../../src/domain/clock';
import { createApp } from '../../../src/server/app';
import { loadConfig, type Config } from '../../../src/server/config';
import { openDatabase, type Database } from '../../../src/server/db/client';
import type { Deps } from '../../../src/server/env';
import { createGateways } from '../../../src/server/gateways/create';
import { memoryLogger } from '../../../src/server/logger';
import { TEMPLATE_DIR, TEST_EPOCH } from '../../global-setup';

/**
 * A real server on a real database for API tests: PGlite in memory by default, or a fresh
 * PostgreSQL database of its own when TEST_DB=postgres (TEST_DATABASE_URL names the server).
 * Requests go through app.request: no port needed.
 */
export interface TestServer {
  app: ReturnType<typeof createApp>;
  deps: Deps;
  clock: ReturnType<typeof fixedClock>;
  log: ReturnType<typeof memoryLogger>;
  database: Database;
  /** JSON request helper: returns status, parsed body and headers */
  call(method: string, path: string, opts?: { body?: unknown; token?: string; headers?: Record<string, string>; raw?: string }): Promise<{ status: number; body: any; headers: Headers }>;
}

export const usePostgres = process.env.TEST_DB === 'postgres';

async function freshPostgres(): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const { default: postgres } = await import('postgres');
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  const name = `t_${randomBytes(6).toString('hex')}`;
  await admin.unsafe(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

/** Starts a server for one test file; it is closed after the file's tests. */
export async function startTestServer(opts: { now?: string; config?: Partial<Config>; seed?: boolean } = {}): Promise<TestServer> {
  const clock = fixedClock(opts.now ?? TEST_EPOCH);
  const log = memoryLogger();
  // tests speak for several networks through X-Forwarded-For, as a trusted proxy would
  const config: Config = { ...loadConfig({ NODE_ENV: 'test' }), trustProxy: true, ...opts.config };
  let drop: (() => Promise<void>) | undefined;
  let database: Database;
  let seeded = false;
  if (usePostgres) {
    const pg = await freshPostgres();
    drop = pg.drop;
    database = await openDatabase({ url: pg.url, max: 20 });
  } else {
    const defaultClock = !opts.now || opts.now === TEST_EPOCH;
    const template = `${TEMPLATE_DIR}/pglite-${opts.seed && defaultClock ? 'seeded' : 'empty'}.tgz`;
    const loadDataDir = existsSync(template) ? new Blob([readFileSync(template)]) : undefined;
    database = await openDatabase({ dataDir: 'memory', loadDataDir });
    if (loadDataDir && opts.seed && defaultClock) seeded = true;
  }
  const partial = { db: database.db, dbKind: database.kind, clock, config, log };
  const deps: Deps = { ...partial, gateways: createGateways(config, partial) };
  if (opts.seed && !seeded) {
    const { seedDemo } = await import('../../../src/server/db/seed/index');
    await seedDemo(deps.db, clock);
  }
  const app = createApp(deps);
  afterAll(async () => {
    await database.close();
    await drop?.();
  });
  return {
    app,
    deps,
    clock,
    log,
    database,
    async call(method, path, o = {}) {
      const headers: Record<string, string> = { ...o.headers };
      let body: string | undefined;
      if (o.raw !== undefined) body = o.raw;
      else if (o.body !== undefined) body = JSON.stringify(o.body);
      if (body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
      if (o.token) headers['authorization-token'] = o.token;
      const res = await app.request(path, { method, headers, body });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        /* not JSON */
      }
      return { status: res.status, body: parsed, headers: res.headers };
    },
  };
}
