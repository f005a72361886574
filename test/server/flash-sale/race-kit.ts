import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { openDatabase, type Database } from '../../../src/server/db/client';
import { accounts, flashSales, goods, sessions } from '../../../src/server/db/schema/index';
import { hashSecret, newSecret } from '../../../src/server/services/auth-tokens';
import { buildServerEntry, startServer, type RunningServer } from '../../e2e/support/server';
import { keepAliveAgent, send, type KeepAlive } from '../support/http-client';

/**
 * The flash-sale race across processes (decision 009), shared by the PostgreSQL test and the bench:
 * a fresh database, N real server processes on it, members written by SQL (login is not what is
 * measured), and a crowd of concurrent POST /api/orders/create spread over the processes.
 */

/** This test process's build of the API-only server (the run's teardown removes it: `removeOrphanBuilds`). */
let apiProcess: { nodeArgs: string[] } | undefined;

/**
 * The node arguments that run the API-only server (test/server/support/api-process.ts): the test
 * suite runs before `npm run build`, so it cannot use dist/. Built once per test process (a Vite SSR
 * build, about 3 s of CPU) and shared by the files that start server processes (the flash-sale
 * race, the crash test): one vitest worker runs them all (isolate: false).
 */
export function buildApiProcess(): { nodeArgs: string[] } {
  // owned by the run's main process (the worker's parent), whose global teardown removes it
  apiProcess ??= { nodeArgs: buildServerEntry('test/server/support/api-process.ts', process.ppid).nodeArgs };
  return apiProcess;
}

export interface RaceDb {
  url: string;
  database: Database;
  drop(): Promise<void>;
}

/** A fresh, empty PostgreSQL database beside `base` (dropped by `drop`). */
export async function freshDatabase(base: string, prefix = 'flash'): Promise<{ url: string; drop(): Promise<void> }> {
  const { default: postgres } = await import('postgres');
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
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

/**
 * Starts `count` server processes on one database: the first alone (it migrates and seeds), then
 * the rest together. `env` per process (e.g. FLASH_SALE_GUARD=off for the negative control).
 */
export async function startProcesses(url: string, envs: Record<string, string>[], nodeArgs?: string[]): Promise<RunningServer[]> {
  const base = { DATABASE_URL: url, LOG: '0' };
  const first = await startServer({ env: { ...base, ...envs[0] }, nodeArgs, timeoutMs: 120_000 });
  try {
    const rest = await Promise.all(envs.slice(1).map((env) => startServer({ env: { ...base, ...env }, nodeArgs, timeoutMs: 120_000 })));
    return [first, ...rest];
  } catch (err) {
    await first.stop();
    throw err;
  }
}

export interface Buyer {
  id: number;
  token: string;
}

/** `n` members with live sessions, two INSERTs (tokens kept in memory, stored hashed as a login would). */
export async function bulkMembers(database: Database, n: number): Promise<Buyer[]> {
  const now = new Date();
  const tag = (randomBytes(2).readUInt16BE(0) % 90) + 10;
  const rows = await database.db
    .insert(accounts)
    .values(
      Array.from({ length: n }, (_, i) => ({
        phone: `15${tag}${String(i).padStart(7, '0')}`,
        level: '2',
        role: 'member' as const,
        createdAt: now,
      })),
    )
    .returning({ id: accounts.id });
  const tokens = rows.map(() => newSecret());
  await database.db.insert(sessions).values(
    rows.map((r, i) => ({
      accountId: r.id,
      tokenHash: hashSecret(tokens[i]!),
      createdAt: now,
      expiresAt: new Date(now.getTime() + 86_400_000),
    })),
  );
  return rows.map((r, i) => ({ id: r.id, token: tokens[i]! }));
}

/** A card sold only through a live flash sale of `maxNumber` places (the goods row has no stock). */
export async function liveSale(database: Database, maxNumber: number) {
  const now = Date.now();
  const [g] = await database.db
    .insert(goods)
    .values({
      kind: 'card',
      cardType: 'count',
      name: '压测秒杀卡',
      image: '/img/card.jpg',
      listPriceCents: 111_100,
      memberPriceCents: 99_900,
      uses: 11,
      validityDays: 120,
      createdAt: new Date(now),
    })
    .returning({ id: goods.id });
  const [sale] = await database.db
    .insert(flashSales)
    .values({
      goodsId: g!.id,
      title: '压测秒杀',
      startsAt: new Date(now - 60_000),
      endsAt: new Date(now + 3_600_000),
      maxNumber,
      createdAt: new Date(now),
    })
    .returning({ id: flashSales.id });
  return { goodsId: g!.id, saleId: sale!.id };
}

export interface Answer {
  status: number;
  code: number;
  ms: number;
  /** the order made (a place taken) */
  orderNo?: string;
  /** the buyer's session */
  token: string;
}

/** Cancels the orders a crowd made, as their buyers would (POST /api/orders/cancel): the places come back and the buyers may buy again. */
export async function cancelOrders(servers: RunningServer[], answers: Answer[], shared?: KeepAlive): Promise<void> {
  const agent = shared ?? keepAliveAgent();
  const made = answers.filter((a) => a.orderNo !== undefined);
  const done = await Promise.all(
    made.map((a, i) =>
      send(
        agent,
        new URL('/api/orders/cancel', servers[i % servers.length]!.url),
        'POST',
        { 'content-type': 'application/json', 'authorization-token': a.token },
        JSON.stringify({ orderNo: a.orderNo }),
      ),
    ),
  );
  if (!shared) agent.destroy();
  const refused = done.filter((d) => d.status !== 200);
  if (refused.length)
    throw new Error(`cancelling ${refused.length} of ${made.length} orders failed: ${refused[0]!.status} ${refused[0]!.body}`);
}

/**
 * One request per (buyer, key): all fired at once, spread round-robin over the processes. Over new
 * connections, unless `shared` is an agent whose connections a crowd before it opened (the bench's
 * recorded race after its warm-up: phones with the page open keep theirs); that agent stays open.
 */
export async function crowd(
  servers: RunningServer[],
  goodsId: number,
  shots: { token: string; key: string }[],
  shared?: KeepAlive,
): Promise<{ answers: Answer[]; seconds: number }> {
  const agent = shared ?? keepAliveAgent();
  const urls = servers.map((s) => new URL('/api/orders/create', s.url));
  const body = JSON.stringify({ goodsId, agreementAccepted: true });
  const started = performance.now();
  const answers = await Promise.all(
    shots.map(async (shot, i) => {
      const t0 = performance.now();
      const res = await send(
        agent,
        urls[i % urls.length]!,
        'POST',
        { 'content-type': 'application/json', 'authorization-token': shot.token, 'idempotency-key': shot.key },
        body,
      );
      let code = -1;
      let orderNo: string | undefined;
      try {
        const answer = JSON.parse(res.body) as { code?: number; data?: { orderNo?: string } | null };
        code = answer.code ?? -1;
        orderNo = answer.data?.orderNo;
      } catch {
        /* not JSON: counted as code -1 */
      }
      return { status: res.status, code, ms: performance.now() - t0, orderNo, token: shot.token };
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  if (!shared) agent.destroy();
  return { answers, seconds };
}

/** Warms each process's pool and JIT with a read that decides nothing. */
export async function warm(servers: RunningServer[], buyers: Buyer[]): Promise<void> {
  const agent = keepAliveAgent();
  await Promise.all(
    buyers
      .slice(0, 20 * servers.length)
      .map((b, i) =>
        send(agent, new URL('/api/product/goods/activity', servers[i % servers.length]!.url), 'GET', { 'authorization-token': b.token }),
      ),
  );
  agent.destroy();
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

export { openDatabase };
