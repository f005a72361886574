import { describe, expect, it } from 'vitest';
import { book, bookingRow, DAY, MINUTE, newCard, newClass, newMember } from '../booking/support';
import { newStaff } from '../orders/support';
import { startTestServer } from '../support/harness';
import { assign, newTeacher, teacherCall } from './support';

/**
 * The teacher's check-in QR link (decision 029): GET /teacher/checkin-link gives the current
 * or next class's /signed link, signed and valid two minutes; a member booked on the class checks in
 * with it through the one check-in service (spec §8 check-in errors); the same link later is refused.
 */
const s = await startTestServer({ seed: true });

/** A teacher confirmed on a class starting in 40 minutes (check-in is open), a member booked on it a day ago. */
async function classNow() {
  const now = s.clock.now();
  s.clock.set(new Date(now.getTime() - DAY));
  const teacher = await newTeacher(s);
  const staff = await newStaff(s);
  const cls = await newClass(s, { teacherId: null, teacherState: 'not_started', startsAt: new Date(now.getTime() + 40 * MINUTE) });
  expect((await assign(s, staff.token, cls.id, teacher.id)).body.code).toBe(200);
  expect((await teacherCall(s, teacher.token, 'confirm', cls.id)).body.code).toBe(200);
  const member = await newMember(s);
  const card = await newCard(s, member.id);
  const booked = await book(s, member.token, cls.id, card.id);
  s.clock.set(now);
  return { teacher, cls, member, card, bookingId: booked.body.data.bookingId as number };
}

const linkOf = async (token: string) => (await s.call('GET', '/api/teacher/checkin-link', { token })).body;
const scan = (token: string | undefined, url: string) => {
  const q = new URL(url).searchParams;
  return s.call('POST', '/api/customers/classes/checkin', { token, body: { classId: Number(q.get('classId')), code: q.get('code') } });
};

describe('the teacher check-in link', () => {
  it('names the current class with a signed link valid two minutes; a booked member checks in with it', async () => {
    const { teacher, cls, member, bookingId } = await classNow();
    const r = await linkOf(teacher.token);
    expect(r.code).toBe(200);
    expect(r.data.class).toMatchObject({ id: cls.id, startsAt: cls.startsAt.toISOString() });
    expect(r.data.url).toMatch(new RegExp(`/signed\\?classId=${cls.id}&code=\\d{13}\\.[0-9a-f]{16}$`));
    expect(new Date(r.data.expiresAt).getTime() - s.clock.now().getTime()).toBe(2 * MINUTE);
    const done = await scan(member.token, r.data.url);
    expect(done.body).toMatchObject({ code: 200, data: { bookingId, state: 'checked_in' } });
    expect((await bookingRow(s, bookingId)).state).toBe('checked_in');
    // spec §8 already signed
    expect((await scan(member.token, r.data.url)).body.code).toBe(70041);
  });

  it('a photo of the QR used after it expired is refused (70048); a tampered code is not a code (70044); a fresh one works', async () => {
    const { teacher, member, bookingId } = await classNow();
    const old = (await linkOf(teacher.token)).data.url as string;
    s.clock.advance(2 * MINUTE);
    const late = await scan(member.token, old);
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ code: 70048, field: 'code' });
    const fresh = (await linkOf(teacher.token)).data.url as string;
    const forged = fresh.replace(/.$/, (ch) => (ch === '0' ? '1' : '0'));
    expect((await scan(member.token, forged)).body).toMatchObject({ code: 70044, field: 'code' });
    // a far expiry the teacher never got is not accepted either, even with another class's key shape
    const far = fresh.replace(/code=(\d{13})/, (_, exp: string) => `code=${Number(exp) + DAY}`);
    expect((await scan(member.token, far)).body.code).toBe(70044);
    expect((await bookingRow(s, bookingId)).state).toBe('booked');
    expect((await scan(member.token, fresh)).body.code).toBe(200);
  });

  // no remaining count (70042) is the same service's, tested with the plain code in test/server/booking/checkin.test.ts
  it('spec §8 check-in errors with the link: not purchased (70040), not logged in (401)', async () => {
    const { teacher } = await classNow();
    const url = (await linkOf(teacher.token)).data.url as string;
    const stranger = await newMember(s);
    expect((await scan(stranger.token, url)).body.code).toBe(70040);
    expect((await scan(undefined, url)).status).toBe(401);
  });

  it('the next class when none is on now; nothing when none is scheduled; 403 for anyone but a teacher, 401 without a token', async () => {
    const teacher = await newTeacher(s);
    expect((await linkOf(teacher.token)).data).toEqual({ class: null, url: null, expiresAt: null });
    const staff = await newStaff(s);
    const later = await newClass(s, {
      teacherId: null,
      teacherState: 'not_started',
      startsAt: new Date(s.clock.now().getTime() + 2 * DAY),
    });
    const sooner = await newClass(s, { teacherId: null, teacherState: 'not_started', startsAt: new Date(s.clock.now().getTime() + DAY) });
    for (const c of [later, sooner]) expect((await assign(s, staff.token, c.id, teacher.id)).body.code).toBe(200);
    const next = (await linkOf(teacher.token)).data;
    expect(next.class.id).toBe(sooner.id);
    expect(next.class.opensAt).toBe(new Date(sooner.startsAt.getTime() - 60 * MINUTE).toISOString());
    const member = await newMember(s);
    expect((await s.call('GET', '/api/teacher/checkin-link', { token: member.token })).status).toBe(403);
    expect((await s.call('GET', '/api/teacher/checkin-link', { token: staff.token })).status).toBe(403);
    expect((await s.call('GET', '/api/teacher/checkin-link')).status).toBe(401);
  });
});
