import { randomInt } from 'node:crypto';
import { and, desc, eq, isNotNull, inArray } from 'drizzle-orm';
import { BIND_CODE_ALPHABET, BIND_CODE_LENGTH, BIND_CODE_TTL_HOURS, bindCodeStatus } from '../../../domain/binding';
import type { Clock } from '../../../domain/clock';
import { Errors } from '../../../domain/errors';
import { isValidPhone, trimInput } from '../../../domain/validation';
import type { Db } from '../../db/client';
import type { Locale } from '../../i18n';
import { loc } from '../catalog';
import { accounts, bindCodes, openIdBindings, teachers } from '../../db/schema/index';
import { ApiError } from '../../http/api-error';
import type { Audit } from '../staff-audit/audit-log';
import { accountByPhone } from '../auth/accounts';
import { revokeAccountSessions } from '../auth/sessions';
import { unbindAccount } from './common';
import { bindCodeHash } from './teacher-bind';
import type { BindCodeIssued, BindCodeView, BindingRow, IssueBindCodeBody, StaffTeacherRow } from '../../../contracts/binding';

const HOUR_MS = 60 * 60_000;

/** Eight characters from the CSPRNG over an alphabet without look-alikes. */
export function newBindCode(): string {
  return Array.from({ length: BIND_CODE_LENGTH }, () => BIND_CODE_ALPHABET[randomInt(0, BIND_CODE_ALPHABET.length)]).join('');
}

type CodeRow = typeof bindCodes.$inferSelect;
const viewOf = (r: CodeRow, teacherName: string, now: Date): BindCodeView => ({
  id: r.id,
  teacherId: r.teacherId,
  teacherName,
  hint: r.hint,
  status: bindCodeStatus(r, now),
  createdAt: r.createdAt.toISOString(),
  expiresAt: r.expiresAt.toISOString(),
  usedAt: r.usedAt?.toISOString() ?? null,
});

/**
 * POST /staff/bind-codes: a code for one teacher, shown once, stored hashed, single use, living
 * `ttlHours` (72 unless set). A teacher without a login gets one now, a teacher account on `phone`
 * (needed then: 60010; a phone that is already someone's login is 60012).
 */
export async function issueBindCode(
  db: Db,
  clock: Clock,
  staffId: number,
  input: IssueBindCodeBody,
  locale: Locale,
  audit?: Audit,
): Promise<BindCodeIssued> {
  return db.transaction(async (tx) => {
    const [teacher] = await tx.select().from(teachers).where(eq(teachers.id, input.teacherId)).for('update');
    if (!teacher) throw new ApiError(Errors.teacherMissing, { field: 'teacherId' });
    if (teacher.accountId === null) {
      const phone = trimInput(input.phone);
      if (!phone) throw new ApiError(Errors.fillForm, { field: 'phone', values: { field: 'phone' } });
      if (!isValidPhone(phone)) throw new ApiError(Errors.invalidPhone, { field: 'phone' });
      if (await accountByPhone(tx, phone)) throw new ApiError(Errors.bindInfoWrong, { field: 'phone' });
      const [acc] = await tx
        .insert(accounts)
        .values({ phone, role: 'teacher', name: teacher.name, createdAt: clock.now() })
        .returning({ id: accounts.id });
      await tx.update(teachers).set({ accountId: acc!.id }).where(eq(teachers.id, teacher.id));
    }
    const code = newBindCode();
    const now = clock.now();
    const [row] = await tx
      .insert(bindCodes)
      .values({
        teacherId: teacher.id,
        codeHash: bindCodeHash(code),
        hint: code.slice(-2),
        issuedBy: staffId,
        createdAt: now,
        expiresAt: new Date(now.getTime() + (input.ttlHours ?? BIND_CODE_TTL_HOURS) * HOUR_MS),
      })
      .returning();
    await audit?.(tx, { action: 'bind-code.issue', subjectKind: 'bind-code', subjectId: row!.id });
    return { ...viewOf(row!, loc(locale, teacher.name, teacher.nameEn), now), code };
  });
}

/** GET /staff/bind-codes: the latest codes, newest first, each with its status now. */
export async function listBindCodes(db: Db, clock: Clock, locale: Locale, limit = 100): Promise<BindCodeView[]> {
  const rows = await db
    .select({ code: bindCodes, teacherName: teachers.name, teacherNameEn: teachers.nameEn })
    .from(bindCodes)
    .innerJoin(teachers, eq(teachers.id, bindCodes.teacherId))
    .orderBy(desc(bindCodes.id))
    .limit(limit);
  const now = clock.now();
  return rows.map((r) => viewOf(r.code, loc(locale, r.teacherName, r.teacherNameEn), now));
}

/** POST /staff/bind-codes/revoke: a live code stops working; a used, revoked or expired one is 60003. */
export async function revokeBindCode(db: Db, clock: Clock, locale: Locale, id: number, audit?: Audit): Promise<BindCodeView> {
  return db.transaction(async (tx) => {
    const [r] = await tx
      .select({ code: bindCodes, teacherName: teachers.name, teacherNameEn: teachers.nameEn })
      .from(bindCodes)
      .innerJoin(teachers, eq(teachers.id, bindCodes.teacherId))
      .where(eq(bindCodes.id, id))
      .for('update');
    if (!r) throw new ApiError(Errors.notFound, { field: 'id' });
    const now = clock.now();
    if (bindCodeStatus(r.code, now) !== 'live') throw new ApiError(Errors.bindCodeInvalid, { field: 'id' });
    const [done] = await tx.update(bindCodes).set({ revokedAt: now }).where(eq(bindCodes.id, id)).returning();
    await audit?.(tx, { action: 'bind-code.revoke', subjectKind: 'bind-code', subjectId: id });
    return viewOf(done!, loc(locale, r.teacherName, r.teacherNameEn), now);
  });
}

/** GET /staff/teachers: every teacher, whether they have a login and whether it is bound. */
export async function teachersForStaff(db: Db, locale: Locale): Promise<StaffTeacherRow[]> {
  const rows = await db
    .select({ id: teachers.id, zh: teachers.name, en: teachers.nameEn, accountId: teachers.accountId, phone: accounts.phone })
    .from(teachers)
    .leftJoin(accounts, eq(accounts.id, teachers.accountId))
    .orderBy(teachers.sort, teachers.id);
  const ids = rows.map((r) => r.accountId).filter((x): x is number => x !== null);
  const bound = ids.length
    ? await db.select({ accountId: openIdBindings.accountId }).from(openIdBindings).where(inArray(openIdBindings.accountId, ids))
    : [];
  const boundSet = new Set(bound.map((b) => b.accountId));
  return rows.map(({ zh, en, ...r }) => ({ ...r, name: loc(locale, zh, en), bound: r.accountId !== null && boundSet.has(r.accountId) }));
}

/** GET /staff/bindings: teacher and staff accounts with a bound open id (the members' are theirs). */
export async function bindingsForStaff(db: Db): Promise<BindingRow[]> {
  const rows = await db
    .select({ accountId: accounts.id, role: accounts.role, name: accounts.name, phone: accounts.phone, since: openIdBindings.createdAt })
    .from(openIdBindings)
    .innerJoin(accounts, eq(accounts.id, openIdBindings.accountId))
    .where(and(inArray(accounts.role, ['teacher', 'staff']), isNotNull(openIdBindings.openId)))
    .orderBy(desc(openIdBindings.createdAt));
  return rows.map((r) => ({ ...r, role: r.role as BindingRow['role'], since: r.since.toISOString() }));
}

/**
 * POST /staff/bindings/unbind: a teacher's or staff member's open ids are let go and their sessions
 * end; they bind again with a new code or their credentials. A member's account, or one with nothing
 * bound, is 404.
 */
export async function unbindForStaff(db: Db, clock: Clock, accountId: number, audit?: Audit): Promise<{ unbound: number }> {
  return db.transaction(async (tx) => {
    const [acc] = await tx.select({ role: accounts.role }).from(accounts).where(eq(accounts.id, accountId)).for('update');
    if (!acc || acc.role === 'member') throw new ApiError(Errors.notFound, { field: 'accountId' });
    const unbound = await unbindAccount(tx, accountId);
    if (unbound === 0) throw new ApiError(Errors.notFound, { field: 'accountId' });
    await revokeAccountSessions(tx, accountId, clock);
    await audit?.(tx, { action: 'binding.unbind', subjectKind: 'account', subjectId: accountId });
    return { unbound };
  });
}
