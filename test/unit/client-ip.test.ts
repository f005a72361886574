import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { loadConfig, type TrustProxy } from '../../src/server/config';
import type { AppEnv, Deps } from '../../src/server/env';
import { clientFrom, clientIp } from '../../src/server/http/client-ip';

function appWith(trustProxy: TrustProxy) {
  const app = new Hono<AppEnv>();
  app.use('*', async (c, next) => {
    c.set('deps', { config: { ...loadConfig({ APP_MODE: 'demo' }), trustProxy } } as Deps);
    await next();
  });
  app.get('/ip', (c) => c.text(clientIp(c)));
  return app;
}

describe('client address for per-network caps', () => {
  it('behind one trusted proxy that appends: the address it received from, not what the client wrote on the left', async () => {
    // the client forged "198.51.100.1"; the proxy appended the address it saw, 203.0.113.9
    const res = await appWith({ kind: 'hops', hops: 1 }).request('/ip', { headers: { 'x-forwarded-for': '198.51.100.1, 203.0.113.9' } });
    expect(await res.text()).toBe('203.0.113.9');
  });

  it('ignores a forged X-Forwarded-For without TRUST_PROXY', async () => {
    const direct = await appWith({ kind: 'none' }).request('/ip', { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(await direct.text()).not.toBe('203.0.113.9');
  });

  it('counts hops from the right: two proxies (CDN, then the balancer) take the third address from the right', () => {
    const forwarded = ['198.51.100.1', '203.0.113.9', '100.64.0.5'];
    expect(clientFrom('10.0.0.2', forwarded, { kind: 'hops', hops: 2 })).toBe('203.0.113.9');
    expect(clientFrom('10.0.0.2', forwarded, { kind: 'hops', hops: 1 })).toBe('100.64.0.5');
    // more hops trusted than there are addresses: the leftmost one, never past it
    expect(clientFrom('10.0.0.2', ['203.0.113.9'], { kind: 'hops', hops: 3 })).toBe('203.0.113.9');
    expect(clientFrom('203.0.113.9', [], { kind: 'hops', hops: 1 })).toBe('203.0.113.9');
  });

  it('with trusted ranges: the first address from the right outside them', () => {
    const trust: TrustProxy = { kind: 'ranges', ranges: ['10.0.0.0/8', '100.64.0.0/10'] };
    expect(clientFrom('10.0.0.2', ['198.51.100.1', '203.0.113.9', '100.64.0.5'], trust)).toBe('203.0.113.9');
    // a socket from outside the ranges is the client itself: its header is not believed
    expect(clientFrom('192.0.2.50', ['203.0.113.9'], trust)).toBe('192.0.2.50');
    // IPv4 mapped into IPv6, as node reports sockets
    expect(clientFrom('::ffff:10.1.2.3', ['203.0.113.9'], trust)).toBe('203.0.113.9');
    expect(clientFrom('10.0.0.2', ['10.0.0.3', '203.0.113.9:5100'].reverse(), trust)).toBe('203.0.113.9');
  });
});
