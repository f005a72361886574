import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../support/harness';

/** One request over a real socket: chunked when `chunked`, else with its Content-Length. */
function post(port: number, path: string, body: string, chunked: boolean): Promise<{ status: number; body: { code: number } }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(chunked ? {} : { 'content-length': String(Buffer.byteLength(body)) }) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) as { code: number } }));
      },
    );
    req.on('error', reject);
    if (chunked) {
      // two chunks: node sends Transfer-Encoding: chunked, no Content-Length
      req.write(body.slice(0, 10));
      req.end(body.slice(10));
    } else req.end(body);
  });
}

/**
 * The body limit as the running server meets it (node's HTTP, not app.request): a body with a
 * Content-Length is judged by the header, a chunked one by its bytes as they come.
 */
describe('the body limit over a real socket', async () => {
  const s = await startTestServer();
  const server = createAdaptorServer({ fetch: s.app.fetch });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const login = (pad: number) =>
    JSON.stringify({ username: '13100000009', password: 'secret-1', loginType: 'password', pad: 'x'.repeat(pad) });
  const limit = s.deps.config.bodyLimitBytes;

  for (const chunked of [false, true]) {
    const how = chunked ? 'chunked' : 'with its Content-Length';
    it(`a body over the limit, ${how}, is 413 (70005)`, async () => {
      const r = await post(port, '/api/oauth/login', login(limit), chunked);
      expect(r.status).toBe(413);
      expect(r.body.code).toBe(70005);
    });

    it(`a body within the limit, ${how}, reaches the route (its own answer, not 413)`, async () => {
      const body = login(0);
      const r = await post(port, '/api/oauth/login', body + ' '.repeat(limit - Buffer.byteLength(body)), chunked);
      expect(r.status).not.toBe(413);
      expect(r.body.code).not.toBe(70005);
    });
  }
});
