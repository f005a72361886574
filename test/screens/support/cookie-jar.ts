/**
 * The browser's cookie jar for in-process screen tests: the server's Set-Cookie headers are kept
 * (HttpOnly ones here only, the rest in document.cookie, where the app reads and removes them), and
 * each request sends both, as a browser would on a same-origin fetch.
 */
export class CookieJar {
  private readonly httpOnly = new Map<string, string>();

  constructor(private readonly doc: () => Document) {}

  /** The Cookie header of a request. */
  header(): string {
    const all = new Map<string, string>(this.httpOnly);
    for (const [name, value] of this.clientCookies()) all.set(name, value);
    return [...all].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  /** What the page's scripts see. */
  get(name: string): string | undefined {
    return this.clientCookies().get(name) ?? this.httpOnly.get(name);
  }

  /** Applies a response's Set-Cookie headers. */
  store(setCookies: string[]): void {
    for (const line of setCookies) {
      const [pair = '', ...attrs] = line.split(';').map((part) => part.trim());
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const attr = (key: string) => attrs.find((a) => a.toLowerCase().startsWith(key));
      const maxAge = attr('max-age=');
      const expires = attr('expires=');
      const gone =
        (maxAge !== undefined && Number(maxAge.slice(8)) <= 0) || (expires !== undefined && Date.parse(expires.slice(8)) <= Date.now());
      const isHttpOnly = attr('httponly') !== undefined;
      if (gone) {
        this.httpOnly.delete(name);
        this.doc().cookie = `${name}=; path=/; max-age=0`;
      } else if (isHttpOnly) {
        this.httpOnly.set(name, value);
      } else {
        this.doc().cookie = `${name}=${value}; path=/`;
      }
    }
  }

  /** A cookie the page itself sets (the language switch does). */
  setClientCookie(name: string, value: string): void {
    this.doc().cookie = `${name}=${encodeURIComponent(value)}; path=/`;
  }

  /** Forgets every cookie (before each test). */
  clear(): void {
    this.httpOnly.clear();
    for (const name of this.clientCookies().keys()) this.doc().cookie = `${name}=; path=/; max-age=0`;
  }

  private clientCookies(): Map<string, string> {
    const out = new Map<string, string>();
    const raw = this.doc().cookie;
    if (!raw) return out;
    for (const part of raw.split(';')) {
      const eq = part.indexOf('=');
      if (eq > 0) out.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
    }
    return out;
  }
}
