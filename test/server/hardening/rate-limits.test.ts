import { describe, expect, it } from 'vitest';
import { rateHits } from '../../../src/server/db/schema/index';
import { housekeeping } from '../../../src/server/jobs/housekeeping';
import { startTestServer } from '../support/harness';

/**
 * Rate limits on the open endpoints (decision 047): payment and refund notifications per
 * address, the friend-pay page and its pay tap per address and per invitation; over a limit: 429
 * 70021 in the envelope, and the request does nothing else. Counted in the database, so every server
 * process shares the count; windows are minutes on the injected clock.
 */
describe('rate limits on the open endpoints', async () => {
  const s = await startTestServer({ config: { rateLimits: { notifyPerMinute: 3, friendPerMinute: 4, friendPerInvitationPerMinute: 6 } } });
  const from = (ip: string) => ({ 'x-forwarded-for': ip });
  const invitation = (t: string, ip: string) => s.call('GET', `/api/friend/invitation?t=${t}`, { headers: from(ip) });
  const notify = (path: string, ip: string) =>
    s.app.request(`/api${path}`, {
      method: 'POST',
      headers: { ...from(ip), 'content-type': 'application/json' },
      body: '{"id":"not-signed"}',
    });

  it('the friend-pay page: the fifth read a minute from one address is 429 70021; another address is not held back; the next minute reads again', async () => {
    s.clock.advance(60_000);
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await invitation('no-such-invitation-1', '198.51.100.7'));
    expect(answers.map((r) => r.status)).toEqual([404, 404, 404, 404, 429]);
    expect(answers[4]!.body).toMatchObject({ code: 70021, status: false });
    expect((await invitation('no-such-invitation-1', '198.51.100.8')).status).toBe(404);
    s.clock.advance(60_000);
    expect((await invitation('no-such-invitation-1', '198.51.100.7')).status).toBe(404);
  });

  it('one invitation read from many addresses: the seventh a minute is 429, whichever address asks', async () => {
    s.clock.advance(60_000);
    const statuses = [];
    for (let i = 0; i < 7; i++) statuses.push((await invitation('no-such-invitation-2', `203.0.113.${i + 1}`)).status);
    expect(statuses).toEqual([404, 404, 404, 404, 404, 404, 429]);
    expect((await invitation('no-such-invitation-3', '203.0.113.1')).status).toBe(404);
  });

  it('the pay tap counts with the page, per address', async () => {
    s.clock.advance(60_000);
    for (let i = 0; i < 4; i++) expect((await invitation('no-such-invitation-4', '192.0.2.50')).status).toBe(404);
    const tap = await s.call('POST', '/api/friend/pay', { body: { t: 'no-such-invitation-4' }, headers: from('192.0.2.50') });
    expect([tap.status, tap.body.code]).toEqual([429, 70021]);
  });

  it('payment and refund notifications: the fourth a minute from one address is 429 70021 before its body is read; a provider address is not held back by another', async () => {
    s.clock.advance(60_000);
    const statuses = [];
    for (const path of ['/pay/notify/wechat', '/pay/notify/alipay', '/pay/refund-notify/wechat', '/pay/notify/wechat'])
      statuses.push((await notify(path, '198.51.100.99')).status);
    expect(statuses.slice(0, 3)).not.toContain(429);
    expect(statuses[3]).toBe(429);
    expect((await notify('/pay/notify/wechat', '198.51.100.100')).status).not.toBe(429);
  });

  it('housekeeping drops windows older than a day', async () => {
    const before = (await s.deps.db.select().from(rateHits)).length;
    expect(before).toBeGreaterThan(0);
    s.clock.advance(25 * 60 * 60_000);
    expect((await housekeeping(s.deps.db, s.clock, s.deps.config.retention)).rateHits).toBe(before);
    expect(await s.deps.db.select().from(rateHits)).toEqual([]);
  });
});
