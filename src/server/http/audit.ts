import type { Context } from 'hono';
import type { AppEnv, Caller } from '../env';
import { auditFor, type Audit } from '../services/staff-audit/audit-log';
import { clientIp } from './client-ip';

/** The audit recorder for this request's staff caller (after requireAuth): who, from where, which request. */
export function auditOf(c: Context<AppEnv>): Audit {
  return auditFor(c.var.deps.clock, { staffId: (c.var.caller as Caller).accountId, clientIp: clientIp(c), requestId: c.var.requestId });
}
