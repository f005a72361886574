import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { fixedClock } from '../src/domain/clock';
import { openDatabase, type Database } from '../src/server/db/client';

/** Where the migrated (and the migrated + seeded) PGlite templates are kept for one test run. */
export const TEMPLATE_DIR = '.test-data';
export const TEST_EPOCH = '2026-11-20T02:00:00Z';
/**
 * The scrypt cost of passwords in API and screen tests, the demo accounts' included: a login verifies
 * in about 5 ms of CPU instead of 150-280 ms at the product's 2^15 (test/unit/config.test.ts holds
 * the product to 2^15; the bench's login row measures it).
 */
export const TEST_SCRYPT_N = 2 ** 10;

declare module 'vitest' {
  export interface ProvidedContext {
    /** TEST_DB=postgres: the template databases this run migrated (and seeded) once */
    pgTemplates: { empty: string; seeded: string | null; copyPrefix: string } | null;
  }
}

async function seed(database: Database): Promise<boolean> {
  try {
    const { seedDemo } = await import('../src/server/db/seed/index');
    await seedDemo(database.db, fixedClock(TEST_EPOCH), TEST_SCRYPT_N);
    return true;
  } catch (err) {
    // no seeded template: test files that want the seed run it themselves and fail there, visibly
    process.stderr.write(`global setup: seeding the template failed: ${err instanceof Error ? err.message : String(err)}\n`);
    return false;
  }
}

/**
 * Migrating and seeding take seconds; copying a template takes a fraction (decision 015). So each run
 * migrates from scratch once and seeds once (a broken migration or seed still fails), and every
 * server test file starts from a copy:
 * - PGlite: uncompressed data-dir dumps in .test-data/ (loading one: about 0.4 s);
 * - PostgreSQL (TEST_DB=postgres): template databases, copied by `CREATE DATABASE ... TEMPLATE`.
 */
export default async function setup(project: TestProject) {
  if (process.env.TEST_DB === 'postgres') return postgresTemplates(project);
  await pgliteTemplates(project);
  return removeOrphanBuilds;
}

/** The run's sweep of server builds (imported when called: test/e2e/support/server.ts imports this module). */
async function removeOrphanBuilds(): Promise<void> {
  (await import('./e2e/support/server')).removeOrphanBuilds();
}

async function pgliteTemplates(project: TestProject) {
  project.provide('pgTemplates', null);
  mkdirSync(TEMPLATE_DIR, { recursive: true });
  const database = await openDatabase({ dataDir: 'memory' });
  // written under a name of this process's, then renamed: runs side by side (the mutants' shards, two
  // checkouts' steps) each replace a template whole, and a test file never reads one half-written
  const dump = async (name: string) => {
    const part = `${TEMPLATE_DIR}/${name}.${process.pid}.part`;
    writeFileSync(part, Buffer.from(await (await database.dump!()).arrayBuffer()));
    renameSync(part, `${TEMPLATE_DIR}/${name}`);
  };
  try {
    await dump('pglite-empty.tar');
    if (await seed(database)) await dump('pglite-seeded.tar');
    else rmSync(`${TEMPLATE_DIR}/pglite-seeded.tar`, { force: true });
  } finally {
    await database.close();
  }
}

async function postgresTemplates(project: TestProject) {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const { default: postgres } = await import('postgres');
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  const tag = `${process.pid}_${Date.now().toString(36)}`;
  const names = { empty: `tpl_empty_${tag}`, seeded: `tpl_seeded_${tag}` };
  // the servers' copies (test/server/support/harness.ts): the ones still there at the end are dropped here
  const copyPrefix = `t_${tag}_`;
  const urlOf = (name: string) => Object.assign(new URL(base), { pathname: `/${name}` }).toString();
  const build = async (name: string, withSeed: boolean) => {
    await admin.unsafe(`create database ${name}`);
    const database = await openDatabase({ url: urlOf(name), max: 2 });
    try {
      return withSeed ? await seed(database) : true;
    } finally {
      await database.close();
    }
  };
  await build(names.empty, false);
  const seeded = await build(names.seeded, true);
  project.provide('pgTemplates', { empty: names.empty, seeded: seeded ? names.seeded : null, copyPrefix });
  return async () => {
    await removeOrphanBuilds();
    const copies = await admin<{ datname: string }[]>`select datname from pg_database where starts_with(datname, ${copyPrefix})`;
    for (const name of [...copies.map((c) => c.datname), ...Object.values(names)])
      await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  };
}
