import type { SessionInput } from '../../../machines/session.machine';

/** Session cookie names of DESIGN.md §5 (set by the server, readable by the app). */
export const SESSION_COOKIES = ['token', 'openId', 'username', 'userLevel', 'wxAvatar', 'wxNicName', 'customerId'] as const;

/** Restores the session from cookies: `token` alone is enough (DESIGN.md §5). */
export function sessionInputFromCookies(cookies: Record<string, string | undefined>): SessionInput {
  const token = cookies.token || undefined;
  if (!token) return {};
  return {
    token,
    user: {
      customerId: Number(cookies.customerId) || 0,
      username: cookies.username ?? '',
      userLevel: cookies.userLevel ?? '',
      wxAvatar: cookies.wxAvatar || undefined,
      wxNicName: cookies.wxNicName || undefined,
    },
  };
}
