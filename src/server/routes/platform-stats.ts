import { createRoute } from '@hono/zod-openapi';
import { and, count, eq, gte } from 'drizzle-orm';
import { Errors } from '../../domain/errors';
import { pageViews } from '../db/schema/index';
import { ApiError } from '../http/api-error';
import { optionalAuth } from '../http/auth';
import { createRouter, envelope, ok, refusals } from '../http/router';
import { PageViewBody, PageViewRecorded } from '../../contracts/platform-stats';

/** One member or visitor reports at most this many page views a minute (a navigation is one). */
export const PAGE_VIEWS_PER_MINUTE = 120;

/** Spec §2: every navigation reports a page view. Public; a valid token ties it to the account. */
export const stats = createRouter().openapi(
  createRoute({
    method: 'post',
    path: '/pageview',
    tags: ['stats'],
    summary: 'Record a page view (account with a valid token, else visitor)',
    middleware: [optionalAuth] as const,
    request: { body: { required: true, content: { 'application/json': { schema: PageViewBody } } } },
    responses: {
      200: { description: 'OK', content: { 'application/json': { schema: envelope(PageViewRecorded) } } },
      400: refusals[400],
      429: refusals[429],
    },
  }),
  async (c) => {
    const { path, visitorId } = c.req.valid('json');
    const { db, clock } = c.var.deps;
    const accountId = c.var.caller?.accountId ?? null;
    const now = clock.now();
    const who = accountId !== null ? eq(pageViews.accountId, accountId) : visitorId ? eq(pageViews.visitorId, visitorId) : undefined;
    if (who) {
      const [recent] = await db
        .select({ n: count() })
        .from(pageViews)
        .where(and(who, gte(pageViews.at, new Date(now.getTime() - 60_000))));
      if ((recent?.n ?? 0) >= PAGE_VIEWS_PER_MINUTE) throw new ApiError(Errors.tooManyRequests);
    }
    const [row] = await db
      .insert(pageViews)
      .values({ path, accountId, visitorId: accountId !== null ? null : (visitorId ?? null), at: now })
      .returning({ id: pageViews.id });
    return ok(c, { id: row!.id });
  },
);
