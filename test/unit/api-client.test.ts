import { describe, expect, it } from 'vitest';
import { createApiClient, NetworkError } from '../../src/api/client';

describe('the one HTTP client', () => {
  it('sends through the fetch it is given (the server renderer answers in-process, not over the network)', async () => {
    const seen: string[] = [];
    const client = createApiClient({
      baseURL: 'http://in-process.invalid/api',
      fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
        const req = new Request(input, init);
        seen.push(`${req.method} ${req.url} ${req.headers.get('authorization-token')}`);
        return Response.json({ code: 200, msg: 'ok', data: { n: 1 } });
      }) as typeof fetch,
      getToken: () => 'tok-1',
    });
    await expect(client.get('/things', { query: { page: 2 } })).resolves.toMatchObject({ code: 200, data: { n: 1 } });
    expect(seen).toEqual(['GET http://in-process.invalid/api/things?page=2 tok-1']);
  });

  it('turns a failing fetch into NetworkError', async () => {
    const client = createApiClient({
      baseURL: 'http://in-process.invalid/api',
      fetch: (async () => {
        throw new TypeError('fetch failed');
      }) as typeof fetch,
      getToken: () => undefined,
    });
    await expect(client.post('/things', { body: {} })).rejects.toBeInstanceOf(NetworkError);
  });
});
