import type { Api } from '../api/index';
import type { Envelope } from '../domain/envelope';

let browserApi: Api | undefined;
/** Catalogue reads kept by keptInBrowser, for the current browser API. */
const kept = new Map<string, { at: number; read: Promise<Envelope<unknown>> }>();

/** The browser entry sets the one client-side API once. */
export function setBrowserApi(api: Api): void {
  browserApi = api;
  // what the last API read (in the last language) is not this one's
  kept.clear();
}

/**
 * Route loaders run on the server (with a per-request API in the router's request context, bound to
 * the member's token) and in the browser (the one client-side API). This picks the right one.
 */
export function apiFrom(context: unknown): Api {
  const ctx = context as { api?: Api } | undefined;
  if (ctx?.api) return ctx.api;
  if (!browserApi) throw new Error('API not initialised: call setBrowserApi in the browser entry');
  return browserApi;
}

/** The browser's API, for actors the app provides to machines. */
export function browserApiOrThrow(): Api {
  return apiFrom(undefined);
}

/**
 * A catalogue read that a page's loader repeats on every switch of that page (clubs and style names
 * on the schedule's day, studio and filter switches), kept in the browser for `ms` after a good
 * answer, so a tap does not start requests whose answer it already has (every tap shows its effect within 100 ms).
 * A failed or refused read is not kept. On the server every request reads afresh (the server's own
 * catalogue cache answers it, decision 043). Only for reads that are the same for every member.
 */
export function keptInBrowser<T>(context: unknown, key: string, ms: number, read: () => Promise<Envelope<T>>): Promise<Envelope<T>> {
  if ((context as { api?: Api } | undefined)?.api) return read();
  const now = performance.now();
  const hit = kept.get(key);
  if (hit && now - hit.at < ms) return hit.read as Promise<Envelope<T>>;
  const fresh = read();
  kept.set(key, { at: now, read: fresh });
  const forget = () => {
    if (kept.get(key)?.read === fresh) kept.delete(key);
  };
  fresh.then((e) => (e.code === 200 && e.status ? undefined : forget()), forget);
  return fresh;
}
