import Cookies from 'universal-cookie';
import type { SessionInput } from '../../../machines/auth-session.machine';
import { SESSION_COOKIE_NAMES } from '../../domain/session-cookies';

/** Restores the session from cookies: `token` alone is enough (DESIGN.md §5). */
export function sessionInputFromCookies(cookies: Record<string, string | undefined>): SessionInput {
  const token = cookies.token ? String(cookies.token) : undefined;
  if (!token) return {};
  return {
    token,
    user: {
      customerId: Number(cookies.customerId) || 0,
      // String(): a cookie jar that parses values would turn a phone into a number
      username: String(cookies.username ?? ''),
      userLevel: String(cookies.userLevel ?? ''),
      wxAvatar: cookies.wxAvatar ? String(cookies.wxAvatar) : undefined,
      wxNicName: cookies.wxNicName ? String(cookies.wxNicName) : undefined,
    },
  };
}

/** Expiry and logout: the app drops its copies of the session cookies (the open-id ticket stays). */
export function forgetSessionCookies(): void {
  if (typeof document === 'undefined') return;
  const jar = new Cookies(undefined, { path: '/' });
  for (const name of SESSION_COOKIE_NAMES) if (name !== 'openId') jar.remove(name, { path: '/' });
}
