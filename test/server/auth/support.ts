import { count, eq } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { accounts } from '../../../src/server/db/schema/index';
import { hashPassword } from '../../../src/server/services/auth-password';
import type { TestServer } from '../support/harness';

let network = 0;

/** Asks for a code (from a fresh network each time unless one is given) and reads it back from the demo outbox. */
export async function sendCode(s: TestServer, phone: string, ip = `198.51.100.${(network++ % 250) + 1}`): Promise<string> {
  const r = await s.call('GET', `/api/oauth/valid-code?phone=${phone}`, { headers: { 'x-forwarded-for': ip } });
  if (r.status !== 200) throw new Error(`valid-code ${phone}: ${r.status} ${JSON.stringify(r.body)}`);
  const dev = await s.call('GET', `/api/dev/sms/${phone}`);
  return dev.body.data.code as string;
}

/** Logs in by code (creating the member on first use); returns the login answer. */
export async function codeLogin(s: TestServer, phone: string, extra: Record<string, unknown> = {}) {
  const code = await sendCode(s, phone);
  const r = await s.call('POST', '/api/oauth/login', { body: { username: phone, password: code, loginType: 'code', ...extra } });
  if (r.status !== 200) throw new Error(`code login ${phone}: ${r.status} ${JSON.stringify(r.body)}`);
  return r;
}

/** A member with a password, written straight to the database. */
export async function memberWithPassword(
  s: TestServer,
  phone: string,
  password: string,
  fields: Partial<typeof accounts.$inferInsert> = {},
): Promise<number> {
  const [row] = await s.deps.db
    .insert(accounts)
    .values({ phone, passwordHash: await hashPassword(password, s.deps.config.passwordScryptN), createdAt: s.clock.now(), ...fields })
    .returning({ id: accounts.id });
  return row!.id;
}

export async function setBanned(s: TestServer, id: number, banned = true): Promise<void> {
  await s.deps.db.update(accounts).set({ banned }).where(eq(accounts.id, id));
}

export async function rows(s: TestServer, table: PgTable): Promise<number> {
  const [r] = await s.deps.db.select({ n: count() }).from(table);
  return r?.n ?? 0;
}

/** The Set-Cookie lines of a response, by cookie name. */
export function cookies(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of headers.getSetCookie()) {
    const name = line.slice(0, line.indexOf('='));
    out[name] = line;
  }
  return out;
}

export function cookieValue(line: string | undefined): string | undefined {
  if (!line) return undefined;
  const first = line.split(';')[0]!;
  return decodeURIComponent(first.slice(first.indexOf('=') + 1));
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
