import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { accounts, bookings, classes, memberCards, sessions } from '../../../src/server/db/schema/index';
import { hashSecret, newSecret } from '../../../src/server/services/auth-tokens';
import { startTestServer, type TestServer } from '../support/harness';
import { book, bookingRow, cardRow, DAY, newCard, newClass, newMember, sh } from './support';

let staffN = 0;

/** A staff (or teacher) account with a live session. */
async function newStaff(s: TestServer, role: 'staff' | 'teacher' = 'staff') {
  const now = s.clock.now();
  const [a] = await s.deps.db
    .insert(accounts)
    .values({ phone: `1360000${String(++staffN).padStart(4, '0')}`, level: '2', role, createdAt: now })
    .returning({ id: accounts.id });
  const token = newSecret();
  await s.deps.db
    .insert(sessions)
    .values({ accountId: a!.id, tokenHash: hashSecret(token), createdAt: now, expiresAt: new Date(now.getTime() + 30 * DAY) });
  return { id: a!.id, token };
}

async function codeOf(s: TestServer, classId: number) {
  const [c] = await s.deps.db.select({ code: classes.checkinCode }).from(classes).where(eq(classes.id, classId));
  return c!.code;
}

const scan = (s: TestServer, token: string | undefined, classId: number, code: string, key?: string) =>
  s.call('POST', '/api/customers/classes/checkin', { token, body: { classId, code }, headers: key ? { 'Idempotency-Key': key } : {} });

/** Clock: Friday 2026-11-20 10:00 Shanghai (the test epoch); each test sets its own. */
describe('check-in (spec §8 check-in errors; decision 007)', async () => {
  const s = await startTestServer({ seed: true });

  /** A member booked into a class starting at `start` (Shanghai), booked while the clock read a day earlier. */
  async function bookedSeat(start: string, over: Parameters<typeof newCard>[2] = {}) {
    s.clock.set(new Date(sh(start).getTime() - DAY));
    const m = await newMember(s);
    const card = await newCard(s, m.id, over);
    const cls = await newClass(s, { startsAt: sh(start) });
    const r = await book(s, m.token, cls.id, card.id);
    expect(r.body.data.state).toBe('booked');
    return { m, card, cls, bookingId: r.body.data.bookingId as number, code: await codeOf(s, cls.id) };
  }

  it('a member scans the class code from an hour before the start: checked in once; the same key replays, a second scan is "already signed"', async () => {
    const x = await bookedSeat('2026-11-24 19:00');
    s.clock.set(sh('2026-11-24 18:05'));
    const r = await scan(s, x.m.token, x.cls.id, x.code, 'scan-key-0001');
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ bookingId: x.bookingId, classId: x.cls.id, state: 'checked_in', usesSpent: 0 });
    const row = await bookingRow(s, x.bookingId);
    expect(row).toMatchObject({ state: 'checked_in', checkedInBy: x.m.id });
    expect(row.checkedInAt?.toISOString()).toBe(sh('2026-11-24 18:05').toISOString());
    // a double tap (same Idempotency-Key) gets the first answer again
    const again = await scan(s, x.m.token, x.cls.id, x.code, 'scan-key-0001');
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(r.body.data);
    // a new scan is refused: already signed
    const second = await scan(s, x.m.token, x.cls.id, x.code, 'scan-key-0002');
    expect(second.status).toBe(409);
    expect(second.body.code).toBe(70041);
    // my bookings show it checked in, and the use spent at booking stays spent
    const detail = await s.call('GET', `/api/customers/classes/detail?id=${x.cls.id}`, { token: x.m.token });
    expect(detail.body.data.state).toBe('checked-in');
    expect((await cardRow(s, x.card.id)).usesLeft).toBe(9);
  });

  it('refuses a scan without a login (401), with a wrong code (70044, naming the field), and for a missing class', async () => {
    const x = await bookedSeat('2026-11-24 19:00');
    s.clock.set(sh('2026-11-24 18:30'));
    expect((await scan(s, undefined, x.cls.id, x.code)).status).toBe(401);
    const wrong = await scan(s, x.m.token, x.cls.id, 'nope');
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ code: 70044, field: 'code' });
    expect((await scan(s, x.m.token, 999_999, x.code)).body.code).toBe(70044);
    expect((await bookingRow(s, x.bookingId)).state).toBe('booked');
  });

  it('"not purchased": no seat in the class (never booked, only queued, or cancelled) is 70040', async () => {
    const x = await bookedSeat('2026-11-25 19:00');
    // a stranger with the right code
    const stranger = await newMember(s);
    s.clock.set(sh('2026-11-25 18:30'));
    const r = await scan(s, stranger.token, x.cls.id, x.code);
    expect(r.status).toBe(409);
    expect(r.body.code).toBe(70040);
    // a queue entry is not a seat
    s.clock.set(sh('2026-11-24 10:00'));
    const full = await newClass(s, { startsAt: sh('2026-11-25 20:00'), capacity: 1 });
    const a = await newMember(s);
    const q = await newMember(s);
    await book(s, a.token, full.id, (await newCard(s, a.id)).id);
    expect((await book(s, q.token, full.id, (await newCard(s, q.id)).id)).body.data.state).toBe('queued');
    s.clock.set(sh('2026-11-25 19:30'));
    expect((await scan(s, q.token, full.id, await codeOf(s, full.id))).body.code).toBe(70040);
    // a cancelled seat
    s.clock.set(sh('2026-11-24 10:00'));
    const c = await bookedSeat('2026-11-26 19:00');
    s.clock.set(sh('2026-11-25 10:00'));
    expect((await s.call('POST', '/api/customers/classes/cancel', { token: c.m.token, body: { bookingId: c.bookingId } })).status).toBe(
      200,
    );
    s.clock.set(sh('2026-11-26 18:30'));
    expect((await scan(s, c.m.token, c.cls.id, c.code)).body.code).toBe(70040);
  });

  it('check-in opens an hour before the start and closes at the end', async () => {
    const x = await bookedSeat('2026-11-27 19:00');
    s.clock.set(sh('2026-11-27 17:59'));
    const early = await scan(s, x.m.token, x.cls.id, x.code);
    expect(early.status).toBe(409);
    expect(early.body.code).toBe(70043);
    s.clock.set(sh('2026-11-27 20:00'));
    const late = await scan(s, x.m.token, x.cls.id, x.code);
    expect(late.body.code).toBe(70043);
    // a refusal writes nothing (the seat's end is written by the time-passing job: time-passing.test.ts)
    expect((await bookingRow(s, x.bookingId)).state).toBe('booked');
    // during the class it still works
    s.clock.set(sh('2026-11-27 19:59'));
    expect((await scan(s, x.m.token, x.cls.id, x.code)).status).toBe(200);
  });

  it('"no remaining count": a seat that has not paid its class (a count card) pays at the door, or is refused with 70042', async () => {
    const x = await bookedSeat('2026-11-28 19:00');
    // a seat the desk booked without taking the use, on a card now used up
    await s.deps.db.update(bookings).set({ usesSpent: 0 }).where(eq(bookings.id, x.bookingId));
    await s.deps.db.update(memberCards).set({ usesLeft: 0 }).where(eq(memberCards.id, x.card.id));
    s.clock.set(sh('2026-11-28 18:30'));
    const r = await scan(s, x.m.token, x.cls.id, x.code);
    expect(r.status).toBe(409);
    expect(r.body.code).toBe(70042);
    expect((await bookingRow(s, x.bookingId)).state).toBe('booked');
    // with a use left, the door takes it
    await s.deps.db.update(memberCards).set({ usesLeft: 3 }).where(eq(memberCards.id, x.card.id));
    const ok = await scan(s, x.m.token, x.cls.id, x.code);
    expect(ok.body.data.usesSpent).toBe(1);
    expect((await cardRow(s, x.card.id)).usesLeft).toBe(2);
    expect((await bookingRow(s, x.bookingId)).usesSpent).toBe(1);
  });

  it('front desk staff mark a booking checked in; members cannot; teachers and staff read the class code', async () => {
    const x = await bookedSeat('2026-11-29 19:00');
    const staff = await newStaff(s);
    const teacher = await newStaff(s, 'teacher');
    s.clock.set(sh('2026-11-29 18:50'));
    const asMember = await s.call('POST', '/api/staff/classes/checkin', { token: x.m.token, body: { bookingId: x.bookingId } });
    expect(asMember.status).toBe(403);
    expect((await s.call('POST', '/api/staff/classes/checkin', { token: staff.token, body: { bookingId: 999_999 } })).status).toBe(404);
    const r = await s.call('POST', '/api/staff/classes/checkin', { token: staff.token, body: { bookingId: x.bookingId } });
    expect(r.status).toBe(200);
    expect(await bookingRow(s, x.bookingId)).toMatchObject({ state: 'checked_in', checkedInBy: staff.id });
    expect((await s.call('POST', '/api/staff/classes/checkin', { token: staff.token, body: { bookingId: x.bookingId } })).body.code).toBe(
      70041,
    );
    // the class's code: for its teacher's QR and the desk, not for members
    const code = await s.call('GET', `/api/staff/classes/checkin-code?classId=${x.cls.id}`, { token: teacher.token });
    expect(code.body.data).toEqual({ classId: x.cls.id, code: x.code });
    expect((await s.call('GET', `/api/staff/classes/checkin-code?classId=${x.cls.id}`, { token: x.m.token })).status).toBe(403);
    expect(x.code).toMatch(/^[0-9a-f]{8}$/);
  });

  it('ten scans at once (member and desk) check the seat in once and take a missing use once', async () => {
    const x = await bookedSeat('2026-11-30 19:00');
    const staff = await newStaff(s);
    await s.deps.db.update(bookings).set({ usesSpent: 0 }).where(eq(bookings.id, x.bookingId));
    const usesBefore = (await cardRow(s, x.card.id)).usesLeft!;
    s.clock.set(sh('2026-11-30 18:40'));
    const all = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        i % 2
          ? scan(s, x.m.token, x.cls.id, x.code, `race-scan-${i}`)
          : s.call('POST', '/api/staff/classes/checkin', { token: staff.token, body: { bookingId: x.bookingId } }),
      ),
    );
    expect(all.filter((r) => r.status === 200)).toHaveLength(1);
    expect(all.filter((r) => r.body.code === 70041)).toHaveLength(9);
    expect((await cardRow(s, x.card.id)).usesLeft).toBe(usesBefore - 1);
  });

  it('documents the check-in calls in /api/openapi.json', async () => {
    const doc = (await s.call('GET', '/api/openapi.json')).body;
    for (const p of ['/api/customers/classes/checkin', '/api/staff/classes/checkin', '/api/staff/classes/checkin-code'])
      expect(Object.keys(doc.paths)).toContain(p);
  });
});
