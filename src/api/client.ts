import { ofetch, FetchError } from 'ofetch';
import type { CaptchaAnswer, CaptchaNeeded } from '../contracts/auth';
import { CAPTCHA_REQUIRED, PASSWORD_CHANGE_REQUIRED, REQUEST_IN_PROGRESS, type Envelope } from '../domain/envelope';
import { REQUEST_TIMEOUT_MS } from '../domain/limits';

/** Thrown when the server could not be reached or answered something that is not the envelope. */
export class NetworkError extends Error {
  constructor(readonly detail?: unknown) {
    super('network');
  }
}

export interface ApiClientOptions {
  /** '/api' in the browser; the server's own origin + '/api' during server rendering */
  baseURL: string;
  /** in-process fetch during server rendering */
  fetch?: typeof globalThis.fetch;
  getToken(): string | undefined;
  /** extra headers for every request (the server renderer forwards the language cookie) */
  headers?: () => Record<string, string>;
  /** spec §7: a 401 in the body or an HTTP 401 means the login expired */
  onExpired?(how: 'body' | 'http'): void;
  /** decision 054: this session must set a new password before anything else (10016) */
  onPasswordChangeRequired?(): void;
  /**
   * decision 056: the server asks for the security check first (10020). Opens the widget; its answer
   * (null: the member closed it) is sent with the same request again, once.
   */
  onCaptcha?(need: CaptchaNeeded): Promise<CaptchaAnswer | null>;
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** money and capacity POSTs send one (DESIGN.md §4); a retry reuses it */
  idempotencyKey?: string;
  /** a token other than the session's (the reset ticket) */
  token?: string;
  signal?: AbortSignal;
}

/**
 * How long a request with an Idempotency-Key waits, each time the server answers that its first try
 * is still being decided (70010), before asking again (7.75 s in all): a retry after a time-out, or an
 * actor restarted while its request was out, then gets the first try's own answer, not a refusal.
 */
export const IN_PROGRESS_WAITS_MS = [250, 500, 1000, 2000, 4000] as const;

const wait = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });

/**
 * The one HTTP client (ofetch): 10 s time-out, Authorization-token, the envelope returned as it is
 * (refusals are envelopes too, so machines branch on `code`), network failures thrown as NetworkError.
 * A keyed request answered "the same request is in progress" asks again after a wait (above).
 */
export function createApiClient(opts: ApiClientOptions) {
  // the fetch is one of ofetch's global options (its second argument): among the defaults it is ignored
  const raw = ofetch.create(
    { baseURL: opts.baseURL, timeout: REQUEST_TIMEOUT_MS, retry: 0, ignoreResponseError: true },
    opts.fetch ? { fetch: opts.fetch } : {},
  );

  async function request<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, o: RequestOptions = {}): Promise<Envelope<T>> {
    const first = await requestKept<T>(method, path, o);
    if (first.code !== CAPTCHA_REQUIRED || !opts.onCaptcha) return first;
    const answer = await opts.onCaptcha(first.data as CaptchaNeeded);
    if (!answer) return first;
    // a GET carries the answer in its query (GET /oauth/valid-code), a body in its `captcha` (POST /oauth/login)
    const again: RequestOptions =
      method === 'GET'
        ? { ...o, query: { ...o.query, ticket: answer.ticket, randstr: answer.randstr } }
        : { ...o, body: { ...(o.body as Record<string, unknown>), captcha: answer } };
    return requestKept<T>(method, path, again);
  }

  async function requestKept<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, o: RequestOptions): Promise<Envelope<T>> {
    for (let tries = 0; ; tries++) {
      const envelope = await requestOnce<T>(method, path, o);
      if (!o.idempotencyKey || envelope.code !== REQUEST_IN_PROGRESS || tries >= IN_PROGRESS_WAITS_MS.length) return envelope;
      await wait(IN_PROGRESS_WAITS_MS[tries]!, o.signal);
      // an abort ends the wait early, and the request as an aborted request ends
      if (o.signal?.aborted) throw new NetworkError(o.signal.reason);
    }
  }

  async function requestOnce<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, o: RequestOptions): Promise<Envelope<T>> {
    const headers: Record<string, string> = { ...opts.headers?.() };
    const token = o.token ?? opts.getToken();
    if (token) headers['Authorization-token'] = token;
    if (o.idempotencyKey) headers['Idempotency-Key'] = o.idempotencyKey;
    let status = 0;
    let body: unknown;
    try {
      body = await raw(path, {
        method,
        query: o.query,
        body: o.body as Record<string, unknown> | undefined,
        headers,
        signal: o.signal,
        onResponse({ response }) {
          status = response.status;
        },
      });
    } catch (err) {
      if (err instanceof FetchError || err instanceof TypeError || (err instanceof Error && err.name === 'AbortError'))
        throw new NetworkError(err);
      throw err;
    }
    if (!body || typeof body !== 'object' || !('code' in body)) throw new NetworkError(body);
    const envelope = body as Envelope<T>;
    if (status === 401) opts.onExpired?.('http');
    else if (envelope.code === 401) opts.onExpired?.('body');
    else if (envelope.code === PASSWORD_CHANGE_REQUIRED) opts.onPasswordChangeRequired?.();
    return envelope;
  }

  return {
    get: <T>(path: string, o?: RequestOptions) => request<T>('GET', path, o),
    post: <T>(path: string, o?: RequestOptions) => request<T>('POST', path, o),
    put: <T>(path: string, o?: RequestOptions) => request<T>('PUT', path, o),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
