/** sessionStorage key: the silent authorization was tried in this browser session. */
export const SILENT_LOGIN_FLAG = 'wxSilentLoginTried';

/**
 * The silent open-id login (spec §1, issue 2): in the messaging app's browser, on a cold load with no
 * session and no open-id ticket, go once per browser session through the provider's authorize
 * redirect (the server comes back to this path with session cookies or a ticket). Returns the URL
 * to go to, or undefined to stay.
 */
export function silentLoginUrl(env: {
  userAgent: string;
  cookies: Record<string, string | undefined>;
  storage: Pick<Storage, 'getItem' | 'setItem'> | undefined;
  path: string;
}): string | undefined {
  if (!/MicroMessenger/i.test(env.userAgent)) return undefined;
  if (env.cookies.token || env.cookies.openId) return undefined;
  if (!env.storage || env.storage.getItem(SILENT_LOGIN_FLAG)) return undefined;
  env.storage.setItem(SILENT_LOGIN_FLAG, '1');
  return `/api/oauth/wechat/authorize?from=${encodeURIComponent(env.path)}`;
}
