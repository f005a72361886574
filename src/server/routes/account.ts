import { createRoute } from '@hono/zod-openapi';
import { Errors } from '../../domain/errors';
import { ApiError } from '../http/api-error';
import { requireAuth } from '../http/auth';
import { createRouter, envelope, ok, refusals } from '../http/router';
import { accountById, profileOf } from '../services/auth/accounts';
import { Profile } from '../../contracts/auth';

/** The caller's own account (the Mine screen). */
export const account = createRouter().openapi(
  createRoute({
    method: 'get',
    path: '/customers/me',
    tags: ['account'],
    summary: 'My profile',
    middleware: [requireAuth] as const,
    responses: { 200: { description: 'OK', content: { 'application/json': { schema: envelope(Profile) } } }, 401: refusals[401] },
  }),
  async (c) => {
    const me = await accountById(c.var.deps.db, c.var.caller!.accountId);
    if (!me) throw new ApiError(Errors.loginExpired);
    return ok(c, profileOf(me));
  },
);
