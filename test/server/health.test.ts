import { describe, expect, it } from 'vitest';
import { startTestServer } from './support/harness';

describe('GET /api/health', async () => {
  const s = await startTestServer();

  it('answers the envelope with the database kind', async () => {
    const r = await s.call('GET', '/api/health');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ code: 200, status: true, data: { db: s.database.kind } });
  });

  it('answers an unknown API path 404 in the envelope', async () => {
    const r = await s.call('GET', '/api/nope');
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ code: 70004, status: false, data: null });
    expect(typeof r.body.message).toBe('string');
  });
});
