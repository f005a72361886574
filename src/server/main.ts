import { systemClock } from '../domain/clock';
import { loadConfig } from './config';
import { demoAccounts } from './db/seed/index';
import { serveBuilt } from './serve-built';

/** `npm start`: the built app and the API on one port. */
async function main() {
  const config = loadConfig();
  const { database, seeded } = await serveBuilt(config, systemClock, { hostname: process.env.HOST ?? '0.0.0.0' });
  const url = `${config.tls ? 'https' : 'http'}://localhost:${config.port}`;
  const lines = [
    `Yoga club app on ${url} (${config.demo ? 'demo mode: local SMS/OAuth stand-ins and /api/dev on' : 'production'})`,
    `Database: ${database.kind === 'pglite' ? `PGlite in ${config.dataDir}` : 'PostgreSQL'}${seeded ? ' (demo chain seeded)' : ''}`,
  ];
  if (config.demo) {
    lines.push('Demo accounts (phone / password):');
    for (const a of demoAccounts) lines.push(`  ${a.role.padEnd(8)} ${a.phone} / ${a.password}  ${a.note}`);
    lines.push(`SMS codes: printed in this log and at ${url}/api/dev/sms/<phone>; API docs: ${url}/api/docs`);
  }
  process.stdout.write(lines.join('\n') + '\n');
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
