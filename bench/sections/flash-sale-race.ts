import { performance } from 'node:perf_hooks';
import {
  bulkMembers,
  cancelOrders,
  crowd,
  freshDatabase,
  liveSale,
  openDatabase,
  percentile,
  startProcesses,
  warm,
} from '../../test/server/flash-sale/race-kit';
import { RACE_WARMUPS, raceServerArgs, warmUpNote } from '../server-args';
import { cpuSeconds, hotRowRate } from '../pgbench';
import { keepAliveAgent, send } from '../../test/server/support/http-client';
import { ms, type BenchRow, type BenchSection } from '../types';

const BUYERS = Number(process.env.BENCH_FLASH_BUYERS) || 1000;
const CARDS = 30;
const PROCESSES = 2;
/**
 * Issue 4's flash-sale bench (decision 009): 1,000 concurrent buyers for 30 cards through two real
 * server processes (the built app) on one fresh PostgreSQL database, every request a full
 * POST /api/orders/create (auth, idempotency key, the sold-out check, the order transaction), beside
 * pgbench's single-row update rate on the same server in the same run. Checks exactly 30 sold.
 */
export const flashSaleRace: BenchSection = {
  title: 'Flash-sale race (PostgreSQL, 2 processes)',
  async run() {
    const base = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
    const fresh = await freshDatabase(base, 'bench_flash');
    const scratch = await freshDatabase(base, 'bench_pgbench');
    const servers = await startProcesses(
      fresh.url,
      Array.from({ length: PROCESSES }, () => ({})),
      raceServerArgs(),
    );
    const database = await openDatabase({ url: fresh.url, max: 2 });
    try {
      const buyers = await bulkMembers(database, BUYERS);
      const { goodsId } = await liveSale(database, CARDS);
      await warm(servers, buyers);
      // the same crowd on warm-up sales first, not recorded: the connections opened and the purchase
      // path's code compiled, as on servers that have been up before the sale, with members who have
      // the page open (BENCH_RACE_WARMUP=0: cold processes, every buyer a new connection)
      const agent = RACE_WARMUPS > 0 ? keepAliveAgent() : undefined;
      for (let k = 0; k < RACE_WARMUPS; k++) {
        const warmSale = await liveSale(database, CARDS);
        const warmed = await crowd(
          servers,
          warmSale.goodsId,
          buyers.map((b) => ({ token: b.token, key: `bench-warm${k}-${b.id}` })),
          agent,
        );
        await cancelOrders(servers, warmed.answers, agent);
      }
      const cpuBefore = servers.reduce((a, s) => a + cpuSeconds(s.pid), 0);
      const clientBefore = process.cpuUsage();
      const { answers, seconds } = await crowd(
        servers,
        goodsId,
        buyers.map((b) => ({ token: b.token, key: `bench-flash-${b.id}` })),
        agent,
      );
      const cpuPerRequest = ((servers.reduce((a, s) => a + cpuSeconds(s.pid), 0) - cpuBefore) / BUYERS) * 1000;
      const clientCpu = process.cpuUsage(clientBefore);
      const clientPerRequest = (clientCpu.user + clientCpu.system) / 1000 / BUYERS;

      // the floor beside it: the same crowd on GET /api/health (HTTP, the app's middleware, one `select 1`),
      // with the same client, over the race's connections (new ones when the race had new ones)
      const floorAgent = agent ?? keepAliveAgent();
      const floorBefore = servers.reduce((a, s) => a + cpuSeconds(s.pid), 0);
      const floorStarted = performance.now();
      await Promise.all(
        buyers.map((b, i) =>
          send(floorAgent, new URL('/api/health', servers[i % servers.length]!.url), 'GET', { 'authorization-token': b.token }),
        ),
      );
      const floorSeconds = (performance.now() - floorStarted) / 1000;
      const floorPerRequest = ((servers.reduce((a, s) => a + cpuSeconds(s.pid), 0) - floorBefore) / BUYERS) * 1000;
      floorAgent.destroy();
      const sold = answers.filter((a) => a.status === 200).length;
      const seen = answers.filter((a) => a.code === 50003).length;
      const slow = answers.filter((a) => a.code === 50020).length;
      const other = answers.length - sold - seen - slow;
      const sorted = answers.map((a) => a.ms).sort((a, b) => a - b);
      const rate = BUYERS / seconds;

      // the hot-row ceiling on the same PostgreSQL, after the race (they do not compete)
      const { default: postgres } = await import('postgres');
      const sql = postgres(scratch.url, { max: 1, onnotice: () => {} });
      await sql.unsafe('create table one_row (id int primary key, n bigint not null); insert into one_row values (1, 0)');
      await sql.end();
      const pg = hotRowRate(scratch.url);

      const ok = sold === CARDS && seen + slow === BUYERS - CARDS && other === 0;
      const rows: BenchRow[] = [
        {
          metric: 'purchases decided per second',
          value: `${Math.round(rate)}/s`,
          note: `${BUYERS} concurrent POST /api/orders/create for ${CARDS} cards in ${seconds.toFixed(2)} s over ${PROCESSES} built server processes (pool ${10} each)${warmUpNote('sale', 'sales', 'cold, new connections')}`,
        },
        {
          metric: 'order create p50',
          value: ms(percentile(sorted, 50)),
          note: `first answer after ${ms(sorted[0] ?? NaN)}, the last sale answered after ${ms(Math.max(...answers.filter((a) => a.status === 200).map((a) => a.ms)))}`,
        },
        { metric: 'order create p99', value: ms(percentile(sorted, 99)), note: 'all requests start together' },
        {
          metric: 'server CPU per request',
          value: Number.isNaN(cpuPerRequest) ? '-' : ms(cpuPerRequest),
          note: 'user + system time of the two server processes during the race, divided by the requests (PostgreSQL not included)',
        },
        {
          metric: 'bench client CPU per request',
          value: ms(clientPerRequest),
          note: 'this process (a node:net HTTP/1.1 client) during the race: it shares the cores with the servers and PostgreSQL',
        },
        {
          metric: 'floor: GET /api/health, same crowd',
          value: Number.isNaN(floorPerRequest) ? '-' : ms(floorPerRequest),
          note: `server CPU per request of ${BUYERS} concurrent GET /api/health (the middleware and one select 1) over the same processes, ${Math.round(BUYERS / floorSeconds)}/s`,
        },
        {
          metric: 'outcome',
          value: ok ? 'ok' : 'WRONG',
          note: `${sold} sold (max ${CARDS}); ${seen} told sold out before the transaction (50003), ${slow} lost the last place (50020); ${other} other`,
        },
        { metric: 'pgbench single-row updates per second', value: `${Math.round(pg.tps)}/s`, note: pg.note },
        {
          metric: 'ratio flash decisions / hot-row updates',
          value: `${((rate / pg.tps) * 100).toFixed(1)}%`,
          note: `${Math.round(rate)} / ${Math.round(pg.tps)}`,
        },
      ];
      if (!ok) throw new Error(`flash-sale race: ${rows.find((r) => r.metric === 'outcome')!.note}`);
      return rows;
    } finally {
      await database.close();
      await Promise.all(servers.map((s) => s.stop()));
      await fresh.drop();
      await scratch.drop();
    }
  },
};
