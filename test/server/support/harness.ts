import { randomBytes } from 'node:crypto';
import type { Sql } from 'postgres';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { afterAll, inject, onTestFinished } from 'vitest';
import { fixedClock } from '../../../src/domain/clock';
import { createApp } from '../../../src/server/app';
import { loadConfig, type Config } from '../../../src/server/config';
import { openDatabase, type Database } from '../../../src/server/db/client';
import type { Deps } from '../../../src/server/env';
import { createGateways } from '../../../src/server/gateways/create';
import { dataKeySettingsFromEnv } from '../../../src/server/gateways/keys/key-settings';
import {
  fromStored,
  newPaymentStandIns,
  toStored,
  type PaymentStandIns,
  type StoredStandInKeys,
} from '../../../src/server/gateways/payments/standin-keys';
import { memoryLogger } from '../../../src/server/logger';
import { TEMPLATE_DIR, TEST_EPOCH, TEST_SCRYPT_N } from '../../global-setup';

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
  call(
    method: string,
    path: string,
    opts?: { body?: unknown; token?: string; headers?: Record<string, string>; raw?: string },
  ): Promise<{ status: number; body: any; headers: Headers }>;
}

export const usePostgres = process.env.TEST_DB === 'postgres';

/**
 * Databases whose servers are done, dropped together once there are `DROP_BATCH` of them (the run's
 * global teardown drops what is left). Each `DROP DATABASE` makes PostgreSQL checkpoint: dropped one
 * after each file, the next copy of the seeded template took 0.6-1 s by the middle of the server
 * suite, against 60-130 ms with no drop between copies (decision 015, seventh pass). At most
 * `DROP_BATCH` copies (about 13 MB each) wait for their drop.
 */
const DROP_BATCH = 16;
const undropped: string[] = [];

async function dropDatabases(admin: Sql, names: string[]): Promise<void> {
  await Promise.all(names.map((name) => admin.unsafe(`drop database if exists ${name} with (force)`)));
}

/** The run's connection for creating and dropping the copies (one per worker). */
let adminConnection: Promise<Sql> | undefined;
function admin(base: string) {
  adminConnection ??= import('postgres').then(({ default: postgres }) => postgres(base, { max: 4, onnotice: () => {} }));
  return adminConnection;
}

/**
 * A fresh PostgreSQL database for one server: a copy of the run's migrated (or migrated and seeded)
 * template database (test/global-setup.ts), or an empty one migrated here when there is no template.
 * Its name starts with the run's prefix, so the run's teardown finds the copies not dropped yet.
 */
async function freshPostgres(template: string | null, prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const sql = await admin(base);
  const name = `${prefix}${randomBytes(6).toString('hex')}`;
  await sql.unsafe(template ? `create database ${name} template ${template}` : `create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      undropped.push(name);
      if (undropped.length >= DROP_BATCH) await dropDatabases(sql, undropped.splice(0));
    },
  };
}

/** The PGlite template dumps, read once per worker (test files of a worker share their modules). */
const dumps = new Map<string, Blob | undefined>();
function pgliteTemplate(name: 'empty' | 'seeded'): Blob | undefined {
  if (!dumps.has(name)) {
    const file = `${TEMPLATE_DIR}/pglite-${name}.tar`;
    dumps.set(name, existsSync(file) ? new Blob([readFileSync(file)]) : undefined);
  }
  return dumps.get(name);
}

/**
 * The payment stand-ins' keys of the test servers: made once and kept in .test-data/standin-keys.json
 * for the runs after. Four new RSA-2048 keys took 0.8 s of CPU in every vitest process that starts a
 * server (each screens shard, each server suite); they are the stand-ins' fixtures, so runs may share
 * them (test/server/payments/standin-keys.test.ts still makes and stores its own). Written under a
 * name of this process's, then renamed: processes side by side never read one half-written.
 */
let standInKeys: Omit<PaymentStandIns, 'notifyFetch' | 'appDeliver'> | undefined;
function testStandIns(): PaymentStandIns {
  if (!standInKeys) {
    const file = `${TEMPLATE_DIR}/standin-keys.json`;
    try {
      standInKeys = fromStored(JSON.parse(readFileSync(file, 'utf8')) as StoredStandInKeys);
    } catch {
      // none yet, or unreadable: new keys, kept for the next process
      standInKeys = newPaymentStandIns();
      mkdirSync(TEMPLATE_DIR, { recursive: true });
      const part = `${file}.${process.pid}.part`;
      writeFileSync(part, JSON.stringify(toStored(standInKeys)));
      renameSync(part, file);
    }
  }
  // each server its own object around the shared keys, as processPaymentStandIns gives (a test's notifyFetch stays its own)
  return { ...standInKeys };
}

/**
 * Runs `close` when the server's owner is done: after the test that started it, or after the file's
 * (or describe's) tests when it was started outside a test. An `afterAll` registered inside a test
 * never runs: five servers a run (started inside tests) kept their PostgreSQL database and their
 * pool's connections until the worker ended.
 */
function closeWhenDone(close: () => Promise<void>): void {
  try {
    onTestFinished(close);
  } catch {
    afterAll(close);
  }
}

/** Starts a server for one test file (or one test, when started inside it); it is closed after them. */
export async function startTestServer(opts: { now?: string; config?: Partial<Config>; seed?: boolean } = {}): Promise<TestServer> {
  const clock = fixedClock(opts.now ?? TEST_EPOCH);
  const log = memoryLogger();
  // tests speak for several networks through X-Forwarded-For, as a trusted proxy would; passwords
  // they set are hashed at scrypt N=2^10 instead of 2^15 (decision 015: 4 ms instead of 120 ms a hash)
  // the open endpoints' rate limits (decision 047) are out of the way: a file's in-process requests all
  // come from one address under a clock that stands still (one window); test/server/hardening/rate-limits.test.ts sets its own
  const config: Config = {
    ...loadConfig({ APP_MODE: 'demo' }),
    trustProxy: { kind: 'hops', hops: 1 },
    passwordScryptN: TEST_SCRYPT_N,
    rateLimits: { notifyPerMinute: 1_000_000, friendPerMinute: 1_000_000, friendPerInvitationPerMinute: 1_000_000 },
    // the security check and the growing waits likewise (test/server/auth/login-guard.test.ts sets its own)
    loginGuard: {
      captchaAfterPhoneFailures: 1_000_000,
      captchaAfterNetworkFailures: 1_000_000,
      blockNetworkAfterFailures: 1_000_000,
      smsCaptchaAfterNetworkCodes: 1_000_000,
    },
    ...opts.config,
  };
  let drop: (() => Promise<void>) | undefined;
  let database: Database;
  let seeded: boolean;
  // the seeded templates were seeded at TEST_EPOCH: another start time seeds its own
  const wantSeeded = Boolean(opts.seed) && (!opts.now || opts.now === TEST_EPOCH);
  if (usePostgres) {
    const templates = inject('pgTemplates');
    const template = wantSeeded && templates?.seeded ? templates.seeded : (templates?.empty ?? null);
    const pg = await freshPostgres(template, templates?.copyPrefix ?? 't_');
    drop = pg.drop;
    database = await openDatabase({ url: pg.url, max: 20 });
    seeded = wantSeeded && template === templates?.seeded;
  } else {
    const loadDataDir = pgliteTemplate(wantSeeded ? 'seeded' : 'empty');
    database = await openDatabase({ dataDir: 'memory', loadDataDir });
    seeded = wantSeeded && loadDataDir !== undefined;
  }
  const partial = { db: database.db, dbKind: database.kind, clock, config, log };
  // tests that turn demo off still run without DATA_KEY: the development key (or DATA_KEY when set)
  const deps: Deps = {
    ...partial,
    gateways: createGateways(config, partial, { keySettings: dataKeySettingsFromEnv(process.env, true), paymentStandIns: testStandIns() }),
  };
  if (opts.seed && !seeded) {
    const { seedDemo } = await import('../../../src/server/db/seed/index');
    await seedDemo(deps.db, clock, config.passwordScryptN);
  }
  const app = createApp(deps);
  closeWhenDone(async () => {
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

/**
 * A database for a test that starts the server the way `npm start` does (startServerApp): a copy of
 * the run's migrated (or migrated and seeded) template, as a PostgreSQL database under TEST_DB=postgres,
 * else a PGlite data directory. Removed after the test.
 */
export async function startableDatabase(opts: { seeded: boolean }): Promise<Pick<Config, 'databaseUrl' | 'dataDir'>> {
  if (usePostgres) {
    const templates = inject('pgTemplates');
    const template = opts.seeded ? templates?.seeded : templates?.empty;
    if (!template) throw new Error('no PostgreSQL template for startableDatabase');
    const pg = await freshPostgres(template, templates!.copyPrefix);
    closeWhenDone(pg.drop);
    return { databaseUrl: pg.url, dataDir: './data' };
  }
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dataDir = mkdtempSync(`${tmpdir()}/yoga-start-`);
  const database = await openDatabase({ dataDir, loadDataDir: pgliteTemplate(opts.seeded ? 'seeded' : 'empty') });
  await database.close();
  closeWhenDone(async () => rmSync(dataDir, { recursive: true, force: true }));
  return { databaseUrl: undefined, dataDir };
}
