import { and, count, eq, gt } from 'drizzle-orm';
import { Errors, type ErrorDef } from '../../../domain/errors';
import { WRONG_PASSWORD_LIMIT_PER_HOUR } from '../../../domain/limits';
import { trimInput } from '../../../domain/validation';
import { loginFailures } from '../../db/schema/index';
import { ApiError } from '../../http/api-error';
import { hashPassword, verifyPassword, type AuthDeps } from '../password';
import { accountByPhone } from '../auth/accounts';
import { lockKey } from '../auth/locks';
import { bindAndLogIn, refuseBoundOpenId, requireOpenId, type BindOutcome } from './common';

const HOUR_MS = 60 * 60_000;
let unknownHash: Promise<string> | undefined;

/**
 * POST /bind/staff: a staff member binds their open id with the username (phone) and password of
 * their staff account (spec §5). A wrong username or password is counted exactly like a wrong login
 * (login_failures, per phone per hour; 10015 past the limit) and answered 60011; a right password of
 * an account that is not staff is 60012 (bind info wrong). The count is committed before refusing.
 */
export async function bindStaff(deps: AuthDeps, input: { username?: string | null; password?: string | null; openid?: string | null }): Promise<BindOutcome> {
  const { db, clock } = deps;
  const phone = trimInput(input.username ?? '');
  const password = trimInput(input.password ?? '');
  if (!phone) throw new ApiError(Errors.fillForm, { field: 'username', values: { field: 'username' } });
  if (!password) throw new ApiError(Errors.fillForm, { field: 'password', values: { field: 'password' } });
  const outcome = await db.transaction(async (tx): Promise<{ ok: true; result: BindOutcome } | { ok: false; error: ErrorDef; field?: string }> => {
    const ticket = await requireOpenId(tx, input.openid, clock);
    await lockKey(tx, `login:${phone}`);
    const now = clock.now();
    const [failures] = await tx
      .select({ n: count() })
      .from(loginFailures)
      .where(and(eq(loginFailures.phone, phone), gt(loginFailures.at, new Date(now.getTime() - HOUR_MS))));
    if ((failures?.n ?? 0) >= WRONG_PASSWORD_LIMIT_PER_HOUR) return { ok: false, error: Errors.tooManyWrongPasswords };
    const account = await accountByPhone(tx, phone);
    unknownHash ??= hashPassword('no-such-account', deps.config.passwordScryptN);
    const good = await verifyPassword(password, account?.passwordHash ?? (await unknownHash));
    if (!account || !account.passwordHash || !good) {
      await tx.insert(loginFailures).values({ phone, at: now });
      return { ok: false, error: Errors.wrongStaffCredentials, field: 'password' };
    }
    if (account.role !== 'staff') return { ok: false, error: Errors.bindInfoWrong, field: 'username' };
    await refuseBoundOpenId(tx, ticket.openId);
    return { ok: true, result: await bindAndLogIn(tx, ticket, account.id, clock) };
  });
  if (!outcome.ok) throw new ApiError(outcome.error, { field: outcome.field });
  return outcome.result;
}
