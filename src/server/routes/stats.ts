import { createRoute, z } from '@hono/zod-openapi';
import { and, count, eq, gte } from 'drizzle-orm';
import { Errors } from '../../domain/errors';
import { pageViews } from '../db/schema/index';
import { ApiError } from '../http/api-error';
import { optionalAuth } from '../http/auth';
import { createRouter, envelope, ok, refusals } from '../http/router';

/** One member or visitor reports at most this many page views a minute (a navigation is one). */
export const PAGE_VIEWS_PER_MINUTE = 120;

const PageViewIn = z
  .object({
    path: z
      .string()
      .min(1)
      .max(512)
      .regex(/^\/[^\s]*$/, 'an app path starting with /')
      .openapi({ example: '/club/detail?id=1' }),
    visitorId: z
      .string()
      .regex(/^[A-Za-z0-9_-]{8,64}$/)
      .optional()
      .openapi({ description: "the app's random id for a visitor without a session", example: 'v_3f9c2a7b1d' }),
  })
  .openapi('PageView');

/** Spec §2: every navigation reports a page view. Public; a valid token ties it to the account. */
export const stats = createRouter().openapi(
  createRoute({
    method: 'post',
    path: '/stats/pageview',
    tags: ['stats'],
    summary: 'Record a page view (account with a valid token, else visitor)',
    middleware: [optionalAuth] as const,
    request: { body: { required: true, content: { 'application/json': { schema: PageViewIn } } } },
    responses: {
      200: { description: 'OK', content: { 'application/json': { schema: envelope(z.object({ id: z.number().int() })) } } },
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
