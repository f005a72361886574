import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config';
import type { AppEnv, Deps } from '../../src/server/env';
import { clientIp } from '../../src/server/http/client-ip';

function appWith(trustProxy: boolean) {
  const app = new Hono<AppEnv>();
  app.use('*', async (c, next) => {
    c.set('deps', { config: { ...loadConfig({}), trustProxy } } as Deps);
    await next();
  });
  app.get('/ip', (c) => c.text(clientIp(c)));
  return app;
}

describe('client IP for per-network caps', () => {
  it('believes X-Forwarded-For only behind a trusted proxy', async () => {
    const trusted = await appWith(true).request('/ip', { headers: { 'x-forwarded-for': '203.0.113.9, 10.0.0.1' } });
    expect(await trusted.text()).toBe('203.0.113.9');
  });

  it('ignores a forged X-Forwarded-For otherwise', async () => {
    const direct = await appWith(false).request('/ip', { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(await direct.text()).not.toBe('203.0.113.9');
  });
});
