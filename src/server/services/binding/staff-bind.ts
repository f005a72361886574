import { Errors } from '../../../domain/errors';
import { guardLogin, verifyCaptcha, type CaptchaAnswer, type GuardDeps, type GuardRefusal } from '../auth/login-guard';
import { lockKey } from '../auth/locks';
import { isPhoneDerivedPassword } from '../../../domain/phone-derived-password';
import { trimInput } from '../../../domain/validation';
import { ApiError } from '../../http/api-error';
import type { AuthDeps } from '../auth-password';
import { checkPassword } from '../auth/password-check';
import { bindAndLogIn, refuseBoundOpenId, requireOpenId, type BindOutcome } from './common';

/**
 * POST /bind/staff: a staff member binds their open id with the username (phone) and password of
 * their staff account (spec §5). A wrong username or password is counted exactly like a wrong login
 * (login_failures, per phone per hour; 10015 past the limit) and answered 60011; a right password of
 * an account that is not staff is 60012 (bind info wrong). The count is committed before refusing.
 */
export async function bindStaff(
  deps: AuthDeps & GuardDeps,
  input: { username?: string | null; password?: string | null; openid?: string | null; captcha?: CaptchaAnswer | null },
  ip = 'unknown',
): Promise<BindOutcome> {
  const { db, clock } = deps;
  const phone = trimInput(input.username ?? '');
  const password = trimInput(input.password ?? '');
  if (!phone) throw new ApiError(Errors.fillForm, { field: 'username', values: { field: 'username' } });
  if (!password) throw new ApiError(Errors.fillForm, { field: 'password', values: { field: 'password' } });
  // as at login (decision 054): a password formed from the phone is expired, right or wrong alike
  if (isPhoneDerivedPassword(phone, password)) throw new ApiError(Errors.phonePasswordExpired, { field: 'password' });
  const captchaPassed = await verifyCaptcha(deps.captcha, input.captcha, ip);
  const outcome = await db.transaction(
    async (tx): Promise<{ ok: true; result: BindOutcome } | ({ ok: false; field?: string } & GuardRefusal)> => {
      const ticket = await requireOpenId(tx, input.openid, clock);
      // the same guard as a login: one open-id ticket must not try a list of phones
      await lockKey(tx, `login:${phone}`);
      const refused = await guardLogin(tx, deps, phone, ip, captchaPassed);
      if (refused) return { ok: false, ...refused };
      const checked = await checkPassword(tx, clock, deps.config.passwordScryptN, phone, password, ip);
      if (checked === 'locked') return { ok: false, error: Errors.tooManyWrongPasswords };
      if (checked === 'wrong') return { ok: false, error: Errors.wrongStaffCredentials, field: 'password' };
      const { account } = checked;
      if (account.role !== 'staff') return { ok: false, error: Errors.bindInfoWrong, field: 'username' };
      await refuseBoundOpenId(tx, ticket.openId);
      return { ok: true, result: await bindAndLogIn(tx, ticket, account.id, clock) };
    },
  );
  if (!outcome.ok) throw new ApiError(outcome.error, { field: outcome.field, data: outcome.data, values: outcome.values });
  return outcome.result;
}
