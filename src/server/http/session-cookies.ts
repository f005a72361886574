import type { Context } from 'hono';
import { setCookie } from 'hono/cookie';
import { COOKIE_MAX_AGE_SECONDS, OPENID_TICKET_TTL_MS } from '../../domain/limits';
import { SESSION_COOKIE_NAMES } from '../../domain/session-cookies';
import type { AppEnv } from '../env';

/** The session values of spec §3 / DESIGN.md §5, one cookie each. */
export interface SessionCookieValues {
  token: string;
  /** an open-id ticket waiting to be bound by the next phone login, or '' */
  openId: string;
  username: string;
  userLevel: string;
  wxAvatar: string;
  wxNicName: string;
  customerId: string;
}

/** Not HttpOnly on purpose: the app reads them (spec §3); a strict CSP keeps injected scripts away. */
function options(c: Context<AppEnv>, maxAge: number) {
  const secure = c.var.deps.config.publicUrl.startsWith('https://');
  return { path: '/', sameSite: 'Lax' as const, maxAge, secure, httpOnly: false };
}

/** Sets every session cookie for 300 days (set by the server so iOS keeps them; DESIGN.md §5). */
export function setSessionCookies(c: Context<AppEnv>, values: SessionCookieValues): void {
  const opts = options(c, COOKIE_MAX_AGE_SECONDS);
  for (const name of SESSION_COOKIE_NAMES) setCookie(c, name, values[name], opts);
}

/** Sets only the open-id ticket cookie (an OAuth round trip that found no bound account). */
export function setOpenIdCookie(c: Context<AppEnv>, ticket: string): void {
  setCookie(c, 'openId', ticket, options(c, COOKIE_MAX_AGE_SECONDS));
}

/** The cookie holding a friend payer's ticket (userinfo scope): read it with `friendPayer`. */
export const FRIEND_TICKET_COOKIE = 'wxFriend';

/**
 * Sets the friend payer's ticket cookie: HttpOnly (only the server reads it), path /, SameSite Lax,
 * for the ticket's 10 minutes. It is no session cookie: logging in or out leaves it alone.
 */
export function setFriendTicketCookie(c: Context<AppEnv>, ticket: string): void {
  const secure = c.var.deps.config.publicUrl.startsWith('https://');
  setCookie(c, FRIEND_TICKET_COOKIE, ticket, { path: '/', sameSite: 'Lax', maxAge: OPENID_TICKET_TTL_MS / 1000, secure, httpOnly: true });
}

/** Logout: every session cookie emptied and expired. */
export function clearSessionCookies(c: Context<AppEnv>): void {
  const opts = options(c, 0);
  for (const name of SESSION_COOKIE_NAMES) setCookie(c, name, '', opts);
}
