import { createRoute, z } from '@hono/zod-openapi';
import { Errors } from '../../domain/errors';
import { issueStandInTicket } from '../gateways/captcha-standin';
import { lastDevCode } from '../gateways/sms';
import { ApiError } from '../http/api-error';
import { createRouter, envelope, ok, refusals } from '../http/router';

/**
 * Demo mode only (never mounted in production): the last code the local SMS adapter sent to a phone,
 * and the captcha stand-in's widget ("solved": a ticket the stand-in's DescribeCaptchaResult accepts once).
 */
export const devAuth = createRouter()
  .openapi(
    createRoute({
      method: 'post',
      path: '/captcha/ticket',
      tags: ['dev'],
      summary: 'Demo mode: the captcha stand-in widget solved, a ticket and random string',
      responses: {
        200: {
          description: 'A ticket',
          content: { 'application/json': { schema: envelope(z.object({ ticket: z.string(), randstr: z.string() })) } },
        },
      },
    }),
    async (c) => ok(c, await issueStandInTicket(c.var.deps.db, c.var.deps.clock.now())),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/sms/{phone}',
      tags: ['dev'],
      summary: 'Demo mode: the last SMS code sent to a phone',
      request: { params: z.object({ phone: z.string().max(32) }) },
      responses: {
        200: {
          description: 'The code',
          content: { 'application/json': { schema: envelope(z.object({ code: z.string(), sentAt: z.string() })) } },
        },
        404: refusals[404],
      },
    }),
    async (c) => {
      const found = await lastDevCode(c.var.deps.db, c.req.valid('param').phone.trim());
      if (!found) throw new ApiError(Errors.notFound);
      return ok(c, { code: found.code, sentAt: found.sentAt.toISOString() });
    },
  );
