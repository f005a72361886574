import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { AppEnv } from '../env';

/**
 * The caller's IP, for per-network caps: the first X-Forwarded-For hop when TRUST_PROXY says a proxy
 * overwrites that header (otherwise anyone could forge it and dodge the cap), else the socket's address.
 */
export function clientIp(c: Context<AppEnv>): string {
  const xff = c.var.deps?.config.trustProxy ? c.req.header('x-forwarded-for') : undefined;
  if (xff) {
    const first = xff.split(',')[0]?.trim();
    if (first) return first;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
