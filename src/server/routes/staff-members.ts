import { createRoute, type z } from '@hono/zod-openapi';
import { StaffMemberBody, StaffMemberForm, StaffMemberRegistered } from '../../contracts/staff-members';
import { INITIAL_PASSWORD_LENGTH } from '../../domain/initial-password';
import { requireAuth } from '../http/auth';
import { createRouter, envelope, ok, refusals } from '../http/router';
import { registerMember } from '../services/staff/members';
import { staffOnly } from './staff-guard';
import { auditOf } from '../http/audit';

const json = <T extends z.ZodTypeAny>(schema: T, description = 'OK') => ({
  description,
  content: { 'application/json': { schema: envelope(schema) } },
});

/** Members registered by staff at the front desk (decision 054). */
export const staffMemberRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/form',
      tags: ['staff'],
      summary: 'Staff: what the registration form tells the desk (how long the random initial password is).',
      middleware: [requireAuth, staffOnly()] as const,
      responses: { 200: json(StaffMemberForm), 401: refusals[401], 403: refusals[403] },
    }),
    (c) => ok(c, { initialPasswordLength: INITIAL_PASSWORD_LENGTH }),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/',
      tags: ['staff'],
      summary:
        'Staff: register a walk-in member by phone and name, with a random initial password shown in this answer only (the first password login must replace it). 10010 bad phone, 70169 bad name, 70168 the phone already has an account. No Idempotency-Key: a replay would keep the password in plain text; the unique phone makes a retry 70168.',
      middleware: [requireAuth, staffOnly()] as const,
      request: { body: { content: { 'application/json': { schema: StaffMemberBody } }, required: true } },
      responses: { 200: json(StaffMemberRegistered), 400: refusals[400], 401: refusals[401], 403: refusals[403], 409: refusals[409] },
    }),
    async (c) => {
      const { db, clock, config } = c.var.deps;
      return ok(c, await registerMember(db, clock, config.passwordScryptN, c.req.valid('json'), auditOf(c)));
    },
  );
