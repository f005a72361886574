import { describe, expect, it } from 'vitest';
import { startTestServer } from './support/harness';

describe('request ids (hono/request-id, in every log line of the request)', async () => {
  const s = await startTestServer();

  it('answers X-Request-Id and logs the request and what it did under that id', async () => {
    const r = await s.call('GET', '/api/oauth/valid-code?phone=13500000001');
    const id = r.headers.get('x-request-id');
    expect(id).toBeTruthy();
    const mine = s.log.lines.filter((l) => l.reqId === id);
    expect(mine.map((l) => l.msg)).toEqual(['sms code (local adapter)', 'request']);
    expect(mine[1]!.fields).toMatchObject({ method: 'GET', path: '/api/oauth/valid-code', status: 200 });
  });

  it('gives each request its own id, and keeps a proxy’s', async () => {
    const a = (await s.call('GET', '/api/oauth/valid-code?phone=13500000002')).headers.get('x-request-id');
    const b = (await s.call('GET', '/api/oauth/valid-code?phone=13500000003')).headers.get('x-request-id');
    expect(a).not.toBe(b);
    const kept = await s.call('GET', '/api/oauth/valid-code?phone=13500000004', { headers: { 'x-request-id': 'edge-42' } });
    expect(kept.headers.get('x-request-id')).toBe('edge-42');
    expect(s.log.lines.filter((l) => l.reqId === 'edge-42').map((l) => l.msg)).toEqual(['sms code (local adapter)', 'request']);
  });
});
