import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Clock } from '../../../domain/clock';
import { TOKEN_TTL_DAYS } from '../../../domain/limits';
import type { Db, Tx } from '../../db/client';
import { accounts, sessions } from '../../db/schema/index';
import { hashSecret, newSecret } from '../auth-tokens';
import type { TokenCheck } from '../../../contracts/auth';

const TOKEN_TTL_MS = TOKEN_TTL_DAYS * 24 * 60 * 60_000;

/**
 * A new session for every login: 128-bit token returned once, only its hash stored; 300 days.
 * `passwordChangeOnly`: a login with an initial password, which may only set a new one (decision 054).
 */
export async function createSession(tx: Db | Tx, accountId: number, clock: Clock, passwordChangeOnly = false): Promise<string> {
  const token = newSecret();
  const now = clock.now();
  await tx.insert(sessions).values({
    accountId,
    tokenHash: hashSecret(token),
    createdAt: now,
    expiresAt: new Date(now.getTime() + TOKEN_TTL_MS),
    passwordChangeOnly,
  });
  return token;
}

/** Logout: this one session ends now. */
export async function revokeSession(db: Db | Tx, sessionId: number, clock: Clock): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: clock.now() })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

/** Password reset, change and ban: every live session of the account ends (except one, when given). */
export async function revokeAccountSessions(db: Db | Tx, accountId: number, clock: Clock, exceptSessionId?: number): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: clock.now() })
    .where(
      and(
        eq(sessions.accountId, accountId),
        isNull(sessions.revokedAt),
        exceptSessionId === undefined ? sql`true` : ne(sessions.id, exceptSessionId),
      ),
    );
}

/**
 * POST /oauth/token/verify: a token is valid while its session is live (not revoked, not expired) and
 * its account is not banned. Every other case answers the same `valid: false`, so nothing leaks.
 */
export async function checkToken(db: Db, token: string, clock: Clock): Promise<TokenCheck> {
  const rows = token
    ? await db
        .select({ id: accounts.id, level: accounts.level, banned: accounts.banned })
        .from(sessions)
        .innerJoin(accounts, eq(accounts.id, sessions.accountId))
        .where(and(eq(sessions.tokenHash, hashSecret(token)), isNull(sessions.revokedAt), gt(sessions.expiresAt, clock.now())))
        .limit(1)
    : [];
  const row = rows[0];
  if (!row || row.banned) return { valid: false, id: null, level: null };
  return { valid: true, id: row.id, level: row.level };
}
