import { and, eq, isNull, sql } from 'drizzle-orm';
import { getCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import { Errors } from '../../domain/errors';
import type { Db } from '../db/client';
import { perTurn } from '../db/per-turn';
import { perDatabase } from '../db/per-database';
import { accounts, sessions } from '../db/schema/index';
import type { Context } from 'hono';
import type { AppEnv, Caller, Deps } from '../env';
import { hashSecret } from '../services/auth-tokens';
import { ApiError } from './api-error';

/** The header spec §7 names. */
export const TOKEN_HEADER = 'authorization-token';

/** The caller of a request, from its Authorization-token header. */
function callerFor(c: Context<AppEnv>): Promise<Caller | undefined> {
  return callerForToken(c.var.deps, c.req.header(TOKEN_HEADER));
}

/**
 * The session lookup of many tokens, kept prepared per database: built once, and one round trip a turn
 * once its connection has prepared it (decision 048, "Statements kept prepared"). The hashes are one
 * array parameter, so the text is the same for any number of tokens.
 */
const sessionLookup = perDatabase((db: Db) =>
  db
    .select({
      tokenHash: sessions.tokenHash,
      expiresAt: sessions.expiresAt,
      sessionId: sessions.id,
      accountId: accounts.id,
      role: accounts.role,
      level: accounts.level,
      phone: accounts.phone,
      banned: accounts.banned,
      passwordChangeOnly: sessions.passwordChangeOnly,
    })
    .from(sessions)
    .innerJoin(accounts, eq(accounts.id, sessions.accountId))
    .where(and(sql`${sessions.tokenHash} = any(${sql.placeholder('hashes')}::text[])`, isNull(sessions.revokedAt)))
    .prepare('session_lookup'),
);

/** The sessions of the tokens asked in one turn of the event loop, in one statement (`perTurn`). */
const sessionsOf = perTurn(async (db: Db, hashes: readonly string[]) => {
  const rows = await sessionLookup(db).execute({ hashes: [...new Set(hashes)] });
  const byHash = new Map(rows.map((r) => [r.tokenHash, r]));
  return hashes.map((h) => byHash.get(h));
});

/** Finds the live session for a token: not revoked, not expired, account not banned. */
export async function callerForToken(deps: Pick<Deps, 'db' | 'clock'>, rawToken: string | undefined): Promise<Caller | undefined> {
  const token = rawToken?.trim();
  if (!token) return undefined;
  const now = deps.clock.now();
  const row = await sessionsOf(deps.db, hashSecret(token));
  if (!row || row.banned || row.expiresAt.getTime() <= now.getTime()) return undefined;
  return {
    sessionId: row.sessionId,
    accountId: row.accountId,
    role: row.role as Caller['role'],
    level: row.level,
    phone: row.phone,
    passwordChangeOnly: row.passwordChangeOnly,
  };
}

/**
 * Protected endpoints: HTTP 401 with code 401 without a valid token (spec §7); a session that must
 * first set a new password (decision 054) is refused 10016 (403) here, so no route can forget it.
 */
export const requireAuth = createMiddleware<AppEnv>(async (c, next) => {
  const caller = await callerFor(c);
  if (!caller) throw new ApiError(Errors.loginExpired);
  if (caller.passwordChangeOnly) throw new ApiError(Errors.passwordChangeRequired);
  c.set('caller', caller);
  await next();
});

/** The two calls a session that must set a new password may make (decision 054): set it, and log out. */
export const requireSession = createMiddleware<AppEnv>(async (c, next) => {
  const caller = await callerFor(c);
  if (!caller) throw new ApiError(Errors.loginExpired);
  c.set('caller', caller);
  await next();
});

/**
 * Files a plain link opens (the booking's .ics): the Authorization-token header, else the token
 * cookie the server set at login. Only for GET routes that change nothing, so a cross-site form
 * cannot use the cookie to act for the member.
 */
export const requireAuthOrCookie = createMiddleware<AppEnv>(async (c, next) => {
  const caller = (await callerFor(c)) ?? (await callerForToken(c.var.deps, getCookie(c, 'token')));
  if (!caller) throw new ApiError(Errors.loginExpired);
  if (caller.passwordChangeOnly) throw new ApiError(Errors.passwordChangeRequired);
  c.set('caller', caller);
  await next();
});

/**
 * Public endpoints that show more to a member (member prices, own notices); a bad token is ignored,
 * and so is a session that must first set a new password: it sees what a visitor sees.
 */
export const optionalAuth = createMiddleware<AppEnv>(async (c, next) => {
  const caller = await callerFor(c);
  if (caller && !caller.passwordChangeOnly) c.set('caller', caller);
  await next();
});
