import { and, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import { PAY_WINDOW_STATES } from '../../../machines/domain/order-transitions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/server/db/client';
import { seatCountsThatDisagree } from '../../../src/server/db/consistency';
import { bookings, classes, flashSales, idempotencyKeys, jobs, memberCards, orders } from '../../../src/server/db/schema/index';
import { ORDER_EXPIRE_JOB } from '../../../src/server/services/orders/pay-window';
import type { RunningServer } from '../../e2e/support/server';
import {
  buildApiProcess,
  bulkMembers,
  freshDatabase,
  liveSale,
  openDatabase,
  startProcesses,
  warm,
  type Buyer,
} from '../flash-sale/race-kit';
import { usePostgres } from '../support/harness';
import { assertMoneyInvariants } from '../support/money-invariants';

const BUYERS = 240;
const CARDS = 30;
const MATS = 20;

interface Shot {
  kind: 'buy' | 'book';
  buyer: Buyer;
  key: string;
  body: unknown;
}

/**
 * A crash test: two real server processes on one PostgreSQL database take a
 * flash sale and a booking rush at once; one is killed with SIGKILL in the middle and started again.
 * Afterwards nothing is sold over the sale's places, no class holds more than its mats, every class's
 * booked count matches its booked rows, every card's uses match the seats it holds, the money
 * invariants hold (decision 021), the restarted process serves, and every request the kill cut off,
 * retried with its Idempotency-Key once its lease ran out, is answered (never "in progress" for ever).
 * Then both processes die; the jobs that come due while none runs (order expiry) are done by the first
 * process started afterwards.
 */
describe.runIf(usePostgres)('a server process killed with SIGKILL under load', () => {
  let drop: () => Promise<void> = async () => {};
  let nodeArgs: string[] = [];
  let url = '';
  let database: Database;
  let servers: RunningServer[] = [];
  let buyers: Buyer[] = [];
  let goodsId = 0;
  let saleId = 0;
  let classId = 0;
  const cardOf = new Map<number, number>();

  beforeAll(async () => {
    const build = buildApiProcess();
    nodeArgs = build.nodeArgs;
    const fresh = await freshDatabase(process.env.TEST_DATABASE_URL!, 't_crash');
    drop = fresh.drop;
    url = fresh.url;
    servers = await startProcesses(fresh.url, [{}, {}], nodeArgs);
    database = await openDatabase({ url: fresh.url, max: 2 });
    buyers = await bulkMembers(database, BUYERS);
    ({ goodsId, saleId } = await liveSale(database, CARDS));
    const now = new Date();
    const [cls] = await database.db
      .insert(classes)
      .values({
        clubId: 1,
        room: 'K',
        classType: 'regular',
        style: 'hatha',
        effect: 'flexibility',
        difficulty: 'beginner',
        title: '压测课',
        startsAt: new Date(now.getTime() + 86_400_000),
        durationMin: 60,
        capacity: MATS,
        queueCapacity: BUYERS,
        createdAt: now,
      })
      .returning({ id: classes.id });
    classId = cls!.id;
    const cards = await database.db
      .insert(memberCards)
      .values(
        buyers.map((b, i) => ({
          accountId: b.id,
          cardType: 'count' as const,
          name: '10次卡',
          number: `K${i}`,
          status: 'in_use' as const,
          usesTotal: 10,
          usesLeft: 10,
          validityDays: 180,
          validFrom: now,
          validUntil: new Date(now.getTime() + 180 * 86_400_000),
          allowedClassTypes: ['regular' as const],
          createdAt: now,
        })),
      )
      .returning({ id: memberCards.id, accountId: memberCards.accountId });
    for (const c of cards) cardOf.set(c.accountId, c.id);
    await warm(servers, buyers);
  }, 180_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await database?.close();
    await drop();
  });

  const send = (server: RunningServer, shot: Shot) =>
    fetch(`${server.url}/api/${shot.kind === 'buy' ? 'orders/create' : 'customers/classes/book'}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'authorization-token': shot.buyer.token, 'idempotency-key': shot.key },
      body: JSON.stringify(shot.body),
    }).then(async (r) => ({ status: r.status, code: ((await r.json().catch(() => ({}))) as { code?: number }).code ?? -1 }));

  it('sold ≤ places, booked ≤ mats, counts and uses agree, money holds, the restarted process serves, cut-off requests are answered on retry', async () => {
    const [survivor, victim] = servers as [RunningServer, RunningServer];
    const shots: Shot[] = buyers.flatMap((b) => [
      { kind: 'buy' as const, buyer: b, key: `crash-buy-${b.id}`, body: { goodsId, agreementAccepted: true } },
      { kind: 'book' as const, buyer: b, key: `crash-book-${b.id}`, body: { classId, cardId: cardOf.get(b.id), agreeNotice: true } },
    ]);
    // every other member's two requests go to the process that is killed while they are in flight
    const fired = shots.map((shot, i) =>
      send(Math.floor(i / 2) % 2 ? victim : survivor, shot).then(
        (a) => ({ shot, ...a }),
        () => ({ shot, status: 0, code: 0 }),
      ),
    );
    await new Promise((r) => setTimeout(r, 150));
    process.kill(victim.pid, 'SIGKILL');
    const first = await Promise.all(fired);
    const cut = first.filter((a) => a.status === 0);
    expect(cut.length, 'requests the kill cut off').toBeGreaterThan(0);

    // the killed process comes back on the same database
    const [restarted] = await startProcesses(url, [{}], nodeArgs);
    servers = [survivor, restarted!];
    expect((await fetch(`${restarted!.url}/api/health`)).status).toBe(200);

    // the keys the kill left "in progress" have nobody to extend their lease; their lease runs out
    // (moved past by the database's clock, as the jobs below: the lease's own timing is
    // idempotency.test.ts's), and a cut-off request retried with its key is answered (done once, or
    // decided now). On a loaded machine the kill can come before the victim claimed any key: then
    // the retries are first tries.
    await database.db.update(idempotencyKeys).set({ leaseUntil: sql`now() - interval '1 second'` }).where(isNull(idempotencyKeys.status));
    const retried = await Promise.all(cut.map((c, i) => send(i % 2 ? restarted! : survivor, c.shot)));
    expect(
      retried.filter((a) => a.code === 70010 || a.status >= 500),
      'retries still "in progress" or failing',
    ).toEqual([]);

    const db = database.db;
    const [sale] = await db.select({ sold: flashSales.sellNumber }).from(flashSales).where(eq(flashSales.id, saleId));
    const [sold] = await db.select({ n: count() }).from(orders).where(eq(orders.goodsId, goodsId));
    expect(sale!.sold).toBeLessThanOrEqual(CARDS);
    expect(sold!.n).toBe(sale!.sold);
    const [cls] = await db.select({ booked: classes.bookedCount }).from(classes).where(eq(classes.id, classId));
    const [seats] = await db
      .select({ n: count() })
      .from(bookings)
      .where(and(eq(bookings.classId, classId), eq(bookings.state, 'booked')));
    expect(cls!.booked).toBeLessThanOrEqual(MATS);
    expect(seats!.n).toBe(cls!.booked);
    expect(await seatCountsThatDisagree(db)).toEqual([]);
    // a count card's uses: 10 less one for each seat it holds (a queue place spends nothing until promoted)
    const held = await db
      .select({ cardId: bookings.cardId })
      .from(bookings)
      .where(and(eq(bookings.classId, classId), eq(bookings.state, 'booked')));
    const seatsOf = new Map<number, number>();
    for (const h of held) seatsOf.set(h.cardId!, (seatsOf.get(h.cardId!) ?? 0) + 1);
    const cards = await db
      .select({ id: memberCards.id, usesLeft: memberCards.usesLeft })
      .from(memberCards)
      .where(inArray(memberCards.id, [...cardOf.values()]));
    expect(cards.filter((c) => c.usesLeft !== 10 - (seatsOf.get(c.id) ?? 0))).toEqual([]);
    await assertMoneyInvariants(db);

    // jobs that came due while no process ran: both processes die, the winners' pay windows end
    // meanwhile (one expiry job held by a dead worker whose lease ran out), and the one process started
    // afterwards cancels those orders and gives their places back
    for (const s of servers) process.kill(s.pid, 'SIGKILL');
    servers = [];
    const unpaid = await db
      .select({ id: orders.id, orderNo: orders.orderNo })
      .from(orders)
      .where(and(eq(orders.goodsId, goodsId), inArray(orders.state, PAY_WINDOW_STATES)));
    expect(unpaid.length, 'orders waiting for their money').toBeGreaterThan(0);
    const past = new Date(Date.now() - 60_000);
    await db
      .update(orders)
      .set({ expiresAt: past })
      .where(
        inArray(
          orders.id,
          unpaid.map((o) => o.id),
        ),
      );
    const expiries = await db
      .update(jobs)
      .set({ runAt: past })
      .where(and(eq(jobs.kind, ORDER_EXPIRE_JOB), isNull(jobs.doneAt)))
      .returning({ id: jobs.id });
    expect(expiries.length).toBeGreaterThanOrEqual(unpaid.length);
    await db.update(jobs).set({ lockedUntil: past, attempts: 1 }).where(eq(jobs.id, expiries[0]!.id));
    const [back] = await startProcesses(url, [{}], nodeArgs);
    servers = [back!];
    const stillWaiting = async () =>
      (
        await db
          .select({ n: count() })
          .from(orders)
          .where(
            and(
              inArray(
                orders.id,
                unpaid.map((o) => o.id),
              ),
              inArray(orders.state, PAY_WINDOW_STATES),
            ),
          )
      )[0]!.n;
    await expect.poll(stillWaiting, { timeout: 30_000, interval: 500, message: 'orders due while down, still waiting' }).toBe(0);
    const [after] = await db.select({ sold: flashSales.sellNumber }).from(flashSales).where(eq(flashSales.id, saleId));
    expect(after!.sold, 'places given back by the expired orders').toBe(sale!.sold - unpaid.length);
    await assertMoneyInvariants(db);
  }, 300_000);
});
