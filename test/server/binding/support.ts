import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { accounts, sessions, teachers } from '../../../src/server/db/schema/index';
import { createOpenIdTicket } from '../../../src/server/services/auth/openid-tickets';
import { hashPassword } from '../../../src/server/services/auth-password';
import { hashSecret, newSecret } from '../../../src/server/services/auth-tokens';
import type { TestServer } from '../support/harness';

let n = 0;
/** A fresh open id from the silent login: the ticket the bind calls take (decision 003). */
export async function openIdTicket(s: TestServer, openId = `o_bind_${++n}_${Date.now()}`): Promise<{ openId: string; ticket: string }> {
  return { openId, ticket: await createOpenIdTicket(s.deps.db, openId, s.clock) };
}

let phones = 0;
/** A phone nobody uses yet. */
export const freshPhone = () => `1360000${String(++phones).padStart(4, '0')}`;

/** An account of a role with a session (and a password when given). */
export async function account(
  s: TestServer,
  role: 'member' | 'teacher' | 'staff',
  password?: string,
): Promise<{ id: number; token: string; phone: string }> {
  const now = s.clock.now();
  const phone = freshPhone();
  const [a] = await s.deps.db
    .insert(accounts)
    .values({
      phone,
      role,
      name: `${role} ${phone.slice(-4)}`,
      passwordHash: password ? await hashPassword(password, s.deps.config.passwordScryptN) : null,
      createdAt: now,
    })
    .returning({ id: accounts.id });
  const token = newSecret();
  await s.deps.db
    .insert(sessions)
    .values({ accountId: a!.id, tokenHash: hashSecret(token), createdAt: now, expiresAt: new Date(now.getTime() + 30 * 86_400_000) });
  return { id: a!.id, token, phone };
}

/** A catalogue teacher without a login (seeded catalogue: club 1). */
export async function newTeacher(s: TestServer, name = '新老师'): Promise<number> {
  const [t] = await s.deps.db
    .insert(teachers)
    .values({ name, photo: '/x.svg', clubId: 1, styles: ['hatha'] })
    .returning({ id: teachers.id });
  return t!.id;
}

/** Staff issue a code for a teacher (a login on a fresh phone when the teacher has none). */
export async function issue(
  s: TestServer,
  staffToken: string,
  teacherId: number,
  extra: Record<string, unknown> = {},
): Promise<{ id: number; code: string }> {
  const r = await s.call('POST', '/api/staff/bind-codes', { token: staffToken, body: { teacherId, phone: freshPhone(), ...extra } });
  expect(r.body.code, JSON.stringify(r.body)).toBe(200);
  return r.body.data;
}

export const teacherAccountId = async (s: TestServer, teacherId: number) =>
  (await s.deps.db.select({ a: teachers.accountId }).from(teachers).where(eq(teachers.id, teacherId)))[0]!.a!;

/** The role an open id logs in as through the silent login's open-id login, or the refusal code. */
export async function silentLoginAs(s: TestServer, openId: string): Promise<string | number> {
  const { ticket } = await openIdTicket(s, openId);
  const r = await s.call('POST', '/api/oauth/login', { body: { loginType: 'openid', openid: ticket } });
  return r.body.code === 200 ? (r.body.data.role as string) : (r.body.code as number);
}

/** A tiny JPEG (its magic bytes are what the server checks). */
export const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 1), Buffer.from([0xff, 0xd9])]);

/** A new teacher's form, filled, with a fresh phone's SMS code and a fresh open id. */
export async function teacherForm(
  s: TestServer,
  sendCode: (s: TestServer, phone: string) => Promise<string>,
  over: Record<string, unknown> = {},
) {
  const phone = freshPhone();
  const me = await openIdTicket(s);
  return {
    me,
    body: {
      openid: me.ticket,
      name: '新来的老师',
      phone,
      smsCode: await sendCode(s, phone),
      clubId: 1,
      styles: ['hatha', 'yin'],
      photo: JPEG.toString('base64'),
      ...over,
    },
  };
}
