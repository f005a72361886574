import { createRoute, type z } from '@hono/zod-openapi';
import { StaffMemberBody, StaffMemberForm, StaffMemberRegistered } from '../../contracts/staff-members';
import { requireAuth } from '../http/auth';
import { idempotent } from '../http/idempotency';
import { createRouter, envelope, ok, refusals } from '../http/router';
import { registerMember } from '../services/staff/members';
import { staffOnly } from './staff-guard';
import { auditOf } from '../http/audit';

const json = <T extends z.ZodTypeAny>(schema: T, description = 'OK') => ({ description, content: { 'application/json': { schema: envelope(schema) } } });

/** Members registered by staff at the front desk (decision 045). */
export const staffMemberRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/staff/members/form',
      tags: ['staff'],
      summary: 'Staff: what the registration form needs: how the default password is formed, to tell the member (never a password).',
      middleware: [requireAuth, staffOnly()] as const,
      responses: { 200: json(StaffMemberForm), 401: refusals[401], 403: refusals[403] },
    }),
    (c) => {
      const { prefix, digits } = c.var.deps.config.defaultPassword;
      return ok(c, { defaultPassword: { prefix, digits } });
    },
  )
  .openapi(
  createRoute({
    method: 'post',
    path: '/staff/members',
    tags: ['staff'],
    summary:
      'Staff: register a walk-in member by phone and name, with the default password the configured rule gives the phone (DEFAULT_PASSWORD_PREFIX + the phone’s last DEFAULT_PASSWORD_PHONE_DIGITS digits). 10010 bad phone, 70169 bad name, 70168 the phone already has an account. Idempotency-Key accepted.',
    middleware: [requireAuth, staffOnly(), idempotent] as const,
    request: { body: { content: { 'application/json': { schema: StaffMemberBody } }, required: true } },
    responses: { 200: json(StaffMemberRegistered), 400: refusals[400], 401: refusals[401], 403: refusals[403], 409: refusals[409] },
  }),
  async (c) => {
    const { db, clock, config } = c.var.deps;
    return ok(c, await registerMember(db, clock, config.defaultPassword, config.passwordScryptN, c.req.valid('json'), auditOf(c)));
  },
);
