import { and, eq, like } from 'drizzle-orm';
import { accounts, classes, notifications, sessions, teachers } from '../../../src/server/db/schema/index';
import { hashSecret, newSecret } from '../../../src/server/services/auth-tokens';
import { freshPhone } from '../binding/support';
import type { TestServer } from '../support/harness';

let phones = 0;

/** A teacher: an account with role teacher and a live session, linked to a new teachers row (as binding leaves it). */
export async function newTeacher(
  s: TestServer,
  name = `老师${phones + 1}`,
): Promise<{ id: number; accountId: number; token: string; name: string }> {
  const now = s.clock.now();
  phones++;
  const [a] = await s.deps.db
    .insert(accounts)
    // one counter with the binding helpers' accounts, so a server both make accounts on never gets a phone twice
    .values({ phone: freshPhone(), level: '2', role: 'teacher', createdAt: now })
    .returning({ id: accounts.id });
  const token = newSecret();
  await s.deps.db
    .insert(sessions)
    .values({ accountId: a!.id, tokenHash: hashSecret(token), createdAt: now, expiresAt: new Date(now.getTime() + 30 * 86_400_000) });
  const [t] = await s.deps.db
    .insert(teachers)
    .values({ name, nameEn: `${name} (en)`, photo: '/media/teachers/1.jpg', accountId: a!.id })
    .returning({ id: teachers.id });
  return { id: t!.id, accountId: a!.id, token, name };
}

/** How many notices an account has whose title names `title` (the class's title). */
export async function noticesAbout(s: TestServer, accountId: number, title: string): Promise<number> {
  const rows = await s.deps.db
    .select({ id: notifications.id })
    .from(notifications)
    .where(and(eq(notifications.accountId, accountId), like(notifications.title, `%${title}%`)));
  return rows.length;
}

export async function scheduleRow(s: TestServer, id: number) {
  const [c] = await s.deps.db.select().from(classes).where(eq(classes.id, id));
  return c!;
}

export const teacherCall = (
  s: TestServer,
  token: string | undefined,
  what: 'confirm' | 'decline',
  id: number,
  body: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) => s.call('POST', `/api/teacher/schedule/${id}/${what}`, { token, body, headers });

export const assign = (s: TestServer, token: string | undefined, id: number, teacherId: number, headers: Record<string, string> = {}) =>
  s.call('POST', `/api/staff/schedule/${id}/teacher`, { token, body: { teacherId }, headers });
