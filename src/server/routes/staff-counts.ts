import { createRoute } from '@hono/zod-openapi';
import { StaffCounts } from '../../contracts/staff-counts';
import type { Caller } from '../env';
import { requireAuth } from '../http/auth';
import { createRouter, envelope, ok, refusals } from '../http/router';
import { staffCounts } from '../services/staff/counts';
import { staffOnly } from './staff-guard';

/** The staff console's queue sizes in one answer (/api/staff/counts; decision 097). */
export const staffCountRoutes = createRouter().openapi(
  createRoute({
    method: 'get',
    path: '/',
    tags: ['staff'],
    summary: "Staff: how many items wait in each review queue (each scoped like the queue's own list), and this week's declined classes",
    middleware: [requireAuth, staffOnly()] as const,
    responses: {
      200: { description: 'OK', content: { 'application/json': { schema: envelope(StaffCounts) } } },
      401: refusals[401],
      403: refusals[403],
    },
  }),
  async (c) =>
    ok(
      c,
      await staffCounts(c.var.deps.db, c.var.deps.gateways.keys, c.var.deps.clock.now(), (c.var.caller as Caller).accountId, c.var.locale),
    ),
);
