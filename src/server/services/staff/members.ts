import { randomInt } from 'node:crypto';
import type { StaffMemberBody, StaffMemberRegistered } from '../../../contracts/staff-members';
import type { Clock } from '../../../domain/clock';
import { Errors } from '../../../domain/errors';
import { validRealName } from '../../../domain/identity';
import { initialPassword } from '../../../domain/initial-password';
import { isValidPhone, trimInput } from '../../../domain/validation';
import type { Db } from '../../db/client';
import { accounts } from '../../db/schema/index';
import { ApiError } from '../../http/api-error';
import type { Audit } from '../staff-audit/audit-log';
import { hashPassword } from '../auth-password';

/**
 * POST /staff/members (decision 054): the front desk registers a walk-in member by phone and name,
 * with a random initial password returned in this answer only (stored as its hash) and marked to be
 * replaced at the first password login. The phone is unique: a phone that already has an account
 * (member, teacher or staff) is 70168 and nothing is written; the insert's conflict guard decides a
 * race between two desks.
 */
export async function registerMember(
  db: Db,
  clock: Clock,
  scryptN: number,
  input: StaffMemberBody,
  audit?: Audit,
): Promise<StaffMemberRegistered> {
  const phone = trimInput(input.phone);
  const name = trimInput(input.name);
  if (!isValidPhone(phone)) throw new ApiError(Errors.invalidPhone, { field: 'phone' });
  if (!validRealName(name)) throw new ApiError(Errors.memberNameInvalid, { field: 'name' });
  const password = initialPassword(phone, randomInt);
  const passwordHash = await hashPassword(password, scryptN);
  const row = await db.transaction(async (tx) => {
    const [added] = await tx
      .insert(accounts)
      .values({ phone, name, passwordHash, passwordMustChange: true, role: 'member', createdAt: clock.now() })
      .onConflictDoNothing({ target: accounts.phone })
      .returning({ id: accounts.id });
    if (!added) throw new ApiError(Errors.memberPhoneTaken, { field: 'phone' });
    await audit?.(tx, { action: 'member.register', subjectKind: 'account', subjectId: added.id });
    return added;
  });
  return { id: row.id, phone, name, initialPassword: password };
}
