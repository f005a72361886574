import type { Api } from '../api/index';

let browserApi: Api | undefined;

/** The browser entry sets the one client-side API once. */
export function setBrowserApi(api: Api): void {
  browserApi = api;
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
