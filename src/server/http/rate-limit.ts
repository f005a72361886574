import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { sql } from 'drizzle-orm';
import { Errors } from '../../domain/errors';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { rateHits } from '../db/schema/index';
import type { AppEnv } from '../env';
import { ApiError } from './api-error';
import { clientIp } from './client-ip';

/** One limit: at most `limit` (from the configuration) requests per `windowMs` for each value `key` gives (null: not counted). */
export interface RateRule {
  name: string;
  limit: (config: Config) => number;
  windowMs: number;
  key: (c: Context<AppEnv>) => string | null;
}

/**
 * Counts one request against a key's current window and answers the count so far (this one included).
 * Fixed windows aligned to the injected clock; one upsert, so concurrent requests on any process
 * count once each.
 */
export async function countHit(db: Db, key: string, windowMs: number, now: Date): Promise<number> {
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  const [row] = await db
    .insert(rateHits)
    .values({ key, windowStart, hits: 1 })
    .onConflictDoUpdate({ target: [rateHits.key, rateHits.windowStart], set: { hits: sql`${rateHits.hits} + 1` } })
    .returning({ hits: rateHits.hits });
  return row!.hits;
}

/**
 * Rate limits for an open endpoint (decision 047): each rule counted before the handler
 * runs; over any of them the request is answered 429 70021 and does nothing else.
 */
export function rateLimit(...rules: RateRule[]) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const { db, clock, config } = c.var.deps;
    const now = clock.now();
    for (const rule of rules) {
      const value = rule.key(c);
      if (value === null) continue;
      if ((await countHit(db, `${rule.name}:${value}`, rule.windowMs, now)) > rule.limit(config))
        throw new ApiError(Errors.tooManyRequests);
    }
    await next();
  });
}

/** The caller's network address as a limit's key. */
export const byAddress = (c: Context<AppEnv>) => `ip:${clientIp(c)}`;

const MINUTE = 60_000;

/** Payment and refund notifications, per address: generous (providers send bursts), but a flood is cut. */
export const NOTIFY_RULE: RateRule = { name: 'notify', limit: (c) => c.rateLimits.notifyPerMinute, windowMs: MINUTE, key: byAddress };

/** The friend-pay page and its pay tap (no login), per address. */
export const FRIEND_RULE: RateRule = { name: 'friend', limit: (c) => c.rateLimits.friendPerMinute, windowMs: MINUTE, key: byAddress };

/** One friend-pay invitation read, per invitation, from anywhere: its token cannot be worked through by many addresses. */
export const FRIEND_INVITATION_RULE: RateRule = {
  name: 'friend-t',
  limit: (c) => c.rateLimits.friendPerInvitationPerMinute,
  windowMs: MINUTE,
  key: (c) => {
    const t = c.req.query('t');
    return t ? `t:${t.slice(0, 128)}` : null;
  },
};
