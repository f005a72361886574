import { asc } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { pageViews } from '../../../src/server/db/schema/index';
import { PAGE_VIEWS_PER_MINUTE } from '../../../src/server/routes/platform-stats';
import { startTestServer } from '../support/harness';
import { level1, tokenFor } from './support';

describe('page views (POST /api/stats/pageview)', async () => {
  const s = await startTestServer({ seed: true });
  const rows = () => s.deps.db.select().from(pageViews).orderBy(asc(pageViews.id));

  it('stores a visitor view with the visitor id and no account', async () => {
    const r = await s.call('POST', '/api/stats/pageview', { body: { path: '/club', visitorId: '0123456789abcdef0123456789abcdef' } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ code: 200, status: true, data: { id: expect.any(Number) } });
    const [row] = (await rows()).filter((v) => v.id === r.body.data.id);
    expect(row).toMatchObject({ path: '/club', accountId: null, visitorId: '0123456789abcdef0123456789abcdef' });
    expect(row!.at.toISOString()).toBe(s.clock.now().toISOString());
  });

  it('stores a member view with the account when the token is valid', async () => {
    const token = await tokenFor(s, level1.phone);
    const r = await s.call('POST', '/api/stats/pageview', {
      token,
      body: { path: '/mine', visitorId: 'abcdefabcdefabcdefabcdefabcdefab' },
    });
    expect(r.status).toBe(200);
    const [row] = (await rows()).filter((v) => v.id === r.body.data.id);
    expect(row).toMatchObject({ path: '/mine', accountId: 1, visitorId: null });
  });

  it('counts a bad token as a visitor (public call)', async () => {
    const r = await s.call('POST', '/api/stats/pageview', { token: 'nope', body: { path: '/' } });
    expect(r.status).toBe(200);
    const [row] = (await rows()).filter((v) => v.id === r.body.data.id);
    expect(row).toMatchObject({ accountId: null, visitorId: null });
  });

  it.each([
    [{}, 'path'],
    [{ path: '' }, 'path'],
    [{ path: 'club' }, 'path'],
    [{ path: `/${'a'.repeat(600)}` }, 'path'],
    [{ path: 42 }, 'path'],
    [{ path: '/', visitorId: 'short' }, 'visitorId'],
    [{ path: '/', visitorId: 'x'.repeat(65) }, 'visitorId'],
    [{ path: '/', visitorId: '<script>alert(1)</script>' }, 'visitorId'],
  ])('refuses %j with 400 naming %s and stores nothing', async (body, field) => {
    const before = (await rows()).length;
    const r = await s.call('POST', '/api/stats/pageview', { body });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 70003, status: false, field });
    expect((await rows()).length).toBe(before);
  });

  it(`bounds one visitor to ${PAGE_VIEWS_PER_MINUTE} views a minute (429), then lets them in again`, async () => {
    const visitorId = 'flood0flood0flood0flood0flood000';
    const t0 = s.clock.now();
    await s.deps.db.insert(pageViews).values(Array.from({ length: PAGE_VIEWS_PER_MINUTE }, () => ({ path: '/', visitorId, at: t0 })));
    const r = await s.call('POST', '/api/stats/pageview', { body: { path: '/', visitorId } });
    expect(r.status).toBe(429);
    expect(r.body).toMatchObject({ code: 70021, status: false });
    s.clock.advance(61_000);
    try {
      expect((await s.call('POST', '/api/stats/pageview', { body: { path: '/', visitorId } })).status).toBe(200);
    } finally {
      s.clock.set(t0);
    }
  });

  it('refuses a body over the size limit with 413', async () => {
    const r = await s.call('POST', '/api/stats/pageview', { raw: JSON.stringify({ path: `/${'a'.repeat(2 * 1024 * 1024)}` }) });
    expect(r.status).toBe(413);
  });
});
