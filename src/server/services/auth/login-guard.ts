import { and, count, eq, gt, max } from 'drizzle-orm';
import type { Clock } from '../../../domain/clock';
import { Errors, type ErrorDef } from '../../../domain/errors';
import { HOUR_MS } from '../../../domain/time';
import type { Config } from '../../config';
import type { Tx } from '../../db/client';
import { loginFailures, smsCodes } from '../../db/schema/index';
import type { CaptchaGateway } from '../../gateways/captcha';
import { lockKey } from './locks';

/** What the widget gave the member: Tencent Captcha's ticket and random string. */
export interface CaptchaAnswer {
  ticket: string;
  randstr: string;
}

export interface GuardDeps {
  clock: Clock;
  config: Pick<Config, 'loginGuard'>;
  captcha: CaptchaGateway;
}

/** A refusal the guard decided, with what the app needs to go on (the widget's app id, the seconds to wait). */
export interface GuardRefusal {
  error: ErrorDef;
  data?: Record<string, number | string>;
  values?: Record<string, number>;
}

/** The longest wait between two tries on one phone (seconds). */
const MAX_WAIT_S = 15 * 60;

/**
 * Asks the provider about a ticket before any transaction opens (a provider call must not hold the
 * locks): true only for a genuine one; undefined when the member sent none.
 */
export async function verifyCaptcha(
  captcha: CaptchaGateway,
  answer: CaptchaAnswer | null | undefined,
  ip: string,
): Promise<boolean | undefined> {
  if (!answer) return undefined;
  return captcha.verify(answer.ticket, answer.randstr, ip);
}

/** Wrong passwords and codes in the last hour, for one phone or one network, and when the last was. */
async function failures(tx: Tx, column: typeof loginFailures.phone | typeof loginFailures.ip, value: string, since: Date) {
  const [row] = await tx
    .select({ n: count(), last: max(loginFailures.at) })
    .from(loginFailures)
    .where(and(eq(column, value), gt(loginFailures.at, since)));
  return { n: row?.n ?? 0, last: row?.last ?? null };
}

/**
 * Before a password or code is checked, inside the login's transaction after the phone's lock (then
 * the network's: always in that order). Counts the last hour's wrong tries:
 * - a network past `blockNetworkAfterFailures` is refused (10009) whatever the phone: a list of phones
 *   tried one by one from one network stops there;
 * - past `captchaAfterPhoneFailures` on the phone or `captchaAfterNetworkFailures` on the network,
 *   a genuine security check is needed (10020 asks for it, 10021 refuses a failed one);
 * - past the phone's threshold each further try waits twice as long as the one before (1 s, 2 s,
 *   4 s ... up to 15 minutes after the last wrong one; 10022 says how long).
 */
export async function guardLogin(
  tx: Tx,
  deps: GuardDeps,
  phone: string,
  ip: string,
  captchaPassed: boolean | undefined,
): Promise<GuardRefusal | undefined> {
  const { captchaAfterPhoneFailures, captchaAfterNetworkFailures, blockNetworkAfterFailures } = deps.config.loginGuard;
  await lockKey(tx, `login:ip:${ip}`);
  const now = deps.clock.now();
  const since = new Date(now.getTime() - HOUR_MS);
  const network = await failures(tx, loginFailures.ip, ip, since);
  if (network.n >= blockNetworkAfterFailures) return { error: Errors.tooManyFromNetwork };
  const onPhone = await failures(tx, loginFailures.phone, phone, since);
  if (onPhone.n >= captchaAfterPhoneFailures && onPhone.last) {
    const waitS = Math.min(2 ** (onPhone.n - captchaAfterPhoneFailures), MAX_WAIT_S);
    const leftS = Math.ceil((onPhone.last.getTime() + waitS * 1000 - now.getTime()) / 1000);
    if (leftS > 0) return { error: Errors.tryLater, data: { retryAfter: leftS }, values: { seconds: leftS } };
  }
  if (onPhone.n >= captchaAfterPhoneFailures || network.n >= captchaAfterNetworkFailures) return captchaStep(deps, captchaPassed);
  return undefined;
}

/** Before an SMS code is sent (inside its transaction, after its locks): a network that asked for many codes, or keeps failing, needs the check. */
export async function guardCode(
  tx: Tx,
  deps: GuardDeps & { config: Pick<Config, 'loginGuard'> },
  phone: string,
  ip: string,
  captchaPassed: boolean | undefined,
): Promise<GuardRefusal | undefined> {
  const { smsCaptchaAfterNetworkCodes, captchaAfterNetworkFailures, captchaAfterPhoneFailures } = deps.config.loginGuard;
  const since = new Date(deps.clock.now().getTime() - HOUR_MS);
  const [codes] = await tx
    .select({ n: count() })
    .from(smsCodes)
    .where(and(eq(smsCodes.ip, ip), gt(smsCodes.createdAt, since)));
  const network = await failures(tx, loginFailures.ip, ip, since);
  const onPhone = await failures(tx, loginFailures.phone, phone, since);
  if ((codes?.n ?? 0) >= smsCaptchaAfterNetworkCodes || network.n >= captchaAfterNetworkFailures || onPhone.n >= captchaAfterPhoneFailures)
    return captchaStep(deps, captchaPassed);
  return undefined;
}

function captchaStep(deps: GuardDeps, passed: boolean | undefined): GuardRefusal | undefined {
  if (passed === undefined)
    return { error: Errors.captchaRequired, data: { captchaAppId: deps.captcha.appId, widget: deps.captcha.widget } };
  if (!passed) return { error: Errors.captchaFailed, data: { captchaAppId: deps.captcha.appId, widget: deps.captcha.widget } };
  return undefined;
}

/** A wrong password or code, counted for the phone and the network (in the caller's transaction: commit before refusing). */
export async function recordFailure(tx: Tx, clock: Clock, phone: string, ip: string | undefined, kind: 'password' | 'code'): Promise<void> {
  await tx.insert(loginFailures).values({ phone, ip: ip ?? null, kind, at: clock.now() });
}
