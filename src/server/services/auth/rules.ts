/** Pure rules of the auth flows, unit-tested in test/unit/auth-rules.test.ts. */

/**
 * Where an OAuth round trip may send the browser back: a same-origin path only (no scheme, no host,
 * no protocol-relative "//evil", no backslash tricks). Anything else becomes "/".
 */
export function safeReturnPath(from: string | undefined | null, publicUrl: string): string {
  if (!from || !from.startsWith('/') || from.startsWith('//') || from.includes('\\')) return '/';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(from)) return '/';
  try {
    const base = new URL(publicUrl);
    const url = new URL(from, base);
    if (url.origin !== base.origin) return '/';
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return '/';
  }
}

/** An avatar given by the client is kept only if it is an http(s) URL of sane length. */
export function cleanAvatarUrl(value: string | undefined | null): string | undefined {
  const v = value?.trim();
  if (!v || v.length > 1000) return undefined;
  try {
    const u = new URL(v);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.toString() : undefined;
  } catch {
    return undefined;
  }
}

/** A nickname given by the client: trimmed, at most 64 characters, control characters dropped. */
export function cleanNickname(value: string | undefined | null): string | undefined {
  // eslint-disable-next-line no-control-regex
  const v = value?.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return v ? [...v].slice(0, 64).join('') : undefined;
}
