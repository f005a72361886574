import type { Clock } from '../domain/clock';
import { createApp, type AppOptions } from './app';
import type { Config } from './config';
import { openDatabase, type Database } from './db/client';
import { holdsDemoChain, seedIfEmpty } from './db/seed/index';
import { catalogChanged } from './http/catalog-cache';
import type { Deps } from './env';
import { createGateways } from './gateways/create';
import { usesPaymentStandIns } from './gateways/payments/create';
import { storedPaymentStandIns } from './gateways/payments/standin-keys';
import { startJobRunner } from './jobs/runner';
import { sealPlainRows } from './services/person-privacy/seal-old-rows';
import type { Logger } from './logger';

/** The app answering a request in-process; env is the page request's (its connection: conninfo). */
export interface InProcess {
  fetch(r: Request, env?: unknown): Promise<Response>;
}

/** Why a production start stops on a database that holds the demo chain, and how to start clean. */
export const DEMO_DATABASE_REFUSED =
  'This database holds the demo chain (its demo accounts open with the passwords the README prints), and this is a production start. ' +
  'Point DATABASE_URL at a new, empty database (createdb <name>), then create the first administrator with `npm run create-admin -- --phone <phone> --name <name>`; ' +
  'or start the demo on purpose with APP_MODE=demo.';

/**
 * Opens the database (migrating it), seeds the demo chain when empty in demo mode (never in
 * production, where a database holding the demo chain is refused), starts the job runner, builds the app.
 */
export async function startServerApp(config: Config, clock: Clock, log: Logger, appOptions: (app: InProcess) => AppOptions) {
  const database: Database = await openDatabase(
    config.databaseUrl ? { url: config.databaseUrl, max: config.databasePoolSize } : { dataDir: config.dataDir },
  );
  if (!config.demo && (await holdsDemoChain(database.db))) {
    await database.close();
    throw new Error(DEMO_DATABASE_REFUSED);
  }
  const partial = { db: database.db, dbKind: database.kind, clock, config, log };
  const paymentStandIns = usesPaymentStandIns(config) ? await storedPaymentStandIns(database.db, clock.now()) : undefined;
  const deps: Deps = { ...partial, gateways: createGateways(config, partial, { paymentStandIns }) };
  // rows from before encryption at rest are sealed before the first request reads them (decision 055)
  const sealed = await sealPlainRows(deps.db, deps.gateways.keys, deps.gateways.storage);
  if (sealed) log.info('sealed plain personal data', { rows: sealed });
  const seeded = config.demo ? await seedIfEmpty(deps.db, clock, config.passwordScryptN) : false;
  catalogChanged(deps);
  const holder: InProcess = { fetch: async () => new Response(null, { status: 503 }) };
  const app = createApp(deps, appOptions(holder));
  holder.fetch = async (r, env) => app.fetch(r, env as never);
  const stopJobs = await startJobRunner(deps);
  return {
    app,
    deps,
    database,
    seeded,
    /** stops the job runner and closes the database */
    async close() {
      await stopJobs();
      await database.close();
    },
  };
}
