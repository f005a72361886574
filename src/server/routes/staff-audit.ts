import { createRoute, z } from '@hono/zod-openapi';
import { AuditEntry, AuditQuery } from '../../contracts/staff-audit';
import { requireAuth } from '../http/auth';
import { createRouter, envelope, ok, refusals } from '../http/router';
import { auditEntries } from '../services/staff-audit/audit-log';
import { staffOnly } from './staff-guard';

const json = <T extends z.ZodTypeAny>(schema: T) => ({ description: 'OK', content: { 'application/json': { schema: envelope(schema) } } });

/** The staff audit log (decision 055): what staff did and which personal data they looked at. */
export const auditRoutes = createRouter().openapi(
  createRoute({
    method: 'get',
    path: '/',
    tags: ['audit'],
    summary:
      'Staff: the newest 100 audit entries (who, what, which subject, why, when, from where, which request), optionally of one staff member (staffId) or one action',
    middleware: [requireAuth, staffOnly()] as const,
    request: { query: AuditQuery },
    responses: { 200: json(z.array(AuditEntry)), 400: refusals[400], 401: refusals[401], 403: refusals[403] },
  }),
  async (c) => ok(c, await auditEntries(c.var.deps.db, c.req.valid('query'))),
);
