import { randomInt } from 'node:crypto';
import { and, count, desc, eq, gt, gte } from 'drizzle-orm';
import type { Clock } from '../../../domain/clock';
import { Errors } from '../../../domain/errors';
import { SMS_CODE_LENGTH, SMS_CODE_MAX_TRIES, SMS_CODE_TTL_MS } from '../../../domain/limits';
import { isValidSmsCode } from '../../../domain/validation';
import type { Config } from '../../config';
import type { Db, Tx } from '../../db/client';
import { smsCodes } from '../../db/schema/index';
import type { SmsGateway } from '../../gateways/index';
import type { Logger } from '../../logger';
import { ApiError } from '../../http/api-error';
import { hashSecret } from '../auth-tokens';
import { lockKey } from './locks';
import { guardCode, verifyCaptcha, type CaptchaAnswer } from './login-guard';
import type { CaptchaGateway } from '../../gateways/captcha';
import { shanghaiDayStart } from '../../../domain/time';

const HOUR_MS = 60 * 60_000;

/** Codes are stored as a hash bound to the phone, so a code row is useless for another number. */
function codeHash(phone: string, code: string): string {
  return hashSecret(`${phone}:${code}`);
}

/** Six digits from the CSPRNG. */
export function newSmsCode(): string {
  return String(randomInt(0, 10 ** SMS_CODE_LENGTH)).padStart(SMS_CODE_LENGTH, '0');
}

export interface IssueDeps {
  db: Db;
  clock: Clock;
  config: Config;
  log: Logger;
  sms: SmsGateway;
  captcha: CaptchaGateway;
}

/**
 * GET /oauth/valid-code: decides and records a new code in one transaction (per-IP cap, resend
 * cooldown of `config.sms.resendCooldownS`, per-phone hour and Shanghai-day caps), then sends it.
 * Registered or not, the answer is the same: a phone's first code login creates the member.
 */
export async function issueCode(deps: IssueDeps, phone: string, ip: string, captcha?: CaptchaAnswer): Promise<void> {
  const { db, clock, config } = deps;
  const captchaPassed = await verifyCaptcha(deps.captcha, captcha, ip);
  const code = await db.transaction(async (tx) => {
    await lockKey(tx, `sms:phone:${phone}`);
    await lockKey(tx, `sms:ip:${ip}`);
    const refused = await guardCode(tx, deps, phone, ip, captchaPassed);
    if (refused) throw new ApiError(refused.error, { data: refused.data, values: refused.values });
    const now = clock.now();
    const hourAgo = new Date(now.getTime() - HOUR_MS);
    const [fromIp] = await tx
      .select({ n: count() })
      .from(smsCodes)
      .where(and(eq(smsCodes.ip, ip), gt(smsCodes.createdAt, hourAgo)));
    if ((fromIp?.n ?? 0) >= config.sms.perIpPerHour) throw new ApiError(Errors.tooManyFromNetwork);
    const [last] = await tx
      .select({ createdAt: smsCodes.createdAt })
      .from(smsCodes)
      .where(eq(smsCodes.phone, phone))
      .orderBy(desc(smsCodes.id))
      .limit(1);
    if (last) {
      const waitS = Math.ceil((last.createdAt.getTime() + config.sms.resendCooldownS * 1000 - now.getTime()) / 1000);
      if (waitS > 0) throw new ApiError(Errors.codeTooSoon, { data: { retryAfter: waitS }, values: { seconds: waitS } });
    }
    const [inHour] = await tx
      .select({ n: count() })
      .from(smsCodes)
      .where(and(eq(smsCodes.phone, phone), gt(smsCodes.createdAt, hourAgo)));
    if ((inHour?.n ?? 0) >= config.sms.perPhonePerHour) throw new ApiError(Errors.codeTooMany);
    const [inDay] = await tx
      .select({ n: count() })
      .from(smsCodes)
      .where(and(eq(smsCodes.phone, phone), gte(smsCodes.createdAt, shanghaiDayStart(now))));
    if ((inDay?.n ?? 0) >= config.sms.perPhonePerDay) throw new ApiError(Errors.codeTooMany);
    const fresh = newSmsCode();
    await tx.insert(smsCodes).values({
      phone,
      codeHash: codeHash(phone, fresh),
      ip,
      createdAt: now,
      expiresAt: new Date(now.getTime() + SMS_CODE_TTL_MS),
    });
    return fresh;
  });
  // Sent after the commit (a provider call must not hold the locks); a failed send still counts
  // against the caps, so a failing provider cannot be hammered.
  try {
    await deps.sms.sendCode(phone, code, deps.log);
  } catch (err) {
    deps.log.error('sms send failed', { phone, error: err instanceof Error ? err.message : String(err) });
    throw new ApiError(Errors.network);
  }
}

/**
 * Checks a code inside the caller's transaction. Only the latest code of the phone counts; it is
 * single use, lives 5 minutes, and dies after 5 wrong tries (a sixth try fails even when right).
 * A wrong try is recorded, so the caller must commit before refusing.
 */
export async function consumeCode(tx: Tx, phone: string, code: string, clock: Clock): Promise<'ok' | 'wrong'> {
  if (!isValidSmsCode(code)) return 'wrong';
  const [row] = await tx.select().from(smsCodes).where(eq(smsCodes.phone, phone)).orderBy(desc(smsCodes.id)).limit(1).for('update');
  const now = clock.now();
  if (!row || row.usedAt || row.expiresAt <= now || row.tries >= SMS_CODE_MAX_TRIES) return 'wrong';
  if (row.codeHash !== codeHash(phone, code.trim())) {
    await tx
      .update(smsCodes)
      .set({ tries: row.tries + 1 })
      .where(eq(smsCodes.id, row.id));
    return 'wrong';
  }
  await tx.update(smsCodes).set({ usedAt: now }).where(eq(smsCodes.id, row.id));
  return 'ok';
}
