import { performance } from 'node:perf_hooks';
import { ms, type BenchRow, type BenchSection } from '../types';
import { keepAliveAgent, send } from '../../test/server/support/http-client';

const CONNECTIONS = 50;

interface Load {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  /** stop after this many requests ... */
  count: number;
  /** ... or after this long, whichever comes first */
  maxMs: number;
  /** requests sent first and not recorded: connections opened, code warmed (a server's steady state) */
  warmup?: number;
}

interface Outcome {
  latencies: number[];
  errors: number;
  firstError?: string;
  seconds: number;
  warmup: number;
}

/** Sends requests over CONNECTIONS keep-alive connections, each connection one request at a time. */
async function hammer(baseUrl: string, load: Load): Promise<Outcome> {
  const url = new URL(load.path, baseUrl);
  const agent = keepAliveAgent(CONNECTIONS);
  const headers: Record<string, string | number> = { accept: 'application/json', 'accept-encoding': 'gzip' };
  if (load.body !== undefined) headers['content-type'] = 'application/json';
  const once = () => send(agent, url, load.method, headers, load.body);

  const warmup = load.warmup ?? 0;
  const out: Outcome = { latencies: [], errors: 0, seconds: 0, warmup };
  let started = performance.now();
  let issued = 0;
  const worker = async () => {
    while (issued < warmup + load.count && performance.now() - started < load.maxMs) {
      issued += 1;
      const recorded = issued > warmup;
      if (issued === warmup + 1) started = performance.now();
      const t0 = performance.now();
      try {
        const r = await once();
        const dt = performance.now() - t0;
        if (!recorded) continue;
        if (r.status >= 200 && r.status < 300) out.latencies.push(dt);
        else {
          out.errors += 1;
          out.firstError ??= `HTTP ${r.status}`;
        }
      } catch (e) {
        out.errors += 1;
        out.firstError ??= e instanceof Error ? e.message : String(e);
      }
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  out.seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return out;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

/** The demo member's phone and password: BENCH_PHONE/BENCH_PASSWORD, else the seed's exported demo accounts. */
async function demoMember(): Promise<{ phone: string; password: string }> {
  if (process.env.BENCH_PHONE && process.env.BENCH_PASSWORD)
    return { phone: process.env.BENCH_PHONE, password: process.env.BENCH_PASSWORD };
  const seedModule = '../../src/server/db/seed/index';
  try {
    const seed = (await import(seedModule)) as { demoAccounts?: { role?: string; phone?: string; password?: string; banned?: boolean }[] };
    const member = seed.demoAccounts?.find((a) => a.role === 'member' && !a.banned && a.phone && a.password);
    if (member?.phone && member.password) return { phone: member.phone, password: member.password };
  } catch {
    /* no seed module yet */
  }
  throw new Error('no demo member: set BENCH_PHONE and BENCH_PASSWORD, or export demoAccounts from src/server/db/seed');
}

function rows(label: string, o: Outcome): BenchRow[] {
  const sorted = [...o.latencies].sort((a, b) => a - b);
  const n = sorted.length;
  const note = `${n} ok in ${o.seconds.toFixed(1)} s (${Math.round(n / o.seconds)} req/s), ${CONNECTIONS} connections${o.warmup ? `, after ${o.warmup} unrecorded warm-up requests` : ''}${o.errors ? `; ${o.errors} errors, first: ${o.firstError}` : ''}`;
  return [
    { metric: `${label} median`, value: n ? ms(percentile(sorted, 50)) : 'no successful request', note },
    { metric: `${label} p99`, value: n ? ms(percentile(sorted, 99)) : '-' },
  ];
}

/** Median and p99 latency of two API calls under 50 concurrent keep-alive connections. */
export const apiLatency: BenchSection = {
  title: 'API latency',
  async run({ baseUrl }) {
    // the server's steady state: V8 still compiles the read's path over the first ten thousand or so
    // requests (after 1,000 warm-up requests 4,762-8,144 req/s, p99 24-45 ms; after 20,000, 10,837-10,869
    // req/s, p99 11 ms, session 26), and 30,000 recorded keep one pause from being the p99 (5,000 last 0.5 s)
    const clubs: Load = {
      method: 'GET',
      path: '/api/school/clubs',
      count: Number(process.env.BENCH_CLUBS_COUNT) || 30_000,
      maxMs: 20_000,
      warmup: Number(process.env.BENCH_WARMUP ?? 20_000),
    };
    const { phone, password } = await demoMember();
    const login: Load = {
      method: 'POST',
      path: '/api/oauth/login',
      body: JSON.stringify({ username: phone, password, loginType: 'password' }),
      count: Number(process.env.BENCH_LOGIN_COUNT) || 1000,
      maxMs: 20_000,
    };
    // warm up both paths (JIT, connection pools, first queries), then measure
    await hammer(baseUrl, { ...clubs, count: 200 });
    await hammer(baseUrl, { ...login, count: 50 });
    return [
      ...rows('GET /api/school/clubs', await hammer(baseUrl, clubs)),
      ...rows('POST /api/oauth/login (password)', await hammer(baseUrl, login)),
    ];
  },
};
