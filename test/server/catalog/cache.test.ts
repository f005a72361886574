import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { clubs, goods, notifications } from '../../../src/server/db/schema/index';
import { fixedClock } from '../../../src/domain/clock';
import type { AppEnv, Deps } from '../../../src/server/env';
import { CATALOG_TTL_MS, cachedOk, catalogChanged, etagMatches, PUBLIC } from '../../../src/server/http/catalog-cache';
import { enqueueJob } from '../../../src/server/jobs/queue';
import { runDueJobs } from '../../../src/server/jobs/runner';
import { newFlashSale } from '../flash-sale/support';
import { create, newGoods, newMember } from '../orders/support';
import { startTestServer } from '../support/harness';
import { EN, level1, level2, tokenFor } from './support';

const LIST = '/api/product/goods/goodList?kind=card&pagesize=50';

/** The public catalogue reads, served from the in-process cache (decision 043). */
describe('catalogue cache: ETag, Cache-Control, invalidation, members apart', async () => {
  const s = await startTestServer({ seed: true });
  const a = await tokenFor(s, level1.phone);
  const b = await tokenFor(s, level2.phone);
  const publicReads = [
    '/api/school/clubs',
    '/api/school/clubs/detail?id=1',
    '/api/school/teachers',
    '/api/school/teachers/detail?id=1',
    '/api/index/home/banner',
    '/api/activity/goods',
    '/api/index/home/dict/select?type=style',
    '/api/sys/notification',
    '/api/product/goods/goodList',
  ];

  it('the cached answer equals the uncached one, in each language, with the same ETag', async () => {
    for (const path of publicReads) {
      for (const headers of [{}, EN]) {
        catalogChanged(s.deps);
        const first = await s.call('GET', path, { headers });
        const cached = await s.call('GET', path, { headers });
        expect(first.status, path).toBe(200);
        expect(cached.body, path).toEqual(first.body);
        expect(cached.headers.get('etag'), path).toBe(first.headers.get('etag'));
        expect(first.headers.get('etag'), path).toMatch(/^W\/"[\w-]+"$/);
      }
    }
    // the languages are apart: an English read never gets the Chinese answer
    const zh = await s.call('GET', '/api/school/clubs');
    const en = await s.call('GET', '/api/school/clubs', { headers: EN });
    expect(en.body.data[0].name).not.toBe(zh.body.data[0].name);
    expect(en.headers.get('etag')).not.toBe(zh.headers.get('etag'));
  });

  it('answers 304 without a body on If-None-Match, and 200 again once the answer changed', async () => {
    const first = await s.call('GET', '/api/school/clubs');
    const etag = first.headers.get('etag')!;
    const again = await s.call('GET', '/api/school/clubs', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('cache-control')).toBe(first.headers.get('cache-control'));
    // answered from the store before the rest of the middleware, still with its request id
    expect(again.headers.get('x-request-id')).toMatch(/.+/);
    expect((await s.call('GET', '/api/school/clubs')).headers.get('x-request-id')).not.toBe(again.headers.get('x-request-id'));
    // a list of tags, and the strong form a proxy may send, match too
    expect((await s.call('GET', '/api/school/clubs', { headers: { 'if-none-match': `"x", ${etag.slice(2)}` } })).status).toBe(304);
    await s.deps.db.update(clubs).set({ name: '改名的会馆' }).where(eq(clubs.id, first.body.data[0].id));
    catalogChanged(s.deps);
    const changed = await s.call('GET', '/api/school/clubs', { headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.body.data[0].name).toBe('改名的会馆');
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  it("public answers say public (a CDN may keep them); member answers say private; a member's notices no-store", async () => {
    for (const path of publicReads) {
      const r = await s.call('GET', path);
      expect(r.headers.get('cache-control'), path).toMatch(/^public, /);
      expect(r.headers.get('vary'), path).toMatch(/Accept-Language/);
    }
    const visitorList = await s.call('GET', LIST);
    expect(visitorList.headers.get('vary')).toMatch(/authorization-token/i);
    const memberList = await s.call('GET', LIST, { token: a });
    expect(memberList.headers.get('cache-control')).toBe('private, no-cache');
    const notices = await s.call('GET', '/api/sys/notification', { token: a });
    expect(notices.headers.get('cache-control')).toBe('private, no-store');
    expect(notices.headers.get('etag')).toBeNull();
  });

  it("a member's price after caching: members see it, a visitor never, in any order", async () => {
    catalogChanged(s.deps);
    for (const order of [
      ['v', 'a', 'b'],
      ['a', 'v', 'b'],
      ['b', 'a', 'v'],
    ]) {
      for (const who of [...order, ...order]) {
        const r = await s.call('GET', LIST, who === 'v' ? {} : { token: who === 'a' ? a : b });
        for (const g of r.body.data.list) {
          if (who === 'v') expect(g, 'visitor').not.toHaveProperty('memberPriceCents');
          else expect(g.memberPriceCents, who).toEqual(expect.any(Number));
        }
      }
    }
    // a member's ETag is not the visitor's: a shared cache cannot answer one with the other
    const v = await s.call('GET', LIST);
    const m = await s.call('GET', LIST, { token: a });
    expect(m.headers.get('etag')).not.toBe(v.headers.get('etag'));
    expect((await s.call('GET', LIST, { headers: { 'if-none-match': m.headers.get('etag')! } })).status).toBe(200);
  });

  it("a member's own notice reaches only that member; another member and a visitor never see it", async () => {
    const [mine] = await s.deps.db
      .insert(notifications)
      .values({ accountId: 1, title: '只给会员一', body: '私人通知', createdAt: new Date(s.clock.now().getTime() - 1000) })
      .returning();
    catalogChanged(s.deps);
    for (const who of ['v', 'b', 'a', 'v', 'a', 'b']) {
      const r = await s.call('GET', '/api/sys/notification', who === 'v' ? {} : { token: who === 'a' ? a : b });
      const ids = (r.body.data as { id: number }[]).map((n) => n.id);
      expect(ids.includes(mine!.id), who).toBe(who === 'a');
    }
  });

  it('a write through the API shows on the next read (an order takes stock)', async () => {
    const m = await newMember(s);
    const g = await newGoods(s, { stock: 5 });
    const before = (await s.call('GET', LIST)).body.data.list.find((x: { id: number }) => x.id === g.id);
    expect(before).toMatchObject({ stock: 5, sellNumber: 0 });
    expect((await s.call('GET', LIST)).body.data.list.find((x: { id: number }) => x.id === g.id)).toEqual(before);
    const o = await create(s, m.token, { goodsId: g.id });
    expect(o.status).toBe(200);
    const after = (await s.call('GET', LIST)).body.data.list.find((x: { id: number }) => x.id === g.id);
    expect(after).toMatchObject({ stock: 4, sellNumber: 1 });
  });

  it('a job run (an order expiring gives stock back) clears the cache too', async () => {
    const first = await s.call('GET', '/api/school/clubs');
    await s.deps.db.update(clubs).set({ name: '作业改名' }).where(eq(clubs.id, first.body.data[0].id));
    expect((await s.call('GET', '/api/school/clubs')).body.data[0].name).toBe(first.body.data[0].name);
    await enqueueJob(s.deps.db, { kind: 'cache-test', runAt: s.clock.now() });
    expect(await runDueJobs(s.deps, { 'cache-test': async () => {} })).toBe(1);
    expect((await s.call('GET', '/api/school/clubs')).body.data[0].name).toBe('作业改名');
  });

  it('a write by another process (straight to the database) shows within CATALOG_TTL_MS', async () => {
    const first = await s.call('GET', '/api/school/clubs');
    const id = first.body.data[0].id;
    await s.deps.db.update(clubs).set({ name: '另一进程改名' }).where(eq(clubs.id, id));
    expect((await s.call('GET', '/api/school/clubs')).body.data[0].name).not.toBe('另一进程改名');
    await new Promise((r) => setTimeout(r, CATALOG_TTL_MS + 50));
    expect((await s.call('GET', '/api/school/clubs')).body.data[0].name).toBe('另一进程改名');
  });

  it('an answer that changes with time alone is never served late: a flash sale opening, the clock moving', async () => {
    // each step moves the clock less than CATALOG_TTL_MS: only the answer's own next change expires it
    const { goods: g, sale } = await newFlashSale(s, {
      startsAt: new Date(s.clock.now().getTime() + 1000),
      endsAt: new Date(s.clock.now().getTime() + 1500),
    });
    catalogChanged(s.deps);
    const upcoming = (await s.call('GET', LIST)).body.data.list.find((x: { id: number }) => x.id === g.id);
    expect(upcoming.isUable).toBe(false);
    s.clock.set(sale.startsAt);
    const live = (await s.call('GET', LIST)).body.data.list.find((x: { id: number }) => x.id === g.id);
    expect(live.isUable).toBe(true);
    s.clock.set(sale.endsAt);
    expect((await s.call('GET', LIST)).body.data.list.find((x: { id: number }) => x.id === g.id).isUable).toBe(false);
    // a notice dated ahead appears when its time comes
    const at = new Date(s.clock.now().getTime() + 1000);
    const [later] = await s.deps.db.insert(notifications).values({ title: '稍后的通知', body: '到点出现', createdAt: at }).returning();
    catalogChanged(s.deps);
    const ids = async () => ((await s.call('GET', '/api/sys/notification')).body.data as { id: number }[]).map((n) => n.id);
    expect(await ids()).not.toContain(later!.id);
    s.clock.set(at);
    expect(await ids()).toContain(later!.id);
    // the goods row itself changing by a direct write is seen after the clock moves a TTL
    await s.deps.db.update(goods).set({ name: '时钟改名' }).where(eq(goods.id, g.id));
    s.clock.advance(CATALOG_TTL_MS);
    expect((await s.call('GET', LIST)).body.data.list.find((x: { id: number }) => x.id === g.id).name).toBe('时钟改名');
  });

  it('a gzip-accepting phone gets the stored gzip, and the body is the same', async () => {
    const plain = await s.call('GET', LIST);
    const res = await s.app.request(LIST, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    const { gunzipSync } = await import('node:zlib');
    expect(JSON.parse(gunzipSync(Buffer.from(await res.arrayBuffer())).toString())).toEqual(plain.body);
    const refused = await s.app.request(LIST, { headers: { 'accept-encoding': 'gzip;q=0' } });
    expect(refused.headers.get('content-encoding')).toBeNull();
  });

  it('matches If-None-Match by weak comparison', () => {
    expect(etagMatches('W/"a"', 'W/"a"')).toBe(true);
    expect(etagMatches('"a"', 'W/"a"')).toBe(true);
    expect(etagMatches('*', 'W/"a"')).toBe(true);
    expect(etagMatches('W/"b", W/"a"', 'W/"a"')).toBe(true);
    expect(etagMatches('W/"b"', 'W/"a"')).toBe(false);
    expect(etagMatches(undefined, 'W/"a"')).toBe(false);
  });
});

describe('catalogue cache: a read in flight across a write', () => {
  it('is answered but not kept, so the next read is built again', async () => {
    const deps = { db: {}, clock: fixedClock('2026-01-05T02:00:00Z') } as unknown as Deps;
    const app = new Hono<AppEnv>();
    app.use('*', async (c, next) => {
      c.set('deps', deps);
      c.set('locale', 'zh');
      await next();
    });
    let built = 0;
    let release: () => void = () => {};
    let gate: Promise<void> = Promise.resolve();
    app.get('/x', (c) =>
      cachedOk(c, { audience: PUBLIC }, async () => {
        built += 1;
        const n = built;
        await gate;
        return { data: n };
      }),
    );
    gate = new Promise((r) => (release = r));
    const inFlight = app.request('/x');
    await Promise.resolve();
    catalogChanged(deps); // a write ends while the read is being built
    release();
    expect((await (await inFlight).json()).data).toBe(1);
    gate = Promise.resolve();
    expect((await (await app.request('/x')).json()).data).toBe(2);
    expect((await (await app.request('/x')).json()).data).toBe(2);
  });
});
