import { createRoute, z } from '@hono/zod-openapi';
import { requireAuth } from '../http/auth';
import { createRouter, envelope, ok, refusals } from '../http/router';

/**
 * Booking calls. The booking work extends this router (book, cancel, queue, my bookings); until
 * bookings exist the booked count is 0.
 */
export const bookings = createRouter().openapi(
  createRoute({
    method: 'get',
    path: '/customers/classes/schedule/booked/count',
    tags: ['bookings'],
    summary: 'How many upcoming classes I have booked (the footer badge)',
    middleware: [requireAuth] as const,
    responses: { 200: { description: 'OK', content: { 'application/json': { schema: envelope(z.number().int()) } } }, 401: refusals[401] },
  }),
  (c) => ok(c, 0),
);
