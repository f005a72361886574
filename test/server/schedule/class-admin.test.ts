import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bookings, staffClubs } from '../../../src/server/db/schema/index';
import { shanghaiDate, shanghaiFormat } from '../../../src/domain/time';
import { book, bookingRow, cardRow, classRow, DAY, HOUR, newCard, newClass, newMember } from '../booking/support';
import { newStaff } from '../orders/support';
import { startTestServer, type TestServer } from '../support/harness';
import { newTeacher, noticesAbout } from './support';

/**
 * Staff create, edit and cancel classes (decision 041): every rule and refusal with its
 * code and field, the role checks (no token, a member's, a teacher's, staff of another club), a new
 * time or teacher asking the teacher again, members told of a new time and of a cancel, and a cancel
 * giving every use back and clearing the queue in one go.
 */
const s = await startTestServer({ seed: true });
let n = 0;

const day = (at: Date) => shanghaiDate(at);
const hm = (at: Date) => shanghaiFormat(at, 'HH:mm');
/** A weekday at 10:00 Shanghai, `days` ahead (past the seeded schedule's rooms: room names are the test's own). */
const slotIn = (days: number) => {
  const d = day(new Date(s.clock.now().getTime() + days * DAY));
  return { day: d, start: '10:00', end: '11:00' };
};

const create = (srv: TestServer, token: string | undefined, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  srv.call('POST', '/api/staff/classes', { token, body, headers });
const edit = (token: string | undefined, id: number, body: Record<string, unknown>) =>
  s.call('POST', `/api/staff/classes/${id}`, { token, body });
const cancel = (token: string | undefined, id: number, headers: Record<string, string> = {}) =>
  s.call('POST', `/api/staff/classes/${id}/cancel`, { token, body: {}, headers });

function newBody(over: Record<string, unknown> = {}) {
  return { clubId: 1, classType: 'regular', title: `新课${++n}`, room: `R${n}`, capacity: 10, ...slotIn(20), ...over };
}

/** A class in the test's own room, `days` out, with its staff. */
async function aClass(over: Record<string, unknown> = {}) {
  const staff = await newStaff(s);
  const body = newBody(over);
  const r = await create(s, staff.token, body);
  expect(r.body.code).toBe(200);
  return { staff, id: r.body.data.id as number, body };
}

describe('who may create, edit and cancel classes', () => {
  it('401 without a token; 403 70008 for a member and a teacher, and nothing is written', async () => {
    const member = await newMember(s);
    const teacher = await newTeacher(s);
    const target = await newClass(s, { startsAt: new Date(s.clock.now().getTime() + 5 * DAY) });
    for (const token of [undefined, member.token, teacher.token]) {
      for (const r of [
        await create(s, token, newBody()),
        await edit(token, target.id, { capacity: 5, ...slotIn(5) }),
        await cancel(token, target.id),
      ]) {
        if (token) expect([r.status, r.body.code]).toEqual([403, 70008]);
        else expect(r.status).toBe(401);
      }
    }
    expect((await classRow(s, target.id)).status).toBe('open');
  });

  it('staff of another club: creating there is 70166 naming clubId; another club’s class answers as if absent (404 naming id)', async () => {
    const mine = await newStaff(s);
    await s.deps.db.insert(staffClubs).values({ accountId: mine.id, clubId: 2 });
    const r = await create(s, mine.token, newBody({ clubId: 1 }));
    expect([r.status, r.body.code, r.body.field]).toEqual([403, 70166, 'clubId']);
    const { id } = await aClass({ clubId: 1 });
    for (const x of [await edit(mine.token, id, { capacity: 5, ...slotIn(20) }), await cancel(mine.token, id)]) {
      expect([x.status, x.body.code, x.body.field]).toEqual([404, 70004, 'id']);
    }
    expect((await classRow(s, id)).status).toBe('open');
    // at their own club they may
    expect((await create(s, mine.token, newBody({ clubId: 2 }))).body.code).toBe(200);
  });
});

describe('creating a class', () => {
  it('stores the Shanghai start and end; no teacher: needs a teacher; with a teacher: asked (a notice) and waiting', async () => {
    const staff = await newStaff(s);
    const body = newBody({ start: '19:00', end: '20:30' });
    const r = await create(s, staff.token, body);
    expect(r.body.code).toBe(200);
    const c = await classRow(s, r.body.data.id);
    expect([hm(c.startsAt), c.durationMin, day(c.startsAt), c.teacherState, c.teacherId, c.capacity]).toEqual([
      '19:00',
      90,
      body.day,
      'not_started',
      null,
      10,
    ]);
    const teacher = await newTeacher(s);
    const t = await create(s, staff.token, newBody({ teacherId: teacher.id }));
    expect(t.body.data).toMatchObject({ state: 'waiting', teacherId: teacher.id });
    expect(await noticesAbout(s, teacher.accountId, `新课${n}`)).toBe(1);
  });

  it('refusals name their field: end not after start 70160, a past start 70161, capacity 0 or 201 70162, an unknown teacher or club 70004', async () => {
    const staff = await newStaff(s);
    const cases: Array<[Record<string, unknown>, number, number, string]> = [
      [{ start: '11:00', end: '11:00' }, 400, 70160, 'end'],
      [{ start: '11:00', end: '10:00' }, 400, 70160, 'end'],
      [{ day: day(s.clock.now()), start: '00:00', end: '00:30' }, 400, 70161, 'start'],
      [{ capacity: 0 }, 400, 70162, 'capacity'],
      [{ capacity: 201 }, 400, 70162, 'capacity'],
      [{ teacherId: 999_999 }, 404, 70004, 'teacherId'],
      [{ clubId: 999_999 }, 404, 70004, 'clubId'],
    ];
    for (const [over, status, code, field] of cases) {
      const body = newBody(over);
      const r = await create(s, staff.token, body);
      expect([r.status, r.body.code, r.body.field], JSON.stringify(over)).toEqual([status, code, field]);
      expect(r.body.message).toBeTruthy();
    }
    // 1 and 200 are fine
    expect((await create(s, staff.token, newBody({ capacity: 1 }))).body.code).toBe(200);
    expect((await create(s, staff.token, newBody({ capacity: 200 }))).body.code).toBe(200);
  });

  it('the refusal is in English for an English caller', async () => {
    const staff = await newStaff(s);
    const r = await create(s, staff.token, newBody({ start: '11:00', end: '10:00' }), { 'Accept-Language': 'en' });
    expect(r.body.code).toBe(70160);
    expect(r.body.message).toMatch(/[a-z]/i);
    expect(r.body.message).not.toMatch(/[\u4e00-\u9fff]/);
  });

  it('no overlap in one room of one club (70163 naming start); touching ends, another room or another club are fine', async () => {
    const { staff, body } = await aClass({ start: '10:00', end: '11:00' });
    const same = { ...body, title: 'x' };
    const clash = await create(s, staff.token, { ...same, start: '10:30', end: '11:30' });
    expect([clash.status, clash.body.code, clash.body.field]).toEqual([409, 70163, 'start']);
    expect(
      (await create(s, staff.token, { ...same, room: ` ${String(body.room).toLowerCase()} `, start: '09:00', end: '12:00' })).body.code,
    ).toBe(70163);
    expect((await create(s, staff.token, { ...same, start: '11:00', end: '12:00' })).body.code).toBe(200);
    expect((await create(s, staff.token, { ...same, start: '09:00', end: '10:00' })).body.code).toBe(200);
    expect((await create(s, staff.token, { ...same, room: `${body.room}b` })).body.code).toBe(200);
    expect((await create(s, staff.token, { ...same, clubId: 2 })).body.code).toBe(200);
  });

  it('a retry under one Idempotency-Key creates one class', async () => {
    const staff = await newStaff(s);
    const body = newBody();
    const headers = { 'Idempotency-Key': `create-class-${n}-abcdefgh` };
    const a = await create(s, staff.token, body, headers);
    const b = await create(s, staff.token, body, headers);
    expect(b.body.data.id).toBe(a.body.data.id);
  });
});

describe('editing a class', () => {
  it('capacity never below the seats booked (70164 naming capacity); to exactly the booked count is fine; raising it books the queue', async () => {
    const { staff, id, body } = await aClass({ capacity: 1 });
    const [m1, m2] = [await newMember(s), await newMember(s)];
    const [c1, c2] = [await newCard(s, m1.id), await newCard(s, m2.id)];
    s.clock.set(new Date((await classRow(s, id)).startsAt.getTime() - 2 * DAY));
    expect((await book(s, m1.token, id, c1.id)).body.data.state).toBe('booked');
    expect((await book(s, m2.token, id, c2.id)).body.data.state).toBe('queued');
    const at = { day: body.day, start: body.start, end: body.end };
    const low = await edit(staff.token, id, { capacity: 0, ...at });
    expect([low.body.code, low.body.field]).toEqual([70162, 'capacity']);
    const up = await edit(staff.token, id, { capacity: 2, ...at });
    expect(up.body.code).toBe(200);
    const seats = await s.deps.db
      .select()
      .from(bookings)
      .where(and(eq(bookings.classId, id), eq(bookings.state, 'booked')));
    expect(seats).toHaveLength(2);
    const below = await edit(staff.token, id, { capacity: 1, ...at });
    expect([below.status, below.body.code, below.body.field]).toEqual([409, 70164, 'capacity']);
    expect((await classRow(s, id)).capacity).toBe(2);
  });

  it('a new time asks the teacher again and tells the booked members; the same time and teacher change nothing', async () => {
    const teacher = await newTeacher(s);
    const { staff, id, body } = await aClass({ teacherId: teacher.id });
    const title = String(body.title);
    const m = await newMember(s);
    const card = await newCard(s, m.id);
    const start = (await classRow(s, id)).startsAt;
    s.clock.set(new Date(start.getTime() - 2 * DAY));
    expect((await teacherConfirm(teacher.token, id)).body.code).toBe(200);
    expect((await book(s, m.token, id, card.id)).body.code).toBe(200);
    const same = await edit(staff.token, id, { capacity: 12, day: body.day, start: body.start, end: body.end });
    expect(same.body.data).toMatchObject({ state: 'confirmed', capacity: 12 });
    expect(await noticesAbout(s, m.id, title)).toBe(0);
    const moved = await edit(staff.token, id, { capacity: 12, day: body.day, start: '15:00', end: '16:00' });
    expect(moved.body.data).toMatchObject({ state: 'waiting', teacherId: teacher.id });
    expect(hm((await classRow(s, id)).startsAt)).toBe('15:00');
    expect(await noticesAbout(s, m.id, title), 'the member is told the new time').toBe(1);
    expect(await noticesAbout(s, teacher.accountId, title), 'asked at creation and again now').toBe(2);
  });

  it('a new teacher is asked; the booked members are told the teacher changed', async () => {
    const [t1, t2] = [await newTeacher(s), await newTeacher(s)];
    const { staff, id, body } = await aClass({ teacherId: t1.id });
    const r = await edit(staff.token, id, { capacity: 10, day: body.day, start: body.start, end: body.end, teacherId: t2.id });
    expect(r.body.data).toMatchObject({ state: 'waiting', teacherId: t2.id });
    expect(await noticesAbout(s, t2.accountId, String(body.title))).toBe(1);
    const bad = await edit(staff.token, id, { capacity: 10, day: body.day, start: body.start, end: body.end, teacherId: 999_999 });
    expect([bad.body.code, bad.body.field]).toEqual([70004, 'teacherId']);
  });

  it('refusals: a started class 70165, a cancelled one 70167, end before start 70160, into the past 70161, onto a taken room 70163', async () => {
    const { staff, id, body } = await aClass();
    const other = await create(s, staff.token, { ...body, title: 'y', start: '12:00', end: '13:00' });
    const at = { capacity: 10, day: body.day };
    expect((await edit(staff.token, id, { ...at, start: '11:00', end: '10:00' })).body).toMatchObject({ code: 70160, field: 'end' });
    expect((await edit(staff.token, id, { ...at, start: '12:30', end: '13:30' })).body).toMatchObject({ code: 70163, field: 'start' });
    expect((await edit(staff.token, id, { ...at, day: day(s.clock.now()), start: '00:00', end: '00:10' })).body).toMatchObject({
      code: 70161,
      field: 'start',
    });
    expect((await cancel(staff.token, other.body.data.id)).body.code).toBe(200);
    expect((await edit(staff.token, other.body.data.id, { ...at, start: '12:00', end: '13:00' })).body.code).toBe(70167);
    s.clock.set((await classRow(s, id)).startsAt);
    expect((await edit(staff.token, id, { ...at, start: '10:00', end: '11:00' })).body).toMatchObject({ code: 70165 });
    expect((await cancel(staff.token, id)).body.code).toBe(70165);
    s.clock.set(new Date((await classRow(s, id)).startsAt.getTime() - 30 * DAY));
  });
});

describe('cancelling a class', () => {
  it('every seat cancelled with its uses given back, the queue cleared, each member and the teacher told, the class gone from the week', async () => {
    const teacher = await newTeacher(s);
    const { staff, id, body } = await aClass({ capacity: 2, teacherId: teacher.id });
    const title = String(body.title);
    s.clock.set(new Date((await classRow(s, id)).startsAt.getTime() - 2 * DAY));
    const members = [await newMember(s), await newMember(s), await newMember(s)];
    const cards = [await newCard(s, members[0]!.id), await newCard(s, members[1]!.id), await newCard(s, members[2]!.id)];
    const states = [];
    for (let i = 0; i < 3; i++) states.push((await book(s, members[i]!.token, id, cards[i]!.id)).body.data.state);
    expect(states).toEqual(['booked', 'booked', 'queued']);
    const before = await Promise.all(cards.map((c) => cardRow(s, c.id)));
    const r = await cancel(staff.token, id, { 'Idempotency-Key': `cancel-class-${id}-abcdefgh` });
    expect(r.body.data).toEqual({ id, status: 'cancelled', bookingsCancelled: 2, queueCleared: 1, usesReturned: 2 });
    const again = await cancel(staff.token, id, { 'Idempotency-Key': `cancel-class-${id}-abcdefgh` });
    expect(again.body.data).toEqual(r.body.data);
    const after = await Promise.all(cards.map((c) => cardRow(s, c.id)));
    expect(after.map((c, i) => c.usesLeft! - before[i]!.usesLeft!)).toEqual([1, 1, 0]);
    const rows = await s.deps.db.select().from(bookings).where(eq(bookings.classId, id));
    expect(rows.map((b) => [b.state, b.cancelReason]).sort()).toEqual([
      ['cancelled', 'class-cancelled'],
      ['cancelled', 'class-cancelled'],
      ['queue_cancelled', 'class-cancelled'],
    ]);
    for (const m of members) expect(await noticesAbout(s, m.id, title)).toBe(1);
    expect(await noticesAbout(s, teacher.accountId, title)).toBe(2);
    const c = await classRow(s, id);
    expect([c.status, c.bookedCount, c.cancelledBy]).toEqual(['cancelled', 0, staff.id]);
    const week = await s.call('GET', `/api/staff/schedule?week=${body.day}`, { token: staff.token });
    expect(week.body.data.classes.map((x: { id: number }) => x.id)).not.toContain(id);
    // a second cancel without the key: already cancelled; a booking now: refused
    expect((await cancel(staff.token, id)).body.code).toBe(70167);
    const late = await newMember(s);
    expect((await book(s, late.token, id, (await newCard(s, late.id)).id)).body.code).not.toBe(200);
    expect((await bookingRow(s, rows[0]!.id)).state).toBe('cancelled');
    s.clock.set(new Date(s.clock.now().getTime() - 30 * DAY));
  });
});

describe('confirmations at a glance', () => {
  it('the staff week counts confirmed, waiting, declined and no teacher, and says which classes the caller may edit', async () => {
    const staff = await newStaff(s);
    const far = new Date(s.clock.now().getTime() + 300 * DAY);
    const at = (h: number) => new Date(far.getTime() + h * HOUR);
    const [t] = [await newTeacher(s)];
    await newClass(s, { clubId: 1, startsAt: at(0), teacherId: null, teacherState: 'not_started' });
    await newClass(s, { clubId: 1, startsAt: at(1), teacherId: t.id, teacherState: 'waiting' });
    await newClass(s, { clubId: 2, startsAt: at(2), teacherId: t.id, teacherState: 'unconfirmed' });
    await newClass(s, { clubId: 2, startsAt: at(3), teacherId: t.id, teacherState: 'confirmed' });
    await newClass(s, { clubId: 2, startsAt: at(4), teacherId: t.id, teacherState: 'confirmed' });
    const r = await s.call('GET', `/api/staff/schedule?week=${day(far)}`, { token: staff.token });
    expect(r.body.data.counts).toEqual({ confirmed: 2, waiting: 1, declined: 1, noTeacher: 1 });
    expect(r.body.data.classes.every((c: { canEdit: boolean }) => c.canEdit)).toBe(true);
    await s.deps.db.insert(staffClubs).values({ accountId: staff.id, clubId: 2 });
    const mine = await s.call('GET', `/api/staff/schedule?week=${day(far)}`, { token: staff.token });
    expect(mine.body.data.classes.map((c: { canEdit: boolean }) => c.canEdit)).toEqual([false, false, true, true, true]);
    expect(mine.body.data.clubs.map((c: { id: number }) => c.id)).toEqual([2]);
  });
});

const teacherConfirm = (token: string, id: number) => s.call('POST', `/api/teacher/schedule/${id}/confirm`, { token, body: {} });
