import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { rowsOf } from '../../src/server/db/rows';
import { errorResponse } from '../../src/server/http/error-response';
import { idempotencyKeys } from '../../src/server/db/schema/index';
import { idempotent, IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_TTL_MS } from '../../src/server/http/idempotency';
import { createRouter, ok } from '../../src/server/http/router';
import { startTestServer } from './support/harness';

/**
 * The idempotency middleware on a small money-like endpoint that writes a row per run:
 * a retry must replay, not run again (DESIGN.md §4).
 */
describe('Idempotency-Key', async () => {
  const s = await startTestServer();
  await s.deps.db.execute(sql`create table if not exists idem_probe (id serial primary key, amount int not null)`);
  let runs = 0;
  let fail = false;
  let gate: Promise<void> | undefined;

  const app = createRouter();
  app.use('*', async (c, next) => {
    c.set('deps', s.deps);
    c.set('locale', 'zh');
    const who = c.req.header('x-test-account');
    if (who)
      c.set('caller', {
        accountId: Number(who),
        sessionId: 1,
        role: 'member',
        level: '2',
        phone: '13800000000',
        passwordChangeOnly: false,
      });
    await next();
  });
  app.onError((err, c) => errorResponse(c, err));
  app.post('/pay', idempotent, async (c) => {
    runs++;
    if (fail) throw new Error('boom');
    await gate;
    const body = (await c.req.json()) as { amount: number };
    const [row] = rowsOf<{ id: number }>(
      await s.deps.db.execute(sql`insert into idem_probe (amount) values (${body.amount}) returning id`),
    );
    return ok(c, { id: row!.id, run: runs });
  });

  // answers the note it was sent: a lone surrogate in it is an answer PostgreSQL's jsonb cannot keep
  app.post('/echo', idempotent, async (c) => ok(c, { note: ((await c.req.json()) as { note: string }).note }));

  const pay = (key: string | undefined, amount: number, account = '1') =>
    app.request('/pay', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-test-account': account, ...(key ? { 'idempotency-key': key } : {}) },
      body: JSON.stringify({ amount }),
    });
  const count = async () => {
    return rowsOf<{ n: number }>(await s.deps.db.execute(sql`select count(*)::int as n from idem_probe`))[0]!.n;
  };

  it('replays the first answer for a retry with the same key and body', async () => {
    const before = await count();
    const a = await pay('key-aaaaaaaa', 100);
    const b = await pay('key-aaaaaaaa', 100);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(await b.json()).toEqual(await a.json());
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    expect(await count()).toBe(before + 1);
  });

  it('refuses the same key with a different body (70007), writing nothing', async () => {
    await pay('key-bbbbbbbb', 100);
    const before = await count();
    const r = await pay('key-bbbbbbbb', 200);
    expect(r.status).toBe(409);
    expect((await r.json()).code).toBe(70007);
    expect(await count()).toBe(before);
  });

  it('keeps keys per caller: another member with the same key runs on its own', async () => {
    const before = await count();
    await pay('key-cccccccc', 100, '1');
    const other = await pay('key-cccccccc', 100, '2');
    expect(other.headers.get('idempotent-replayed')).toBeNull();
    expect(await count()).toBe(before + 2);
  });

  it('keys claimed at once (one statement for the turn): each request runs once, and each retry replays its own answer', async () => {
    const before = await count();
    const amounts = Array.from({ length: 12 }, (_, i) => 1000 + i);
    const first = await Promise.all(amounts.map((amount, i) => pay(`key-turn-${i}`, amount, String(10 + (i % 3)))));
    const bodies = await Promise.all(first.map((r) => r.json() as Promise<{ data: { id: number } }>));
    expect(first.map((r) => r.status)).toEqual(amounts.map(() => 200));
    expect(new Set(bodies.map((b) => b.data.id)).size).toBe(12);
    expect(await count()).toBe(before + 12);
    const again = await Promise.all(amounts.map((amount, i) => pay(`key-turn-${i}`, amount, String(10 + (i % 3)))));
    expect(again.map((r) => r.headers.get('idempotent-replayed'))).toEqual(amounts.map(() => 'true'));
    expect(await Promise.all(again.map((r) => r.json()))).toEqual(bodies);
    expect(await count()).toBe(before + 12);
  });

  it('an answer that cannot be kept fails only its own request, not the answers kept with it in its turn', async () => {
    const echo = app.request('/echo', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-test-account': '1', 'idempotency-key': 'key-echo-surrogate' },
      body: '{"note":"\\ud800"}',
    });
    const pays = [pay('key-beside-1', 700), pay('key-beside-2', 701)];
    const [bad, ...good] = await Promise.all([echo, ...pays]);
    expect(bad!.status).toBe(500);
    expect(good.map((r) => r.status)).toEqual([200, 200]);
    const again = await Promise.all([pay('key-beside-1', 700), pay('key-beside-2', 701)]);
    expect(again.map((r) => r.headers.get('idempotent-replayed'))).toEqual(['true', 'true']);
  });

  it('a double tap in one turn (same key): the first runs, the second is refused while it runs (70010), the retry replays', async () => {
    const before = await count();
    let open!: () => void;
    gate = new Promise((resolve) => (open = resolve));
    const taps = [pay('key-double-tap', 500), pay('key-double-tap', 500)];
    // the refused tap answers while the running one waits at the gate (at most 5 s, should both run)
    await Promise.race([...taps, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    open();
    gate = undefined;
    const [firstTap, second] = await Promise.all(taps);
    expect([firstTap!.status, second!.status]).toEqual([200, 409]);
    expect((await second!.json()).code).toBe(70010);
    const retry = await pay('key-double-tap', 500);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await retry.json()).toEqual(await firstTap!.json());
    expect(await count()).toBe(before + 1);
  });

  it('does not keep a failed (5xx) first attempt, so the retry runs', async () => {
    fail = true;
    const r1 = await pay('key-dddddddd', 100);
    expect(r1.status).toBe(500);
    fail = false;
    const before = await count();
    const r2 = await pay('key-dddddddd', 100);
    expect(r2.status).toBe(200);
    expect(await count()).toBe(before + 1);
  });

  it('forgets a key after 24 hours', async () => {
    const before = await count();
    await pay('key-eeeeeeee', 100);
    s.clock.advance(IDEMPOTENCY_TTL_MS + 1000);
    const again = await pay('key-eeeeeeee', 100);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(await count()).toBe(before + 2);
  });

  it('refuses a malformed key naming the header', async () => {
    const r = await pay('x', 100);
    expect(r.status).toBe(400);
    expect(await r.json()).toMatchObject({ code: 70003, field: 'Idempotency-Key' });
  });

  it('runs requests without a key as they come', async () => {
    const before = await count();
    await pay(undefined, 1);
    await pay(undefined, 1);
    expect(await count()).toBe(before + 2);
  });
  /** The in-progress row a process killed mid-request leaves behind (decision 037). */
  const leftByDeadProcess = async (key: string, amount: number, lease: 'leased' | 'before leases') => {
    const now = s.clock.now();
    await s.deps.db.insert(idempotencyKeys).values({
      scope: 'a:1',
      key,
      method: 'POST',
      path: '/pay',
      bodyHash: createHash('sha256')
        .update(`POST /pay\n${JSON.stringify({ amount })}`)
        .digest('hex'),
      createdAt: now,
      owner: lease === 'leased' ? 'dead-process' : null,
      leaseUntil: lease === 'leased' ? new Date(now.getTime() + IDEMPOTENCY_LEASE_MS) : null,
    });
  };

  it('a key left in progress by a killed process: refused while its lease runs, then the retry takes it over and runs once', async () => {
    await leftByDeadProcess('key-killed-1', 300, 'leased');
    const before = await count();
    const early = await pay('key-killed-1', 300);
    expect(early.status).toBe(409);
    expect((await early.json()).code).toBe(70010);
    expect(await count()).toBe(before);

    s.clock.advance(IDEMPOTENCY_LEASE_MS);
    const retry = await pay('key-killed-1', 300);
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    const answer = await retry.json();
    expect(await count()).toBe(before + 1);
    expect(s.log.lines.some((e) => e.msg === 'idempotency key taken over')).toBe(true);

    // the taken-over key now answers like any other: replayed, not run again
    const again = await pay('key-killed-1', 300);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(answer);
    expect(await count()).toBe(before + 1);
    // and still refuses another body
    expect((await (await pay('key-killed-1', 301)).json()).code).toBe(70007);
  });

  it('two retries racing for a dead key: one takes it over and runs, the other is refused (70010)', async () => {
    await leftByDeadProcess('key-killed-2', 400, 'leased');
    s.clock.advance(IDEMPOTENCY_LEASE_MS + 1);
    const before = await count();
    const answers = await Promise.all([pay('key-killed-2', 400), pay('key-killed-2', 400)]);
    const statuses = answers.map((a) => a.status).sort();
    // the loser either saw the lease just taken (70010) or, on a single connection, the finished answer
    expect(statuses[0]).toBe(200);
    expect([200, 409]).toContain(statuses[1]);
    expect(await count()).toBe(before + 1);
  });

  it('a key left in progress before leases existed is taken over once a lease time has passed since it began', async () => {
    await leftByDeadProcess('key-killed-3', 500, 'before leases');
    const before = await count();
    expect((await pay('key-killed-3', 500)).status).toBe(409);
    s.clock.advance(IDEMPOTENCY_LEASE_MS);
    expect((await pay('key-killed-3', 500)).status).toBe(200);
    expect(await count()).toBe(before + 1);
  });

  it('a live owner extends its lease: a slow request keeps its key past the first lease, and its answer is kept', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      let open!: () => void;
      gate = new Promise((r) => (open = r));
      const before = await count();
      const slow = pay('key-slow-1', 600);
      await vi.waitUntil(
        async () => (await s.deps.db.select().from(idempotencyKeys).where(sql`${idempotencyKeys.key} = 'key-slow-1'`)).length === 1,
      );
      // most of a lease later the owner's heartbeat pushes the lease on
      s.clock.advance(IDEMPOTENCY_LEASE_MS - 1000);
      await vi.advanceTimersByTimeAsync(IDEMPOTENCY_LEASE_MS / 3);
      await vi.waitUntil(async () => {
        const [row] = await s.deps.db.select().from(idempotencyKeys).where(sql`${idempotencyKeys.key} = 'key-slow-1'`);
        return row!.leaseUntil!.getTime() > s.clock.now().getTime() + 1000;
      });
      // past the first lease: still the owner's
      s.clock.advance(2000);
      expect((await (await pay('key-slow-1', 600)).json()).code).toBe(70010);
      open();
      expect((await slow).status).toBe(200);
      expect(await count()).toBe(before + 1);
      expect((await pay('key-slow-1', 600)).headers.get('idempotent-replayed')).toBe('true');
    } finally {
      gate = undefined;
      vi.useRealTimers();
    }
  });

  it('a finished answer leaves no owner or lease behind', async () => {
    await pay('key-ffffffff', 100);
    const rows = await s.deps.db.select().from(idempotencyKeys).where(sql`${idempotencyKeys.key} = 'key-ffffffff'`);
    expect(rows[0]).toMatchObject({ status: 200, owner: null, leaseUntil: null });
  });
});
