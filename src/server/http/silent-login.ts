import type { MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import type { AppEnv } from '../env';

/** Session cookie (no expiry: gone with the browser session): the silent authorization was tried. */
export const SILENT_LOGIN_COOKIE = 'wxSilentTried';

/**
 * The silent open-id login (spec §1): inside the messaging app's browser, a page request
 * with no session, no open-id ticket and no try yet in this browser session goes once through the
 * provider's authorize redirect, which comes back to the same path with session cookies or a ticket.
 * Returns where to send it, or undefined to render the page.
 */
export function silentLoginRedirect(req: {
  userAgent: string;
  cookies: Record<string, string | undefined>;
  path: string;
}): string | undefined {
  if (!/MicroMessenger/i.test(req.userAgent)) return undefined;
  if (req.cookies.token || req.cookies.openId || req.cookies[SILENT_LOGIN_COOKIE]) return undefined;
  return `/api/oauth/wechat/authorize?from=${encodeURIComponent(req.path)}`;
}

/**
 * Decided by the server before any HTML: the first visit loads one page, not a page that
 * then leaves for the authorization and renders again when it comes back.
 */
export const silentLogin: MiddlewareHandler<AppEnv> = async (c, next) => {
  const url = new URL(c.req.url);
  const to = silentLoginRedirect({ userAgent: c.req.header('user-agent') ?? '', cookies: getCookie(c), path: url.pathname + url.search });
  if (!to) return next();
  setCookie(c, SILENT_LOGIN_COOKIE, '1', {
    path: '/',
    sameSite: 'Lax',
    httpOnly: true,
    secure: c.var.deps.config.publicUrl.startsWith('https://'),
  });
  c.header('Cache-Control', 'no-store');
  return c.redirect(to, 302);
};
