import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { and, asc, eq } from 'drizzle-orm';
import { openDatabase } from '../../src/server/db/client';
import { accounts, bookings, classes, memberCards, sessions } from '../../src/server/db/schema/index';
import { hashSecret, newSecret } from '../../src/server/services/auth-tokens';
import { startServer } from '../../test/e2e/support/server';
import { RACE_WARMUPS, raceServerArgs, warmUpNote } from '../server-args';
import { cpuSeconds, hotRowRateOn } from '../pgbench';
import { ms, type BenchRow, type BenchSection } from '../types';
import { keepAliveAgent, send } from '../../test/server/support/http-client';

const MEMBERS = Number(process.env.BENCH_RACE_MEMBERS) || 200;
const CAPACITY = 20;
/** the server's PostgreSQL pool (src/server/db/client.ts default) */
const POOL = 10;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

/**
 * 200 members race for one class of 20 on PostgreSQL: a fresh database (migrated), members, sessions
 * and cards written by SQL, then 200 concurrent POST /api/customers/classes/book over HTTP to the
 * real server process (the built app on PostgreSQL: routing, auth, idempotency, the booking transaction).
 * Checks that exactly 20 are booked and the rest queued 1..180 in order.
 */
export const bookingRace: BenchSection = {
  title: 'Booking race (PostgreSQL)',
  async run() {
    const base = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
    const { default: postgres } = await import('postgres');
    const admin = postgres(base, { max: 1, onnotice: () => {} });
    const name = `bench_booking_${randomBytes(4).toString('hex')}`;
    await admin.unsafe(`create database ${name}`);
    const url = new URL(base);
    url.pathname = `/${name}`;
    const server = await startServer({ env: { DATABASE_URL: url.toString(), LOG: '0' }, nodeArgs: raceServerArgs() }).catch(
      async (err: unknown) => {
        // a server that never came up leaves no open connection behind (the bench would not exit)
        await admin.unsafe(`drop database if exists ${name} with (force)`);
        await admin.end();
        throw err;
      },
    );
    // the server migrated and seeded the demo chain; the race's members are written beside it
    const database = await openDatabase({ url: url.toString(), max: 2 });
    try {
      const db = database.db;
      const now = new Date();
      const classAt = new Date(now.getTime() + 86_400_000);
      // the raced class, and the warm-up classes raced first, two hours apart after it (no clash)
      const [cls, ...warmClasses] = await db
        .insert(classes)
        .values(
          Array.from({ length: 1 + RACE_WARMUPS }, (_, k) => new Date(classAt.getTime() + k * 2 * 3_600_000)).map((startsAt) => ({
            clubId: 1,
            room: 'A',
            classType: 'regular' as const,
            style: 'hatha',
            effect: 'flexibility' as const,
            difficulty: 'beginner' as const,
            title: '压测课',
            startsAt,
            durationMin: 60,
            capacity: CAPACITY,
            queueCapacity: MEMBERS,
            createdAt: now,
          })),
        )
        .returning({ id: classes.id });
      const people = await db
        .insert(accounts)
        .values(Array.from({ length: MEMBERS }, (_, i) => ({ phone: `1360000${String(i).padStart(4, '0')}`, level: '2', createdAt: now })))
        .returning({ id: accounts.id });
      const tokens = people.map(() => newSecret());
      await db.insert(sessions).values(
        people.map((p, i) => ({
          accountId: p.id,
          tokenHash: hashSecret(tokens[i]!),
          createdAt: now,
          expiresAt: new Date(now.getTime() + 86_400_000),
        })),
      );
      const cards = await db
        .insert(memberCards)
        .values(
          people.map((p, i) => ({
            accountId: p.id,
            cardType: 'count' as const,
            name: '100次卡',
            number: `B${i}`,
            status: 'in_use' as const,
            usesTotal: 100,
            usesLeft: 100,
            validityDays: 180,
            validFrom: now,
            validUntil: new Date(now.getTime() + 180 * 86_400_000),
            allowedClassTypes: ['regular' as const],
            createdAt: now,
          })),
        )
        .returning({ id: memberCards.id });

      const latencies: number[] = [];
      let errors = 0;
      // one keep-alive connection per member, as each phone has its own (test/server/support/http-client.ts: a fourth of node:http's CPU)
      const agent = keepAliveAgent(MEMBERS);
      const bookUrl = new URL('/api/customers/classes/book', server.url);
      const race = (classId: number, key: string, record: boolean) =>
        Promise.all(
          people.map(async (_, i) => {
            const t0 = performance.now();
            const res = await send(
              agent,
              bookUrl,
              'POST',
              { 'content-type': 'application/json', 'authorization-token': tokens[i]!, 'idempotency-key': `${key}-${i}-0001` },
              JSON.stringify({ classId, cardId: cards[i]!.id, agreeNotice: true }),
            );
            const body = JSON.parse(res.body) as { data?: { state?: string; position?: number; bookingId?: number } };
            if (record) {
              latencies.push(performance.now() - t0);
              if (res.status !== 200) errors += 1;
            }
            return body.data;
          }),
        );
      // the same crowd on the warm-up classes first, not recorded: the pool's connections opened and the
      // booking path's code compiled, as on a server that has been up before 9:00 (BENCH_RACE_WARMUP=0: cold)
      for (const [k, warm] of warmClasses.entries()) await race(warm.id, `warm${k}`, false);

      const cpuBefore = cpuSeconds(server.pid);
      const clientBefore = process.cpuUsage();
      const started = performance.now();
      const answers = await race(cls!.id, 'bench', true);
      const seconds = (performance.now() - started) / 1000;
      const cpuPerRequest = ((cpuSeconds(server.pid) - cpuBefore) / MEMBERS) * 1000;
      const clientCpu = process.cpuUsage(clientBefore);
      agent.destroy();

      const booked = answers.filter((a) => a?.state === 'booked').length;
      const queued = answers.filter((a) => a?.state === 'queued');
      const inOrder = [...queued].sort((a, b) => a!.bookingId! - b!.bookingId!).every((a, i) => a!.position === i + 1);
      const seats = await db
        .select({ id: bookings.id })
        .from(bookings)
        .where(and(eq(bookings.classId, cls!.id), eq(bookings.state, 'booked')))
        .orderBy(asc(bookings.id));
      const [row] = await db.select({ n: classes.bookedCount }).from(classes).where(eq(classes.id, cls!.id));
      const ok =
        booked === CAPACITY &&
        seats.length === CAPACITY &&
        row!.n === CAPACITY &&
        queued.length === MEMBERS - CAPACITY &&
        inOrder &&
        errors === 0;

      const sorted = [...latencies].sort((a, b) => a - b);
      const rate = MEMBERS / seconds;
      // the hot-row ceiling on the same PostgreSQL, after the race (they do not compete)
      const pg = await hotRowRateOn(base);
      const rows: BenchRow[] = [
        {
          metric: 'decisions per second',
          value: `${Math.round(rate)}/s`,
          note: `${MEMBERS} concurrent POST /book in ${seconds.toFixed(2)} s, real server process (built), its PostgreSQL pool of ${POOL}${warmUpNote('class', 'classes', 'cold')}`,
        },
        { metric: 'book p50', value: ms(percentile(sorted, 50)) },
        {
          metric: 'book p99',
          value: ms(percentile(sorted, 99)),
          note: 'all requests start together: the tail waits for the class row lock',
        },
        {
          metric: 'server CPU per request',
          value: Number.isNaN(cpuPerRequest) ? '-' : ms(cpuPerRequest),
          note: 'user + system time of the server process during the race, divided by the requests (PostgreSQL not included)',
        },
        {
          metric: 'bench client CPU per request',
          value: ms((clientCpu.user + clientCpu.system) / 1000 / MEMBERS),
          note: 'this process (a node:net HTTP/1.1 client, keep-alive) during the race: it shares the cores with the server and PostgreSQL',
        },
        { metric: 'pgbench single-row updates per second', value: `${Math.round(pg.tps)}/s`, note: pg.note },
        {
          metric: 'ratio booking decisions / hot-row updates',
          value: `${((rate / pg.tps) * 100).toFixed(1)}%`,
          note: `${Math.round(rate)} / ${Math.round(pg.tps)}; goal 50%`,
        },
        {
          metric: 'outcome',
          value: ok ? 'ok' : 'WRONG',
          note: `${booked} booked (capacity ${CAPACITY}, booked_count ${row!.n}), ${queued.length} queued${inOrder ? ' 1..' + queued.length + ' in order' : ' OUT OF ORDER'}, ${errors} errors`,
        },
      ];
      if (!ok) throw new Error(`booking race: ${rows.find((r) => r.metric === 'outcome')!.note}`);
      return rows;
    } finally {
      await database.close();
      await server.stop();
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  },
};
