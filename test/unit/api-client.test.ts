import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApiClient, IN_PROGRESS_WAITS_MS, NetworkError } from '../../src/api/client';

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

  it('a session that must first set a new password (10016, decision 054) is told to the app, other refusals are not', async () => {
    const told: string[] = [];
    const answers = [
      { code: 10016, status: false, data: null },
      { code: 10002, status: false, data: null },
    ];
    const client = createApiClient({
      baseURL: 'http://in-process.invalid/api',
      fetch: (async () => Response.json(answers.shift(), { status: 403 })) as typeof fetch,
      getToken: () => 'tok-1',
      onPasswordChangeRequired: () => told.push('change'),
      onExpired: (how) => told.push(`expired ${how}`),
    });
    await expect(client.get('/orders/mine')).resolves.toMatchObject({ code: 10016 });
    await client.get('/orders/mine');
    expect(told).toEqual(['change']);
  });

  it('asked for the security check (10020), opens the widget and sends the same request again with its answer, once', async () => {
    const seen: string[] = [];
    const needs: unknown[] = [];
    const answers = [
      { code: 10020, status: false, data: { captchaAppId: 190000001, widget: 'stand-in' } },
      { code: 200, status: true, data: null },
      { code: 10020, status: false, data: { captchaAppId: 190000001, widget: 'stand-in' } },
      { code: 10020, status: false, data: { captchaAppId: 190000001, widget: 'stand-in' } },
      { code: 10020, status: false, data: { captchaAppId: 190000001, widget: 'stand-in' } },
    ];
    let solve: { ticket: string; randstr: string } | null = { ticket: 't1', randstr: '@r1' };
    const client = createApiClient({
      baseURL: 'http://in-process.invalid/api',
      fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
        const req = new Request(input, init);
        seen.push(`${req.method} ${req.url}${req.method === 'POST' ? ` ${await req.text()}` : ''}`);
        return Response.json(answers.shift(), { status: 429 });
      }) as typeof fetch,
      getToken: () => undefined,
      onCaptcha: async (need) => (needs.push(need), solve),
    });
    await expect(client.post('/oauth/login', { body: { username: '13500000001', password: 'pw' } })).resolves.toMatchObject({ code: 200 });
    // the GET's answer goes in its query; a second 10020 is handed back, not asked again
    await expect(client.get('/oauth/valid-code', { query: { phone: '13500000001' } })).resolves.toMatchObject({ code: 10020 });
    // the member closed the widget: the refusal is the answer, nothing sent again
    solve = null;
    await expect(client.get('/oauth/valid-code', { query: { phone: '13500000002' } })).resolves.toMatchObject({ code: 10020 });
    expect(seen).toEqual([
      'POST http://in-process.invalid/api/oauth/login {"username":"13500000001","password":"pw"}',
      'POST http://in-process.invalid/api/oauth/login {"username":"13500000001","password":"pw","captcha":{"ticket":"t1","randstr":"@r1"}}',
      'GET http://in-process.invalid/api/oauth/valid-code?phone=13500000001',
      'GET http://in-process.invalid/api/oauth/valid-code?phone=13500000001&ticket=t1&randstr=@r1',
      'GET http://in-process.invalid/api/oauth/valid-code?phone=13500000002',
    ]);
    expect(needs).toEqual([
      { captchaAppId: 190000001, widget: 'stand-in' },
      { captchaAppId: 190000001, widget: 'stand-in' },
      { captchaAppId: 190000001, widget: 'stand-in' },
    ]);
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

  describe('a keyed request the server says is still in progress (70010)', () => {
    afterEach(() => void vi.useRealTimers());
    const inProgress = { code: 70010, status: false, data: null, message: 'in progress' };
    /** a server answering `answers` in turn, and what it was sent (method, key) */
    function server(answers: unknown[]) {
      const seen: string[] = [];
      const client = createApiClient({
        baseURL: 'http://in-process.invalid/api',
        fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
          const req = new Request(input, init);
          seen.push(`${req.method} ${req.headers.get('idempotency-key') ?? '-'}`);
          const body = answers[Math.min(seen.length, answers.length) - 1] as { code: number };
          return Response.json(body, { status: body.code === 70010 ? 409 : 200 });
        }) as typeof fetch,
        getToken: () => undefined,
      });
      return { client, seen };
    }

    it("asks again with the same key after a wait, and answers the first try's own answer", async () => {
      vi.useFakeTimers();
      const { client, seen } = server([inProgress, inProgress, { code: 200, status: true, data: { id: 7 } }]);
      const answer = client.post('/orders/friend/invite', { body: {}, idempotencyKey: 'k-1' });
      await vi.advanceTimersByTimeAsync(IN_PROGRESS_WAITS_MS[0] - 1);
      expect(seen).toEqual(['POST k-1']);
      await vi.advanceTimersByTimeAsync(1 + IN_PROGRESS_WAITS_MS[1]);
      await expect(answer).resolves.toMatchObject({ code: 200, data: { id: 7 } });
      expect(seen).toEqual(['POST k-1', 'POST k-1', 'POST k-1']);
    });

    it('gives up after its waits (the refusal is then the answer), and never waits without a key', async () => {
      vi.useFakeTimers();
      const keyed = server([inProgress]);
      const answer = keyed.client.post('/x', { body: {}, idempotencyKey: 'k-2' });
      await vi.advanceTimersByTimeAsync(IN_PROGRESS_WAITS_MS.reduce((a, b) => a + b, 0));
      await expect(answer).resolves.toMatchObject({ code: 70010 });
      expect(keyed.seen).toHaveLength(IN_PROGRESS_WAITS_MS.length + 1);
      const plain = server([inProgress]);
      await expect(plain.client.post('/x', { body: {} })).resolves.toMatchObject({ code: 70010 });
      expect(plain.seen).toEqual(['POST -']);
    });

    it('an abort during the wait ends it: NetworkError, no further try', async () => {
      vi.useFakeTimers();
      const { client, seen } = server([inProgress, { code: 200, status: true, data: null }]);
      const stop = new AbortController();
      const answer = client.post('/x', { body: {}, idempotencyKey: 'k-3', signal: stop.signal });
      const settled = expect(answer).rejects.toBeInstanceOf(NetworkError);
      await vi.advanceTimersByTimeAsync(10);
      stop.abort();
      await settled;
      expect(seen).toEqual(['POST k-3']);
    });
  });
});
