import { and, count, eq, gt, isNull } from 'drizzle-orm';
import { Errors, type ErrorDef } from '../../../domain/errors';
import { RESET_TICKET_TTL_MS, WRONG_PASSWORD_LIMIT_PER_HOUR } from '../../../domain/limits';
import { isPhoneDerivedPassword } from '../../../domain/phone-derived-password';
import { isValidPasswordLength, isValidPhone, trimInput } from '../../../domain/validation';
import { accounts, loginFailures, resetTickets, sessions } from '../../db/schema/index';
import { ApiError } from '../../http/api-error';
import { hashPassword, verifyPassword, type AuthDeps } from '../auth-password';
import { accountById, findOrCreateMember } from './accounts';
import { lockKey } from './locks';
import { revokeAccountSessions } from './sessions';
import { consumeCode } from './sms-codes';
import { hashSecret, newSecret } from '../auth-tokens';
import type { ResetTicket } from '../../../contracts/auth-password';

type Refusal = { ok: false; error: ErrorDef; field?: string };
const HOUR_MS = 60 * 60_000;

/**
 * Reset step one (POST /oauth/resetPasswordVerify): the phone's SMS code buys a single-use reset
 * ticket valid 10 minutes. Owning the phone is owning the account: an unregistered phone gets its
 * member account here, exactly as a first code login would, so the answer never tells who is registered.
 */
export async function startReset(deps: AuthDeps, username: string, code: string): Promise<ResetTicket> {
  const phone = trimInput(username);
  if (!isValidPhone(phone)) throw new ApiError(Errors.invalidPhone, { field: 'username' });
  const { db, clock } = deps;
  const outcome = await db.transaction(async (tx): Promise<{ ok: true; ticket: string } | Refusal> => {
    if ((await consumeCode(tx, phone, trimInput(code), clock)) !== 'ok') return { ok: false, error: Errors.wrongCode, field: 'password' };
    const account = await findOrCreateMember(tx, phone, clock);
    if (account.banned) return { ok: false, error: Errors.banned };
    const ticket = newSecret();
    await tx.insert(resetTickets).values({
      accountId: account.id,
      ticketHash: hashSecret(ticket),
      expiresAt: new Date(clock.now().getTime() + RESET_TICKET_TTL_MS),
    });
    return { ok: true, ticket };
  });
  if (!outcome.ok) throw new ApiError(outcome.error, { field: outcome.field });
  return { ticket: outcome.ticket, expiresIn: RESET_TICKET_TTL_MS / 1000 };
}

/**
 * Reset step two (POST /oauth/resetPassword): spends the ticket, sets the password (no longer one to
 * be replaced, decision 054), revokes every session of the account and forgets its wrong-password
 * count. A refused length, phone-derived (10018) or same-as-old password keeps the ticket, so the
 * member can try again within the 10 minutes.
 */
export async function finishReset(deps: AuthDeps, ticket: string | undefined, newPassword: string): Promise<void> {
  const { db, clock } = deps;
  const password = trimInput(newPassword);
  await db.transaction(async (tx) => {
    const t = ticket?.trim();
    const [row] = t
      ? await tx
          .select()
          .from(resetTickets)
          .where(and(eq(resetTickets.ticketHash, hashSecret(t)), isNull(resetTickets.usedAt), gt(resetTickets.expiresAt, clock.now())))
          .limit(1)
          .for('update')
      : [];
    if (!row) throw new ApiError(Errors.resetTicketInvalid, { field: 'Authorization-token' });
    if (!isValidPasswordLength(password)) throw new ApiError(Errors.passwordLength, { field: 'password' });
    const account = await accountById(tx, row.accountId);
    if (!account) throw new ApiError(Errors.resetTicketInvalid, { field: 'Authorization-token' });
    if (isPhoneDerivedPassword(account.phone, password)) throw new ApiError(Errors.phonePasswordNotAllowed, { field: 'password' });
    if (await verifyPassword(password, account.passwordHash)) throw new ApiError(Errors.samePassword, { field: 'password' });
    await tx
      .update(accounts)
      .set({ passwordHash: await hashPassword(password, deps.config.passwordScryptN), passwordMustChange: false })
      .where(eq(accounts.id, account.id));
    await tx.update(resetTickets).set({ usedAt: clock.now() }).where(eq(resetTickets.id, row.id));
    await revokeAccountSessions(tx, account.id, clock);
    await tx.delete(loginFailures).where(eq(loginFailures.phone, account.phone));
  });
}

/**
 * POST /customers/password (a logged-in member): the old password must be right (10014, counted like a
 * wrong login towards 10015), the new one 6-15 characters (10011), not formed from the phone (10018)
 * and different (10013). Every other session of the account is revoked; the caller's own stays, and
 * may do everything again if it could only set a new password (decision 054).
 */
export async function changePassword(
  deps: AuthDeps,
  caller: { accountId: number; sessionId: number },
  oldPassword: string,
  newPassword: string,
): Promise<void> {
  const { db, clock } = deps;
  const oldPw = trimInput(oldPassword);
  const newPw = trimInput(newPassword);
  if (!oldPw) throw new ApiError(Errors.oldPasswordWrong, { field: 'oldPassword' });
  if (!isValidPasswordLength(newPw)) throw new ApiError(Errors.passwordLength, { field: 'newPassword' });
  const outcome = await db.transaction(async (tx): Promise<{ ok: true } | Refusal> => {
    const account = await accountById(tx, caller.accountId);
    if (!account) return { ok: false, error: Errors.loginExpired };
    if (isPhoneDerivedPassword(account.phone, newPw)) return { ok: false, error: Errors.phonePasswordNotAllowed, field: 'newPassword' };
    await lockKey(tx, `login:${account.phone}`);
    const now = clock.now();
    const [failures] = await tx
      .select({ n: count() })
      .from(loginFailures)
      .where(and(eq(loginFailures.phone, account.phone), gt(loginFailures.at, new Date(now.getTime() - HOUR_MS))));
    if ((failures?.n ?? 0) >= WRONG_PASSWORD_LIMIT_PER_HOUR) return { ok: false, error: Errors.tooManyWrongPasswords };
    if (!(await verifyPassword(oldPw, account.passwordHash))) {
      await tx.insert(loginFailures).values({ phone: account.phone, at: now });
      return { ok: false, error: Errors.oldPasswordWrong, field: 'oldPassword' };
    }
    if (oldPw === newPw) return { ok: false, error: Errors.samePassword, field: 'newPassword' };
    await tx
      .update(accounts)
      .set({ passwordHash: await hashPassword(newPw, deps.config.passwordScryptN), passwordMustChange: false })
      .where(eq(accounts.id, account.id));
    await tx.update(sessions).set({ passwordChangeOnly: false }).where(eq(sessions.id, caller.sessionId));
    await revokeAccountSessions(tx, account.id, clock, caller.sessionId);
    return { ok: true };
  });
  if (!outcome.ok) throw new ApiError(outcome.error, { field: outcome.field });
}
