import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { perDatabase } from '../db/per-database';
import type { AppEnv, Deps } from '../env';
import { pickLocale, type Locale } from '../i18n';
import { TOKEN_HEADER } from './auth';
import type { ok } from './router';

/**
 * The public catalogue's answers (clubs, teachers, goods lists, the Homepage's data), kept in this
 * process as the serialised envelope, its gzip and its ETag (decision 043). An entry is dropped
 *  - by any write: every non-GET API request and every job run clears the store when it ends
 *    (`catalogChanged`), and a read that began before the clear never stores its answer;
 *  - after CATALOG_TTL_MS of real time, the bound on how late another server process on the same
 *    PostgreSQL shows a write made in this one;
 *  - when the injected clock moves CATALOG_TTL_MS either way, or passes the answer's own next
 *    change in time (a flash sale opening, an activity ending), so the cached answer always equals
 *    the uncached one.
 */
export const CATALOG_TTL_MS = 2_000;
/** Entries per database at most (the oldest goes first): keys come from query strings a caller writes. */
const MAX_ENTRIES = 2_000;
/** Below this a gzip costs more than it saves (hono/compress's threshold). */
const GZIP_MIN_BYTES = 1024;

interface Entry {
  body: Buffer;
  gzip?: Buffer;
  etag: string;
  cacheControl: string;
  vary: string;
  storedAt: number;
  clockAt: number;
  /** the injected clock's time at which the answer changes by itself (Infinity: never) */
  until: number;
}

interface Store {
  generation: number;
  entries: Map<string, Entry>;
}

/** One store per database (tests run several servers in one process). */
const storeOf = perDatabase((): Store => ({ generation: 0, entries: new Map() }));

/** Something in the catalogue may have changed: forget every cached answer of this database. */
export function catalogChanged(deps: Pick<Deps, 'db'>): void {
  const s = storeOf(deps.db);
  s.generation += 1;
  s.entries.clear();
}

/**
 * Who an answer is for. `public`: the same for everyone of a locale; a CDN and a phone may keep it.
 * `member`: it depends on the member (a member's price); kept here under the member's own key,
 * and marked private for HTTP caches.
 */
export type Audience = { kind: 'public' } | { kind: 'member'; accountId: number };

/** The audience of an answer that is the same for everyone. */
export const PUBLIC: Audience = { kind: 'public' };

export interface CachedAnswer<T> {
  data: T;
  /** when the answer changes by the clock alone, if it does */
  until?: Date;
}

const PUBLIC_CACHE_CONTROL = `public, max-age=0, s-maxage=${CATALOG_TTL_MS / 1000}`;
/** For an answer that never changes under its address (hashed assets, the catalog file, media): kept for good. */
export const FOREVER_CACHE_CONTROL = 'public, max-age=31536000, immutable';
const MEMBER_CACHE_CONTROL = 'private, no-cache';

export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  for (const part of header.split(',')) {
    const [name, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (name !== 'gzip' && name !== '*') continue;
    const q = params.find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  }
  return false;
}

/** If-None-Match against our (weak) ETag: weak comparison, `*` matches. */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag.replace(/^W\//, '') === bare;
  });
}

function keyOf(locale: Locale, audience: Audience, url: string): string {
  // the path and query as sent (the host is the same for everyone)
  return `${locale} ${audience.kind === 'member' ? `m${audience.accountId}` : 'p'} ${url.slice(url.indexOf('/', url.indexOf('//') + 2))}`;
}

/** The entry under this key if it may still be served (else it is dropped). */
function freshEntry(store: Store, key: string, clockNow: number, realNow: number): Entry | undefined {
  const entry = store.entries.get(key);
  if (!entry) return undefined;
  if (realNow - entry.storedAt < CATALOG_TTL_MS && Math.abs(clockNow - entry.clockAt) < CATALOG_TTL_MS && clockNow < entry.until)
    return entry;
  store.entries.delete(key);
  return undefined;
}

/** The stored answer: 304 on a matching If-None-Match, else the body (its gzip when the caller takes it). */
function send(c: Context, entry: Entry): Response {
  const headers: Record<string, string> = { ETag: entry.etag, 'Cache-Control': entry.cacheControl, Vary: entry.vary };
  if (etagMatches(c.req.header('if-none-match'), entry.etag)) return c.body(null, 304, headers);
  headers['Content-Type'] = 'application/json';
  if (entry.body.length >= GZIP_MIN_BYTES && acceptsGzip(c.req.header('accept-encoding'))) {
    entry.gzip ??= gzipSync(entry.body);
    headers['Content-Encoding'] = 'gzip';
    headers['Content-Length'] = String(entry.gzip.length);
    return c.body(entry.gzip as Uint8Array<ArrayBuffer>, 200, headers);
  }
  // the length tells hono/compress the body is below its threshold (it would gzip it again per request)
  headers['Content-Length'] = String(entry.body.length);
  return c.body(entry.body as Uint8Array<ArrayBuffer>, 200, headers);
}

/**
 * Answers a catalogue read from the store, or builds it once and stores it. The response is the
 * envelope `ok()` sends, with an ETag (304 on If-None-Match), Cache-Control by audience and Vary on
 * what the answer depends on. `personal`: the route shows more with a token, so HTTP caches key by it.
 */
export async function cachedOk<T>(
  c: Context<AppEnv>,
  opts: { audience: Audience; personal?: boolean },
  build: () => Promise<CachedAnswer<T>>,
): Promise<OkResponse<T>> {
  const { db, clock } = c.var.deps;
  const store = storeOf(db);
  const key = keyOf(c.var.locale, opts.audience, c.req.url);
  const clockNow = clock.now().getTime();
  const realNow = performance.now();
  let entry = freshEntry(store, key, clockNow, realNow);
  if (!entry) {
    const generation = store.generation;
    const answer = await build();
    const body = Buffer.from(JSON.stringify({ code: 200, status: true, data: answer.data }));
    entry = {
      body,
      etag: `W/"${createHash('sha1').update(body).digest('base64url')}"`,
      cacheControl: opts.audience.kind === 'public' ? PUBLIC_CACHE_CONTROL : MEMBER_CACHE_CONTROL,
      vary:
        opts.personal || opts.audience.kind === 'member'
          ? `Accept-Language, Cookie, ${TOKEN_HEADER}, Accept-Encoding`
          : 'Accept-Language, Cookie, Accept-Encoding',
      storedAt: realNow,
      clockAt: clockNow,
      until: answer.until ? answer.until.getTime() : Infinity,
    };
    // a write that ended while this answer was built may not be in it: use it once, keep it not
    if (store.generation === generation) {
      if (store.entries.size >= MAX_ENTRIES) store.entries.delete(store.entries.keys().next().value!);
      store.entries.set(key, entry);
    }
  }
  // typed as ok()'s answer: the body is that envelope, serialised once
  return send(c, entry) as unknown as OkResponse<T>;
}

/**
 * The front of the API: a visitor's GET whose public answer is stored is answered here, before
 * the rest of the middleware and the route (the profile of decision 043: per-request context,
 * routing and validation cost more than the answer). Everything else goes on as before.
 */
export function catalogFastPath(deps: Pick<Deps, 'db' | 'clock' | 'log'>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.method !== 'GET' || c.req.header(TOKEN_HEADER) !== undefined) return next();
    const store = storeOf(deps.db);
    if (store.entries.size === 0) return next();
    const locale = pickLocale(getCookie(c, 'lang'), c.req.header('accept-language'));
    const entry = freshEntry(store, keyOf(locale, PUBLIC, c.req.url), deps.clock.now().getTime(), performance.now());
    if (!entry) return next();
    const res = send(c, entry);
    deps.log.forRequest(c.var.requestId).info('request', { method: 'GET', path: c.req.path, status: res.status, ms: 0, cached: true });
    return res;
  };
}

type OkResponse<T> = ReturnType<typeof ok<T>>;

/** The audience of a route that shows more to a member: the member's own key, or public for a visitor. */
export function audienceOf(c: Context<AppEnv>): Audience {
  const caller = c.var.caller;
  return caller ? { kind: 'member', accountId: caller.accountId } : { kind: 'public' };
}

/** The earliest of these times still ahead of now, if any (an answer's next change by the clock). */
export function nextChange(now: Date, times: readonly (Date | null | undefined)[]): Date | undefined {
  let best: Date | undefined;
  for (const t of times) if (t && t.getTime() > now.getTime() && (!best || t.getTime() < best.getTime())) best = t;
  return best;
}
