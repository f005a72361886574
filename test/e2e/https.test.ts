import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginInPage } from './support/booking';
import { MEMBER } from './support/checkout';
import { gotoHydrated, startOwnServer, useBrowser } from './support/browser';
import type { RunningServer } from './support/server';
import { selfSignedCertificate, type TestCertificate } from './support/tls';

/**
 * Decision 052: given TLS_CERT_FILE and TLS_KEY_FILE the server itself serves HTTPS, HTTP/2 to a
 * browser that offers it, so a page and everything it loads share one connection (HTTP/1.1 allows
 * six, each with its own handshakes on a slow network). The member's whole visit works over it:
 * the first screen, its pictures and scripts, and a log-in whose cookies are Secure.
 */
describe('HTTPS with HTTP/2 (TLS_CERT_FILE, TLS_KEY_FILE)', () => {
  const browser = useBrowser();
  let server: RunningServer;
  let cert: TestCertificate | null = null;
  beforeAll(async () => {
    cert = selfSignedCertificate();
    if (!cert) throw new Error('this test makes its certificate with the openssl command: install openssl');
    server = await startOwnServer({ tls: cert, env: { LOG: '0' } });
  });
  afterAll(async () => {
    await server?.stop();
    cert?.remove();
  });

  it('serves the cards page and all it loads over one HTTP/2 connection, and a member logs in with Secure cookies', async () => {
    expect(server.url.startsWith('https://')).toBe(true);
    const { page, context } = await browser.newPage({ baseURL: server.url, ignoreHTTPSErrors: true });
    await gotoHydrated(page, `${server.url}/vipcard`);
    const protocols = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      const loaded = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      return { page: nav.nextHopProtocol, loaded: [...new Set(loaded.map((r) => r.nextHopProtocol))], count: loaded.length };
    });
    expect(protocols.page).toBe('h2');
    expect(protocols.count, 'pictures, scripts and the catalog were loaded').toBeGreaterThan(3);
    expect(protocols.loaded).toEqual(['h2']);

    await loginInPage(page, server.url, MEMBER.phone, MEMBER.password, '/mine');
    const cookies = await context.cookies(server.url);
    const session = cookies.filter((c) => c.httpOnly);
    expect(session.length, 'the session cookies').toBeGreaterThan(0);
    expect(
      session.every((c) => c.secure),
      'every session cookie is Secure',
    ).toBe(true);
    await expect.poll(() => page.locator('#root').innerText()).toContain(MEMBER.phone.slice(-4));
  });
});
