import { parseArgs } from 'node:util';
import { systemClock } from '../domain/clock';
import { environmentWith, loadConfig, type Config } from './config';
import { openDatabase } from './db/client';
import { demoAccounts } from './db/seed/index';
import { serveBuilt } from './serve-built';
import { createFirstAdmin, FirstAdminRefused } from './setup/first-admin';
import { adapterSummary } from './startup-summary';

const say = (lines: string[]) => process.stdout.write(lines.join('\n') + '\n');

/** `npm start` (with --demo) and `npm run serve`: the built app and the API on one port. */
async function serve(config: Config) {
  const { database, seeded } = await serveBuilt(config, systemClock, { hostname: process.env.HOST ?? '0.0.0.0' });
  const url = `${config.tls ? 'https' : 'http'}://localhost:${config.port}`;
  const lines = [`Yoga club app on ${url}${seeded ? ' (demo chain seeded)' : ''}`, ...adapterSummary(config, database.kind)];
  if (config.demo) {
    lines.push('Demo accounts (phone / password):');
    for (const a of demoAccounts) lines.push(`  ${a.role.padEnd(8)} ${a.phone} / ${a.password}  ${a.note}`);
    lines.push(`SMS codes: printed in this log and at ${url}/api/dev/sms/<phone>`);
  }
  say(lines);
}

/** `npm run create-admin -- --phone <phone> --name <name>`: the chain's first staff account, once. */
async function createAdmin(config: Config, args: string[]) {
  const { values } = parseArgs({ args, options: { phone: { type: 'string' }, name: { type: 'string' } }, strict: true });
  if (!values.phone || !values.name) throw new FirstAdminRefused('usage: create-admin --phone <mobile number> --name <real name>');
  const database = await openDatabase(config.databaseUrl ? { url: config.databaseUrl, max: 2 } : { dataDir: config.dataDir });
  try {
    const { id, password } = await createFirstAdmin(
      database.db,
      systemClock,
      { phone: values.phone, name: values.name },
      config.passwordScryptN,
    );
    say([
      `First administrator created (account ${id}, phone ${values.phone.trim()}).`,
      `Initial password, shown this once: ${password}`,
      'Log in with it at /login, then bind on /bindPage/userBind and open the staff console at /staff.',
    ]);
  } finally {
    await database.close();
  }
}

async function main() {
  const argv = process.argv.slice(2);
  const config = loadConfig(environmentWith(argv));
  const [command, ...rest] = argv.filter((a) => a !== '--demo');
  if (command === undefined) return serve(config);
  if (command === 'create-admin') return createAdmin(config, rest);
  throw new Error(`unknown command "${command}": the server takes no command, or create-admin`);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
