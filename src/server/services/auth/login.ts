import type { Clock } from '../../../domain/clock';
import { Errors, type ErrorDef } from '../../../domain/errors';
import { isPhoneDerivedPassword } from '../../../domain/phone-derived-password';
import { isValidPasswordLength, isValidPhone, trimInput } from '../../../domain/validation';
import type { Tx } from '../../db/client';
import { ApiError } from '../../http/api-error';
import type { AuthDeps } from '../auth-password';
import { accountById, findOrCreateMember, updateWxProfile, type Account } from './accounts';
import { checkPassword } from './password-check';
import { guardLogin, recordFailure, verifyCaptcha } from './login-guard';
import { lockKey } from './locks';
import type { Config } from '../../config';
import type { CaptchaGateway } from '../../gateways/captcha';
import { accountIdForOpenId, bindOpenId, hasOpenIdBinding, liveTicket, spendTicket } from './openid-tickets';
import { cleanAvatarUrl, cleanNickname } from './rules';
import { createSession } from './sessions';
import { consumeCode } from './sms-codes';
import type { LoginBody } from '../../../contracts/auth';

/** What POST /oauth/login takes (src/contracts/auth.ts); `openid` is an open-id ticket, never a raw open id. */
export type LoginInput = LoginBody;

export interface LoginResult {
  token: string;
  account: Account;
  /** an open id is bound to the account after this login */
  wxBound: boolean;
  /** logged in with an initial password (decision 054): the session may only set a new one */
  mustChangePassword: boolean;
}

type Outcome =
  | { ok: true; result: LoginResult }
  | { ok: false; error: ErrorDef; field?: string; data?: Record<string, number | string>; values?: Record<string, number> };

/** The login's dependencies: the security check's provider beside the database, clock and settings. */
export type LoginDeps = AuthDeps & { config: AuthDeps['config'] & Pick<Config, 'loginGuard'>; captcha: CaptchaGateway };

/**
 * POST /oauth/login. Each decision and what it writes (a failure row, a spent code or ticket, the
 * session) is one transaction; a refusal is thrown only after the commit so a wrong try still counts.
 */
export async function login(deps: LoginDeps, input: LoginInput, ip = 'unknown'): Promise<LoginResult> {
  const type = input.loginType.trim();
  let outcome: Outcome;
  if (type === 'openid') outcome = await openIdLogin(deps, input);
  else if (type === 'password' || type === 'code') {
    const phone = trimInput(input.username);
    const secret = trimInput(input.password);
    if (!isValidPhone(phone)) throw new ApiError(Errors.invalidPhone, { field: 'username' });
    if (type === 'password') {
      if (!isValidPasswordLength(secret)) throw new ApiError(Errors.passwordLength, { field: 'password' });
      outcome = await passwordLogin(deps, phone, secret, input, ip);
    } else {
      outcome = await codeLogin(deps, phone, secret, input, ip);
    }
  } else throw new ApiError(Errors.wrongLoginType, { field: 'loginType' });
  if (!outcome.ok) throw new ApiError(outcome.error, { field: outcome.field, data: outcome.data, values: outcome.values });
  return outcome.result;
}

/**
 * A password formed from the phone (an old default, decision 045, or one like it) is refused as
 * expired before it is checked: right or wrong it answers the same, so it tells a guesser nothing;
 * the member logs in by code and sets a password. An initial password's session may only set a new one.
 */
async function passwordLogin(deps: LoginDeps, phone: string, password: string, input: LoginInput, ip: string): Promise<Outcome> {
  const { db, clock } = deps;
  if (isPhoneDerivedPassword(phone, password)) return { ok: false, error: Errors.phonePasswordExpired, field: 'password' };
  const captchaPassed = await verifyCaptcha(deps.captcha, input.captcha, ip);
  return db.transaction(async (tx): Promise<Outcome> => {
    await lockKey(tx, `login:${phone}`);
    const refused = await guardLogin(tx, deps, phone, ip, captchaPassed);
    if (refused) return { ok: false, ...refused };
    const checked = await checkPassword(tx, clock, deps.config.passwordScryptN, phone, password, ip);
    if (checked === 'locked') return { ok: false, error: Errors.tooManyWrongPasswords };
    if (checked === 'wrong') return { ok: false, error: Errors.wrongPhoneOrPassword, field: 'password' };
    const { account } = checked;
    if (account.banned) return { ok: false, error: Errors.banned };
    return { ok: true, result: await startSession(tx, account, input, clock, account.passwordMustChange) };
  });
}

async function codeLogin(deps: LoginDeps, phone: string, code: string, input: LoginInput, ip: string): Promise<Outcome> {
  const { db, clock } = deps;
  const captchaPassed = await verifyCaptcha(deps.captcha, input.captcha, ip);
  return db.transaction(async (tx): Promise<Outcome> => {
    await lockKey(tx, `login:${phone}`);
    const refused = await guardLogin(tx, deps, phone, ip, captchaPassed);
    if (refused) return { ok: false, ...refused };
    if ((await consumeCode(tx, phone, code, clock)) !== 'ok') {
      await recordFailure(tx, clock, phone, ip, 'code');
      return { ok: false, error: Errors.wrongCode, field: 'password' };
    }
    const account = await findOrCreateMember(tx, phone, clock);
    if (account.banned) return { ok: false, error: Errors.banned };
    return { ok: true, result: await startSession(tx, account, input, clock) };
  });
}

async function openIdLogin(deps: AuthDeps, input: LoginInput): Promise<Outcome> {
  const { db, clock } = deps;
  return db.transaction(async (tx): Promise<Outcome> => {
    const ticket = await liveTicket(tx, input.openid, clock);
    const accountId = ticket ? await accountIdForOpenId(tx, ticket.openId) : undefined;
    const account = accountId === undefined ? undefined : await accountById(tx, accountId);
    if (!ticket || !account) return { ok: false, error: Errors.openIdNotBound, field: 'openid' };
    if (account.banned) return { ok: false, error: Errors.banned };
    await spendTicket(tx, ticket.id, clock);
    const token = await createSession(tx, account.id, clock);
    return { ok: true, result: { token, account, wxBound: true, mustChangePassword: false } };
  });
}

/** A phone login: binds a valid open-id ticket carried in `openid`, then opens a new session (one that may only set a new password, when asked). */
async function startSession(tx: Tx, account: Account, input: LoginInput, clock: Clock, mustChangePassword = false): Promise<LoginResult> {
  const ticket = await liveTicket(tx, input.openid, clock);
  if (ticket) {
    await bindOpenId(tx, ticket.openId, account.id, clock);
    await spendTicket(tx, ticket.id, clock);
    await updateWxProfile(tx, account.id, {
      avatar: cleanAvatarUrl(input.weixinPicture) ?? ticket.avatar ?? undefined,
      nickname: cleanNickname(input.nicName) ?? ticket.nickname ?? undefined,
    });
  }
  const token = await createSession(tx, account.id, clock, mustChangePassword);
  const fresh = (await accountById(tx, account.id)) ?? account;
  const wxBound = ticket !== undefined || (await hasOpenIdBinding(tx, account.id));
  return { token, account: fresh, wxBound, mustChangePassword };
}
