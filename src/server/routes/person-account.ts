import { createRoute, z } from '@hono/zod-openapi';
import { Errors } from '../../domain/errors';
import { ApiError } from '../http/api-error';
import { requireAuth, requireAuthOrCookie } from '../http/auth';
import { createRouter, envelope, ok, refusals } from '../http/router';
import { accountById, profileOf } from '../services/auth/accounts';
import { Profile } from '../../contracts/auth';
import { exportMemberData } from '../services/person/data-export';

/** The caller's own account (the Mine screen), and a copy of everything the server holds about them. */
export const account = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/export',
      tags: ['account'],
      summary: 'My data: every row the server holds about me, as a JSON file (secrets and photo bytes left out)',
      description: 'The token cookie also works, so a plain link downloads it. Each table is a key; money and legal records included.',
      middleware: [requireAuthOrCookie] as const,
      responses: {
        200: { description: 'A JSON file', content: { 'application/json': { schema: envelope(z.record(z.string(), z.unknown())) } } },
        401: refusals[401],
      },
    }),
    async (c) => {
      const { deps } = c.var;
      const id = c.var.caller!.accountId;
      const now = deps.clock.now();
      const data = await exportMemberData(deps.db, deps.gateways.keys, id, now);
      c.header('Content-Disposition', `attachment; filename="yoga-club-my-data-${id}-${now.toISOString().slice(0, 10)}.json"`);
      c.header('Cache-Control', 'no-store');
      return ok(c, data);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/',
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
