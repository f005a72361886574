import { createRoute, z } from '@hono/zod-openapi';
import { sql } from 'drizzle-orm';
import { createRouter, envelope, ok } from '../http/router';

const HealthData = z.object({ db: z.enum(['pglite', 'postgres']), time: z.string() }).openapi('Health');

/** GET /health: the process is up and the database answers. */
export const health = createRouter().openapi(
  createRoute({
    method: 'get',
    path: '/',
    tags: ['platform'],
    summary: 'Liveness and database kind',
    responses: { 200: { description: 'OK', content: { 'application/json': { schema: envelope(HealthData) } } } },
  }),
  async (c) => {
    const { db, dbKind, clock } = c.var.deps;
    await db.execute(sql`select 1`);
    return ok(c, { db: dbKind, time: clock.now().toISOString() });
  },
);
