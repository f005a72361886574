// The API alone as a child process: what the multi-process race tests start several of on one
// PostgreSQL database. Same start-up as `npm start` (migrate, seed when empty, job runner), without
// the app's pages, so it needs no client build: race-kit.ts builds this file alone (Lingui macros and
// .po catalogs need Vite's transform) into a scratch folder and runs it with node.
import { serve } from '@hono/node-server';
import { systemClock } from '../../../src/domain/clock';
import { loadConfig } from '../../../src/server/config';
import { createLogger } from '../../../src/server/logger';
import { startServerApp } from '../../../src/server/start';

async function main() {
  const config = loadConfig();
  const log = createLogger({ silent: process.env.LOG === '0' });
  const { app, close } = await startServerApp(config, systemClock, log, () => ({}));
  const server = serve({ fetch: app.fetch, port: config.port, hostname: process.env.HOST ?? '127.0.0.1' });
  const stop = async () => {
    server.close();
    await close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
