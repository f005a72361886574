import { and, desc, eq, type SQL } from 'drizzle-orm';
import type { Clock } from '../../../domain/clock';
import type { AuditAction, AuditSubject } from '../../../domain/audit';
import type { AuditEntry, AuditQuery } from '../../../contracts/staff-audit';
import type { Db, Tx } from '../../db/client';
import { accounts, auditLog } from '../../db/schema/index';

/** What one staff action did to what (the rest of the entry comes from the request). */
export interface AuditEvent {
  action: AuditAction;
  subjectKind: AuditSubject;
  subjectId: number | null;
  reason?: string | null;
}

/** Who acts and from where: the staff account, the client address and the request's id. */
export interface AuditActor {
  staffId: number;
  clientIp: string;
  requestId: string;
}

/**
 * Records one staff action through `db`: pass the action's transaction, so the entry and the action
 * commit or roll back together (decision 055).
 */
export type Audit = (db: Db | Tx, e: AuditEvent) => Promise<void>;

/** The recorder for one request's staff member; the time is the injected clock's. */
export function auditFor(clock: Clock, actor: AuditActor): Audit {
  return async (db, e) => {
    await db.insert(auditLog).values({
      staffAccountId: actor.staffId,
      action: e.action,
      subjectKind: e.subjectKind,
      subjectId: e.subjectId,
      reason: e.reason ?? null,
      clientIp: actor.clientIp,
      requestId: actor.requestId,
      at: clock.now(),
    });
  };
}

/** The newest audit entries (at most `limit`), optionally of one staff member and one action. */
export async function auditEntries(db: Db, q: AuditQuery, limit = 100): Promise<AuditEntry[]> {
  const where: SQL[] = [];
  if (q.staffId !== undefined) where.push(eq(auditLog.staffAccountId, q.staffId));
  if (q.action !== undefined) where.push(eq(auditLog.action, q.action));
  const rows = await db
    .select({ e: auditLog, staffName: accounts.name, staffPhone: accounts.phone })
    .from(auditLog)
    .innerJoin(accounts, eq(accounts.id, auditLog.staffAccountId))
    .where(and(...where))
    .orderBy(desc(auditLog.id))
    .limit(limit);
  return rows.map(({ e, staffName, staffPhone }) => ({
    id: e.id,
    staffId: e.staffAccountId,
    staffName,
    staffPhone,
    action: e.action as AuditAction,
    subjectKind: e.subjectKind as AuditSubject,
    subjectId: e.subjectId,
    reason: e.reason,
    clientIp: e.clientIp,
    requestId: e.requestId,
    at: e.at.toISOString(),
  }));
}
