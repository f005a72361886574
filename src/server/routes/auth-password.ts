import { createRoute, z } from '@hono/zod-openapi';
import { requireSession, TOKEN_HEADER } from '../http/auth';
import { createRouter, envelope, ok, refusals } from '../http/router';
import { changePassword, finishReset, startReset } from '../services/auth/passwords';
import { ChangePasswordBody, ResetPasswordBody, ResetTicket, ResetVerifyBody } from '../../contracts/auth-password';

const json = <T extends z.ZodTypeAny>(schema: T) => ({ content: { 'application/json': { schema } }, required: true });

/** Password reset (spec §7 /oauth/resetPasswordVerify, /oauth/resetPassword) and /mine/changepassword's call. */
export const resetPasswordVerifyRoutes = createRouter().openapi(
  createRoute({
    method: 'post',
    path: '/',
    tags: ['auth'],
    summary: 'Reset step one: phone + SMS code -> a single-use reset ticket (10 minutes)',
    description: '10010 invalid phone, 10003 wrong or expired code, 10006 banned.',
    request: {
      body: json(ResetVerifyBody),
    },
    responses: {
      200: {
        description: 'Ticket issued: send it as the Authorization-token header of /oauth/resetPassword',
        content: { 'application/json': { schema: envelope(ResetTicket) } },
      },
      400: refusals[400],
      403: refusals[403],
    },
  }),
  async (c) => {
    const { username, password: code } = c.req.valid('json');
    return ok(c, await startReset(c.var.deps, username, code));
  },
);

/** Password reset, the new password (/api/oauth/resetPassword). */
export const resetPasswordRoutes = createRouter().openapi(
  createRoute({
    method: 'post',
    path: '/',
    tags: ['auth'],
    summary: 'Reset step two: set the new password with the reset ticket (header Authorization-token)',
    description:
      '10012 ticket unknown, used or expired; 10011 length not 6-15; 10013 same as the old password (the ticket stays usable after 10011/10013). Revokes every session of the account.',
    request: {
      headers: z.object({ [TOKEN_HEADER]: z.string().max(256).optional() }),
      body: json(ResetPasswordBody),
    },
    responses: {
      200: { description: 'Password set', content: { 'application/json': { schema: envelope(z.null()) } } },
      400: refusals[400],
    },
  }),
  async (c) => {
    await finishReset(c.var.deps, c.req.header(TOKEN_HEADER), c.req.valid('json').password);
    return ok(c, null);
  },
);

/** A member changes their password (/api/customers/password). */
export const password = createRouter().openapi(
  createRoute({
    method: 'post',
    path: '/',
    tags: ['account'],
    summary: 'Change my password',
    description:
      '10011 new length not 6-15, 10018 formed from the phone, 10014 old password wrong, 10013 same as old, 10015 too many wrong tries. Revokes every other session. The one call (with logout) a session that must set a new password may make (decision 054); this lifts it.',
    middleware: [requireSession] as const,
    request: {
      body: json(ChangePasswordBody),
    },
    responses: {
      200: { description: 'Changed', content: { 'application/json': { schema: envelope(z.null()) } } },
      400: refusals[400],
      401: refusals[401],
      429: refusals[429],
    },
  }),
  async (c) => {
    const { oldPassword, newPassword } = c.req.valid('json');
    await changePassword(c.var.deps, c.var.caller!, oldPassword, newPassword);
    return ok(c, null);
  },
);
