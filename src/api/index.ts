import { authCalls } from './auth';
import { bookingCalls } from './booking';
import { catalogCalls } from './catalog';
import { createApiClient, type ApiClientOptions } from './client';

/** The app's whole API: one client, calls grouped by area. Machines receive these as provided actors. */
export function createApi(opts: ApiClientOptions) {
  const http = createApiClient(opts);
  return {
    auth: authCalls(http),
    catalog: catalogCalls(http),
    booking: bookingCalls(http),
  };
}

export type Api = ReturnType<typeof createApi>;
