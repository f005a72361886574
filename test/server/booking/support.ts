import { eq } from 'drizzle-orm';
import { accounts, bookings, classes, memberCards, sessions } from '../../../src/server/db/schema/index';
import { hashSecret, newSecret } from '../../../src/server/services/auth-tokens';
import type { TestServer } from '../support/harness';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** Shanghai wall time "YYYY-MM-DD HH:MM" as an instant (UTC+08:00). */
export const sh = (s: string) => new Date(`${s.replace(' ', 'T')}:00+08:00`);

let phones = 0;

/** A member with a live session, written straight to the database (like a login would). */
export async function newMember(s: TestServer, level = '2'): Promise<{ id: number; token: string }> {
  const now = s.clock.now();
  const [a] = await s.deps.db
    .insert(accounts)
    .values({ phone: `1370000${String(++phones).padStart(4, '0')}`, level, role: 'member', createdAt: now })
    .returning({ id: accounts.id });
  const token = newSecret();
  await s.deps.db
    .insert(sessions)
    .values({ accountId: a!.id, tokenHash: hashSecret(token), createdAt: now, expiresAt: new Date(now.getTime() + 30 * DAY) });
  return { id: a!.id, token };
}

/** A class at club 1 (seeded), regular, beginner, one hour; starts tomorrow 19:00 Shanghai unless told. */
export async function newClass(s: TestServer, over: Partial<typeof classes.$inferInsert> = {}) {
  const [c] = await s.deps.db
    .insert(classes)
    .values({
      clubId: 1,
      room: 'T教室',
      roomEn: 'Test room',
      teacherId: 1,
      // a seeded teacher who confirmed it, so members see the teacher (decision 029)
      teacherState: 'confirmed',
      classType: 'regular',
      style: 'hatha',
      effect: 'flexibility',
      difficulty: 'beginner',
      title: '测试课',
      titleEn: 'Test class',
      startsAt: sh('2026-11-21 19:00'),
      durationMin: 60,
      capacity: 10,
      queueCapacity: 10,
      usesCost: 1,
      createdAt: s.clock.now(),
      ...over,
    })
    .returning();
  return c!;
}

/** A card in use (10 uses, valid six months) for the member unless told otherwise. */
export async function newCard(s: TestServer, accountId: number, over: Partial<typeof memberCards.$inferInsert> = {}) {
  const now = s.clock.now().getTime();
  const [c] = await s.deps.db
    .insert(memberCards)
    .values({
      accountId,
      cardType: 'count',
      name: '测试次卡',
      nameEn: 'Test count card',
      number: `T${accountId}-${Math.random().toString(36).slice(2, 10)}`,
      status: 'in_use',
      usesTotal: 10,
      usesLeft: 10,
      validityDays: 180,
      validFrom: new Date(now - 10 * DAY),
      validUntil: new Date(now + 170 * DAY),
      allowedClassTypes: ['regular', 'small-group', 'open'],
      createdAt: new Date(now),
      ...over,
    })
    .returning();
  return c!;
}

export async function cardRow(s: TestServer, id: number) {
  const [c] = await s.deps.db.select().from(memberCards).where(eq(memberCards.id, id));
  return c!;
}

export async function classRow(s: TestServer, id: number) {
  const [c] = await s.deps.db.select().from(classes).where(eq(classes.id, id));
  return c!;
}

export async function bookingRow(s: TestServer, id: number) {
  const [b] = await s.deps.db.select().from(bookings).where(eq(bookings.id, id));
  return b!;
}

/** POST /book with the notice agreed. */
export function book(s: TestServer, token: string, classId: number, cardId: number, headers: Record<string, string> = {}) {
  return s.call('POST', '/api/customers/classes/book', { token, body: { classId, cardId, agreeNotice: true }, headers });
}
