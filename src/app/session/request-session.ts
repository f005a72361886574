import { redirect } from 'react-router-dom';
import Cookies from 'universal-cookie';
import type { SessionInput } from '../../../machines/auth-session.machine';
import { sessionInputFromCookies } from './session-cookies';

/** What the server puts in the router's request context for loaders (entry-server.tsx). */
export interface RequestSession {
  session: SessionInput;
  cookies: Record<string, string | undefined>;
}

/** The request's cookies: the server's request context, or the browser's cookie jar. */
export function cookiesFrom(context: unknown): Record<string, string | undefined> {
  const ctx = context as Partial<RequestSession> | undefined;
  if (ctx?.cookies) return ctx.cookies;
  if (typeof document !== 'undefined') return new Cookies(undefined, { path: '/' }).getAll({ doNotParse: true }) as Record<string, string>;
  return {};
}

/** The session a loader runs for: on the server from the request's cookies, in the browser from the jar. */
export function sessionFrom(context: unknown): SessionInput {
  const ctx = context as Partial<RequestSession> | undefined;
  if (ctx?.session) return ctx.session;
  return sessionInputFromCookies(cookiesFrom(context));
}

/** `/login/<from>`: the path to come back to, URL-encoded as one segment (DESIGN.md §5). */
export function loginPath(from?: string): string {
  return from && from !== '/' && !from.startsWith('/login') ? `/login/${encodeURIComponent(from)}` : '/login';
}

/** The `from` parameter of /login/:from, decoded and kept to same-origin paths (else Homepage). */
export function returnPath(from: string | undefined): string {
  if (!from) return '/';
  let path = from;
  try {
    if (from.includes('%')) path = decodeURIComponent(from);
  } catch {
    return '/';
  }
  if (!path.startsWith('/') || path.startsWith('//') || path.startsWith('/\\') || path.startsWith('/login')) return '/';
  return path;
}

/** Loader guard of routes with requiresLogin: a visitor goes to /login/<this path> and comes back after login. */
export function requireMember(context: unknown, request: Request): void {
  if (sessionFrom(context).token) return;
  const url = new URL(request.url);
  throw redirect(loginPath(url.pathname + url.search));
}

/** Loader guard of the login screens: a logged-in member lands on Homepage (spec §2). */
export function redirectMemberHome(context: unknown): void {
  if (sessionFrom(context).token) throw redirect('/');
}
