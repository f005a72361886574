import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';

/** The caller's IP: the first X-Forwarded-For hop (behind a proxy), else the socket's address. */
export function clientIp(c: Context): string {
  const xff = c.req.header('x-forwarded-for');
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
