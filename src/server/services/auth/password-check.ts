import { and, count, eq, gt } from 'drizzle-orm';
import type { Clock } from '../../../domain/clock';
import { WRONG_PASSWORD_LIMIT_PER_HOUR } from '../../../domain/limits';
import type { Tx } from '../../db/client';
import { loginFailures } from '../../db/schema/index';
import { hashPassword, verifyPassword } from '../auth-password';
import { accountByPhone, type Account } from './accounts';
import { lockKey } from './locks';
import { recordFailure } from './login-guard';

const HOUR_MS = 60 * 60_000;

const dummyHashes = new Map<number, Promise<string>>();
/** Unknown phones still pay one scrypt at the configured cost, so timing does not tell who is registered. */
function hashForUnknown(N: number): Promise<string> {
  if (!dummyHashes.has(N)) dummyHashes.set(N, hashPassword('no-such-account', N));
  return dummyHashes.get(N)!;
}

/**
 * A phone and password checked the one way (a password login, a staff binding): under the phone's
 * login lock; past WRONG_PASSWORD_LIMIT_PER_HOUR wrong ones in the hour, 'locked'; a wrong one is
 * counted for the phone and the network `ip` (login_failures, in the caller's transaction: commit it
 * before refusing) and is 'wrong';
 * else the account (locked for the caller's change).
 */
export async function checkPassword(
  tx: Tx,
  clock: Clock,
  scryptN: number,
  phone: string,
  password: string,
  ip?: string,
): Promise<{ account: Account } | 'locked' | 'wrong'> {
  await lockKey(tx, `login:${phone}`);
  const now = clock.now();
  const [failures] = await tx
    .select({ n: count() })
    .from(loginFailures)
    .where(and(eq(loginFailures.phone, phone), gt(loginFailures.at, new Date(now.getTime() - HOUR_MS))));
  if ((failures?.n ?? 0) >= WRONG_PASSWORD_LIMIT_PER_HOUR) return 'locked';
  const account = await accountByPhone(tx, phone, true);
  const good = await verifyPassword(password, account?.passwordHash ?? (await hashForUnknown(scryptN)));
  if (!account || !account.passwordHash || !good) {
    await recordFailure(tx, clock, phone, ip, 'password');
    return 'wrong';
  }
  return { account };
}
