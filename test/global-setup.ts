import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fixedClock } from '../src/domain/clock';
import { openDatabase } from '../src/server/db/client';

/** Where the migrated (and the migrated + seeded) PGlite templates are kept for one test run. */
export const TEMPLATE_DIR = '.test-data';
export const TEST_EPOCH = '2026-11-20T02:00:00Z';

/**
 * Migrating a fresh PGlite takes seconds; loading a dump takes a fraction (STACK-NOTES). So the run
 * migrates once, seeds once, and every server test file starts from these dumps.
 */
export default async function setup() {
  if (process.env.TEST_DB === 'postgres') return;
  mkdirSync(TEMPLATE_DIR, { recursive: true });
  const database = await openDatabase({ dataDir: 'memory' });
  writeFileSync(`${TEMPLATE_DIR}/pglite-empty.tgz`, Buffer.from(await (await database.dump!()).arrayBuffer()));
  rmSync(`${TEMPLATE_DIR}/pglite-seeded.tgz`, { force: true });
  try {
    const { seedDemo } = await import('../src/server/db/seed/index');
    await seedDemo(database.db, fixedClock(TEST_EPOCH));
    writeFileSync(`${TEMPLATE_DIR}/pglite-seeded.tgz`, Buffer.from(await (await database.dump!()).arrayBuffer()));
  } catch (err) {
    // no seeded template: test files that want the seed run it themselves and fail there, visibly
    process.stderr.write(`global setup: seeding the template failed: ${err instanceof Error ? err.message : String(err)}\n`);
  } finally {
    await database.close();
  }
}
