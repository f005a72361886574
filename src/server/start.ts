import type { Clock } from '../domain/clock';
import { createApp, type AppOptions } from './app';
import type { Config } from './config';
import { openDatabase, type Database } from './db/client';
import { seedIfEmpty } from './db/seed/index';
import { catalogChanged } from './http/catalog-cache';
import type { Deps } from './env';
import { createGateways } from './gateways/create';
import { usesPaymentStandIns } from './gateways/payments/create';
import { storedPaymentStandIns } from './gateways/payments/standin-keys';
import { startJobRunner } from './jobs/runner';
import { sealPlainRows } from './services/privacy/seal-old-rows';
import type { Logger } from './logger';

/** The app answering a request in-process; env is the page request's (its connection: conninfo). */
export interface InProcess {
  fetch(r: Request, env?: unknown): Promise<Response>;
}

/** Opens the database (migrating it), seeds the demo chain when empty, starts the job runner, builds the app. */
export async function startServerApp(config: Config, clock: Clock, log: Logger, appOptions: (app: InProcess) => AppOptions) {
  const database: Database = await openDatabase(config.databaseUrl ? { url: config.databaseUrl, max: config.databasePoolSize } : { dataDir: config.dataDir });
  const partial = { db: database.db, dbKind: database.kind, clock, config, log };
  const paymentStandIns = usesPaymentStandIns(config) ? await storedPaymentStandIns(database.db, clock.now()) : undefined;
  const deps: Deps = { ...partial, gateways: createGateways(config, partial, { paymentStandIns }) };
  // rows from before encryption at rest are sealed before the first request reads them (decision 053)
  const sealed = await sealPlainRows(deps.db, deps.gateways.keys, deps.gateways.storage);
  if (sealed) log.info('sealed plain personal data', { rows: sealed });
  const seeded = await seedIfEmpty(deps.db, clock, config.passwordScryptN);
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
