import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { httpsRequest, type TestCertificate } from './tls';

/** The repository root (the server runs from here: it reads ./dist). */
export const repoRoot = path.resolve(import.meta.dirname, '../../..');

/** The files a built app must have; the server answers nothing useful without them. */
const BUILT = ['dist/client/index.html', 'dist/server/entry-server.js', 'dist/node/main.js'];

/**
 * How `npm run serve` starts the built server (e.g. `node dist/node/main.js`), as node arguments, so
 * the child is node itself (one pid to stop) and the tests follow the package.json script.
 */
export function serveCommand(): string[] {
  const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
  const serve = pkg.scripts?.serve ?? 'node dist/node/main.js';
  const [runner, ...args] = serve.trim().split(/\s+/);
  if (runner === 'node') return args;
  if (runner === 'tsx') return ['--import', 'tsx', ...args];
  throw new Error(`cannot run package.json "serve" (${serve}) directly: expected "node <file>" or "tsx <file>"`);
}

/**
 * Builds the app unless dist/ is already there (scripts/test.mjs builds right before the browser
 * tests), or always with `force` (the bench; E2E_BUILD=1 for the browser tests run alone).
 */
export function ensureBuilt(force = process.env.E2E_BUILD === '1'): void {
  const missing = BUILT.filter((f) => !existsSync(path.join(repoRoot, f)));
  if (missing.length === 0 && !force) return;
  process.stderr.write(`building the app (${missing.length ? `missing ${missing.join(', ')}` : 'fresh build requested'})\n`);
  // stdout of the build goes to stderr, so a caller's own stdout (the bench table) stays clean
  // a production build whoever asks: under vitest NODE_ENV is 'test', and Vite then bundled React's and
  // XState's development builds (StrictMode starting each screen's actor twice) into what was tested
  const r = spawnSync('npm', ['run', 'build'], {
    cwd: repoRoot,
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['ignore', process.stderr, process.stderr],
  });
  if (r.status !== 0) throw new Error(`npm run build failed (exit ${r.status})`);
}

/**
 * Builds a server entry of the tests' own (Lingui macros and .po catalogs need Vite's transform) into
 * a scratch folder inside the repository (so its node_modules resolve) and answers the node arguments
 * that run it (`StartOptions.nodeArgs`), plus a cleanup. The folder's name carries `owner`, the
 * process whose end makes it an orphan (`removeOrphanBuilds`).
 */
export function buildServerEntry(entry: string, owner = process.pid): { nodeArgs: string[]; remove(): void } {
  const name = path.basename(entry).replace(/\.tsx?$/, '');
  const dir = path.join('.test-data', `${name}-${owner}-${randomBytes(3).toString('hex')}`);
  const r = spawnSync(
    process.execPath,
    [path.join(repoRoot, 'node_modules/vite/bin/vite.js'), 'build', '--ssr', entry, '--outDir', dir, '--logLevel', 'error'],
    {
      cwd: repoRoot,
      encoding: 'utf8',
    },
  );
  if (r.status !== 0) throw new Error(`building ${entry} failed (exit ${r.status}):\n${r.stderr.slice(-2000)}`);
  return { nodeArgs: [path.join(dir, `${name}.js`)], remove: () => rmSync(path.join(repoRoot, dir), { recursive: true, force: true }) };
}

/** Whether a process with this id is running (signal 0 only asks). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the builds of `buildServerEntry` whose owner is gone or is this process. A build shared by
 * a vitest worker's files (the API process of the flash-sale race and the crash test) cannot remove
 * itself: the worker is stopped at the run's end without running its exit handlers. So its owner is
 * the run's main process, whose global teardown calls this; another run's builds (their owner still
 * running) stay.
 */
export function removeOrphanBuilds(): void {
  const dir = path.join(repoRoot, '.test-data');
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    const pid = Number(/-(\d+)-[0-9a-f]{6}$/.exec(name)?.[1]);
    if (pid && (pid === process.pid || !running(pid))) rmSync(path.join(dir, name), { recursive: true, force: true });
  }
}

/** A free loopback port, chosen by the OS. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  /** http://127.0.0.1:<port> (https with `tls`) */
  url: string;
  port: number;
  dataDir: string;
  /** everything the server printed so far (its start banner lists the demo accounts) */
  output(): string;
  /** stops the server and removes its data dir (unless `keepData`) */
  stop(opts?: { keepData?: boolean }): Promise<void>;
  /** the child's process id (the bench reads its CPU time) */
  pid: number;
}

export interface StartOptions {
  env?: Record<string, string>;
  timeoutMs?: number;
  /** another entry instead of the built server (the API-only test server, which needs no build) */
  nodeArgs?: string[];
  /**
   * Data a server already migrated and seeded (`makeDataTemplate`): the new server starts on a copy
   * of it (about 1 s) instead of migrating and seeding its own (about 6 s).
   */
  dataTemplate?: DataTemplate;
  /** serve HTTPS (HTTP/2 and HTTP/1.1) with this certificate (support/tls.ts) */
  tls?: TestCertificate;
  /** APP_MODE of the server: demo (the default here, as `npm start`), or production */
  mode?: 'demo' | 'production';
}

/**
 * Where the browser tests' servers keep their data: a PGlite data dir (the product's default), or,
 * when E2E_DATABASE_URL names a PostgreSQL server (`npm test` sets it whenever its PostgreSQL step
 * runs), a database there, each server on a `CREATE DATABASE ... TEMPLATE` copy (decision 015;
 * test/e2e/smoke.test.ts keeps a server on PGlite, as `npm start` runs).
 */
export type DataTemplate = { kind: 'pglite'; dir: string } | { kind: 'postgres'; url: string; database: string };

/** The PostgreSQL server the browser tests' servers use, if any. */
export const e2eDatabaseUrl = (): string | undefined => process.env.E2E_DATABASE_URL || undefined;

/** Runs one statement on a connection of its own to `url`. */
async function admin(url: string, statement: string): Promise<void> {
  const { default: postgres } = await import('postgres');
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(statement);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** A new database on `url`'s server (a copy of `template` when given): its URL and how to drop it. */
async function freshDatabase(url: string, template?: string): Promise<{ url: string; database: string; drop(): Promise<void> }> {
  const database = `e2e_${randomBytes(6).toString('hex')}`;
  await admin(url, template ? `create database ${database} template ${template}` : `create database ${database}`);
  const own = new URL(url);
  own.pathname = `/${database}`;
  return { url: own.toString(), database, drop: () => admin(url, `drop database if exists ${database} with (force)`) };
}

/** Removes a template made by `makeDataTemplate`. */
export async function removeDataTemplate(t: DataTemplate): Promise<void> {
  if (t.kind === 'pglite') rmSync(t.dir, { recursive: true, force: true });
  else await admin(t.url, `drop database if exists ${t.database} with (force)`);
}

/**
 * Starts the real server (the built `src/server/main.ts`, as `npm run serve` does) as a child process in demo mode, on a free port with a fresh PGlite data dir, and waits for
 * GET /api/health. Extra env (e.g. DATABASE_URL) is passed through.
 */
export async function startServer(opts: StartOptions = {}): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'yoga-e2e-'));
  const template = opts.dataTemplate;
  if (template?.kind === 'pglite') cpSync(template.dir, dataDir, { recursive: true });
  const pg = template?.kind === 'postgres' ? await freshDatabase(template.url, template.database) : undefined;
  const url = `${opts.tls ? 'https' : 'http'}://127.0.0.1:${port}`;
  const tlsEnv = opts.tls ? { TLS_CERT_FILE: opts.tls.certFile, TLS_KEY_FILE: opts.tls.keyFile } : {};
  // PUBLIC_URL on the same origin the browser uses, so OAuth redirects come back with its cookies
  // every browser and page of a run comes from 127.0.0.1, one network: the login guard's per-network
  // and per-phone thresholds are out of the way unless a test sets its own (decision 056)
  const guard = {
    LOGIN_CAPTCHA_AFTER_PHONE_FAILURES: '1000',
    LOGIN_CAPTCHA_AFTER_NETWORK_FAILURES: '100000',
    LOGIN_BLOCK_NETWORK_AFTER_FAILURES: '1000000',
    SMS_CAPTCHA_AFTER_NETWORK_CODES: '100000',
  };
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: url,
    ...guard,
    ...tlsEnv,
    ...opts.env,
  };
  // demo mode (local stand-ins, /api/dev) unless the test starts a production server on purpose
  env.APP_MODE = opts.mode ?? 'demo';
  if (pg) env.DATABASE_URL = pg.url;
  else if (!opts.env?.DATABASE_URL) delete env.DATABASE_URL;
  const child: ChildProcess = spawn(process.execPath, opts.nodeArgs ?? serveCommand(), {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  let exited: number | null | undefined;
  const exit = new Promise<void>((resolve) =>
    child.on('exit', (code) => {
      exited = code;
      resolve();
    }),
  );

  const stop = async ({ keepData = false }: { keepData?: boolean } = {}) => {
    if (exited === undefined) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exit;
      clearTimeout(timer);
    }
    if (!keepData) {
      rmSync(dataDir, { recursive: true, force: true });
      await pg?.drop();
    }
  };

  const deadline = Date.now() + (opts.timeoutMs ?? 90_000);
  for (;;) {
    if (exited !== undefined) {
      await stop();
      throw new Error(`the server exited (code ${exited}) before answering /api/health:\n${out.slice(-3000)}`);
    }
    try {
      const health = `${url}/api/health`;
      const status = opts.tls
        ? (await httpsRequest(health, opts.tls.cert)).status
        : (await fetch(health, { signal: AbortSignal.timeout(2000) })).status;
      if (status === 200) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the server did not answer ${url}/api/health in time:\n${out.slice(-3000)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, port, dataDir, pid: child.pid ?? 0, output: () => out, stop };
}

/**
 * Migrates and seeds the data once, through the real server's own start-up (start, wait for
 * /api/health, stop), so servers started from it (`dataTemplate`) skip both: a PGlite data dir, or
 * a PostgreSQL database when E2E_DATABASE_URL is set (or `postgresUrl` is given). The seed's dates
 * are relative to the moment it ran: make one per test run. Remove it with `removeDataTemplate`.
 */
export async function makeDataTemplate(postgresUrl = e2eDatabaseUrl()): Promise<DataTemplate> {
  if (postgresUrl) {
    const db = await freshDatabase(postgresUrl);
    try {
      const server = await startServer({ env: { LOG: '0', DATABASE_URL: db.url } });
      await server.stop();
      await cheaperDemoPasswords({ url: db.url, max: 1 });
    } catch (err) {
      await db.drop();
      throw err;
    }
    return { kind: 'postgres', url: postgresUrl, database: db.database };
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'yoga-e2e-template-'));
  const server = await startServer({ env: { LOG: '0' } });
  try {
    await server.stop({ keepData: true });
    cpSync(server.dataDir, dir, { recursive: true });
  } finally {
    rmSync(server.dataDir, { recursive: true, force: true });
  }
  await cheaperDemoPasswords({ dataDir: dir });
  return { kind: 'pglite', dir };
}

/**
 * The template's demo accounts get their passwords hashed again at the API tests' cost
 * (TEST_SCRYPT_N): the browser tests log in well over a hundred times, and each login verified a
 * 2^15 scrypt (150-280 ms of CPU on the 2-core machine). The login's code is the same; the
 * product's cost for new passwords is held by test/unit/config.test.ts, and the bench's login row and
 * the smoke test (a server seeded as `npm start` seeds it) still verify 2^15 hashes.
 */
async function cheaperDemoPasswords(where: { url: string; max: number } | { dataDir: string }): Promise<void> {
  const [{ openDatabase }, { accounts }, { demoAccounts }, { hashDemoPasswords }, { TEST_SCRYPT_N }, { eq }] = await Promise.all([
    import('../../../src/server/db/client'),
    import('../../../src/server/db/schema/index'),
    import('../../../src/server/db/seed/index'),
    import('../../../src/server/db/seed/people'),
    import('../../global-setup'),
    import('drizzle-orm'),
  ]);
  const hashes = await hashDemoPasswords(TEST_SCRYPT_N);
  const database = await openDatabase(where);
  try {
    for (const [i, a] of demoAccounts.entries())
      await database.db.update(accounts).set({ passwordHash: hashes[i]! }).where(eq(accounts.phone, a.phone));
  } finally {
    await database.close();
  }
}
