import Cookies from 'universal-cookie';
import type { SessionInput } from '../../../machines/session.machine';

/** Session cookie names of DESIGN.md §5 (set by the server, readable by the app). */
export const SESSION_COOKIES = ['token', 'openId', 'username', 'userLevel', 'wxAvatar', 'wxNicName', 'customerId'] as const;

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
  for (const name of SESSION_COOKIES) if (name !== 'openId') jar.remove(name, { path: '/' });
}
