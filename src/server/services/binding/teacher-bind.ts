import { eq } from 'drizzle-orm';
import { bindCodeStatus, isBindCodeShape, normalizeBindCode } from '../../../domain/binding';
import { Errors } from '../../../domain/errors';
import type { Clock } from '../../../domain/clock';
import type { Db } from '../../db/client';
import { bindCodes, teachers } from '../../db/schema/index';
import { ApiError } from '../../http/api-error';
import { hashSecret } from '../auth-tokens';
import { bindAndLogIn, refuseBoundOpenId, requireOpenId, type BindOutcome } from './common';

/** A bind code as stored: its SHA-256 (the code is upper case, no dashes). */
export const bindCodeHash = (code: string): string => hashSecret(`bind:${code}`);

/**
 * POST /bind/teacher: a teacher binds their open id with the code staff issued for them (spec §5).
 * One transaction: the code row is locked, so of two open ids using one code at once exactly one
 * binds and the other finds it used (60003). Refusals in spec §8's order: empty open id 60001, code
 * missing 60002, invalid 60003 (unknown, used, revoked), expired 60004, teacher missing 60005 (gone, or without a login), open id
 * already bound 60006, teacher already bound 60007, bind failed 60008. A refusal keeps the ticket.
 */
export async function bindTeacher(
  deps: { db: Db; clock: Clock },
  input: { code?: string | null; openid?: string | null },
): Promise<BindOutcome> {
  const { db, clock } = deps;
  return db.transaction(async (tx) => {
    const ticket = await requireOpenId(tx, input.openid, clock);
    const code = normalizeBindCode(input.code);
    if (!code) throw new ApiError(Errors.bindCodeMissing, { field: 'bindCode' });
    if (!isBindCodeShape(code)) throw new ApiError(Errors.bindCodeInvalid, { field: 'bindCode' });
    const [row] = await tx
      .select()
      .from(bindCodes)
      .where(eq(bindCodes.codeHash, bindCodeHash(code)))
      .limit(1)
      .for('update');
    if (!row) throw new ApiError(Errors.bindCodeInvalid, { field: 'bindCode' });
    const status = bindCodeStatus(row, clock.now());
    if (status === 'expired') throw new ApiError(Errors.bindCodeExpired, { field: 'bindCode' });
    if (status !== 'live') throw new ApiError(Errors.bindCodeInvalid, { field: 'bindCode' });
    const [teacher] = await tx
      .select({ id: teachers.id, accountId: teachers.accountId })
      .from(teachers)
      .where(eq(teachers.id, row.teacherId));
    if (!teacher) throw new ApiError(Errors.teacherMissing);
    if (teacher.accountId === null) throw new ApiError(Errors.teacherMissing);
    await refuseBoundOpenId(tx, ticket.openId);
    const outcome = await bindAndLogIn(tx, ticket, teacher.accountId, clock);
    await tx.update(bindCodes).set({ usedAt: clock.now(), usedByOpenId: ticket.openId }).where(eq(bindCodes.id, row.id));
    return outcome;
  });
}
