import { and, eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { accounts, classes, notifications, sessions } from '../../../src/server/db/schema/index';
import { DEMO_TEACHER_WAITS_FROM_DAY } from '../../../src/server/db/seed/classes';
import { addDays, shanghaiDate } from '../../../src/domain/time';
import { runDueJobs } from '../../../src/server/jobs/runner';
import { enqueueJob } from '../../../src/server/jobs/queue';
import { TIME_PASSING_JOB } from '../../../src/server/jobs/time-passing';
import { hashSecret, newSecret } from '../../../src/server/services/auth-tokens';
import { book, DAY, HOUR, MINUTE, newCard, newClass, newMember } from '../booking/support';
import { tokenFor } from '../catalog/support';
import { newStaff } from '../orders/support';
import { startTestServer } from '../support/harness';
import { assign, newTeacher, noticesAbout, scheduleRow, teacherCall } from './support';

/**
 * The teacher schedule API (decision 029): every refusal with its code, the role checks
 * (no token, a member's, staff's on teacher calls, another teacher's class), confirming the week,
 * the deadline job, and members told when their class's teacher changes.
 */
const s = await startTestServer({ seed: true });
let n = 0;

/** A class starting in `inMs` with nobody asked, and a teacher asked to teach it by a staff member. */
async function asked(inMs = 3 * DAY) {
  const title = `接口课${++n}`;
  const cls = await newClass(s, {
    teacherId: null,
    teacherState: 'not_started',
    title,
    titleEn: title,
    startsAt: new Date(s.clock.now().getTime() + inMs),
  });
  const staff = await newStaff(s);
  const teacher = await newTeacher(s);
  expect((await assign(s, staff.token, cls.id, teacher.id)).body.code).toBe(200);
  return { cls, title, staff, teacher };
}

const week = (at: Date) => shanghaiDate(at);

describe('who may call the teacher schedule', () => {
  it('teacher calls: 401 without a token, 403 for a member, staff or a teacher account with no teacher profile', async () => {
    const { cls } = await asked();
    const member = await newMember(s);
    const staff = await newStaff(s);
    const [a] = await s.deps.db
      .insert(accounts)
      .values({ phone: '13611112222', role: 'teacher', level: '2', createdAt: s.clock.now() })
      .returning({ id: accounts.id });
    const bare = newSecret();
    await s.deps.db.insert(sessions).values({
      accountId: a!.id,
      tokenHash: hashSecret(bare),
      createdAt: s.clock.now(),
      expiresAt: new Date(s.clock.now().getTime() + DAY),
    });
    const calls = [
      (token?: string) => s.call('GET', '/api/teacher/schedule', { token }),
      (token?: string) => teacherCall(s, token, 'confirm', cls.id),
      (token?: string) => teacherCall(s, token, 'decline', cls.id, { reason: '有事' }),
      (token?: string) => s.call('POST', '/api/teacher/schedule/confirm-week', { token, body: { week: week(cls.startsAt) } }),
    ];
    for (const call of calls) {
      expect((await call()).status).toBe(401);
      for (const token of [member.token, staff.token, bare]) {
        const r = await call(token);
        expect(r.status).toBe(403);
        expect(r.body.code).toBe(70008);
      }
    }
    expect((await scheduleRow(s, cls.id)).teacherState).toBe('waiting');
  });

  it("another teacher's class: 403, nothing changes", async () => {
    const { cls } = await asked();
    const other = await newTeacher(s);
    for (const r of [
      await teacherCall(s, other.token, 'confirm', cls.id),
      await teacherCall(s, other.token, 'decline', cls.id, { reason: '有事' }),
    ]) {
      expect(r.status).toBe(403);
      expect(r.body.code).toBe(70008);
    }
    expect((await scheduleRow(s, cls.id)).teacherState).toBe('waiting');
    const mine = (await s.call('GET', `/api/teacher/schedule?week=${week(cls.startsAt)}`, { token: other.token })).body.data;
    expect(mine.classes).toEqual([]);
  });

  it('staff calls: 401 without a token, 403 for a member or a teacher', async () => {
    const { cls, teacher } = await asked();
    const member = await newMember(s);
    expect((await s.call('GET', '/api/staff/schedule')).status).toBe(401);
    expect((await assign(s, undefined, cls.id, teacher.id)).status).toBe(401);
    for (const token of [member.token, teacher.token]) {
      expect((await s.call('GET', '/api/staff/schedule', { token })).body.code).toBe(70008);
      expect((await assign(s, token, cls.id, teacher.id)).status).toBe(403);
    }
  });
});

describe('answering', () => {
  it('confirm: 200 then 60050 on a second confirm (state changed once); the same Idempotency-Key answers the same', async () => {
    const { cls, teacher } = await asked();
    const key = { 'Idempotency-Key': `confirm-${cls.id}` };
    const first = await teacherCall(s, teacher.token, 'confirm', cls.id, {}, key);
    expect(first.body).toMatchObject({ code: 200, data: { id: cls.id, state: 'confirmed' } });
    expect((await teacherCall(s, teacher.token, 'confirm', cls.id, {}, key)).body).toEqual(first.body);
    const again = await teacherCall(s, teacher.token, 'confirm', cls.id);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe(60050);
    expect(
      (await teacherCall(s, teacher.token, 'decline', cls.id, { reason: '有事' })).body.code,
      'a confirmed class is not declined by the teacher',
    ).toBe(60050);
  });

  it('decline: the reason is required (70003 naming reason), then staff are told with it', async () => {
    const { cls, teacher, staff, title } = await asked();
    for (const body of [{}, { reason: '' }, { reason: '   ' }, { reason: 'x'.repeat(201) }, { reason: 5 }]) {
      const r = await teacherCall(s, teacher.token, 'decline', cls.id, body);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: 70003, field: 'reason' });
    }
    expect((await scheduleRow(s, cls.id)).teacherState).toBe('waiting');
    const r = await teacherCall(s, teacher.token, 'decline', cls.id, { reason: ' 那天生病了 ' });
    expect(r.body).toMatchObject({ code: 200, data: { state: 'unconfirmed' } });
    expect((await scheduleRow(s, cls.id)).teacherDeclineReason).toBe('那天生病了');
    expect(await noticesAbout(s, staff.id, title)).toBe(1);
    const [notice] = await s.deps.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.accountId, staff.id)));
    expect(notice!.body).toContain('那天生病了');
    expect(notice!.bodyEn).toContain('那天生病了');
    expect((await teacherCall(s, teacher.token, 'decline', cls.id, { reason: '再说一次' })).body.code).toBe(60050);
  });

  it('404 for a class that does not exist; 400 for an id that is not one', async () => {
    const teacher = await newTeacher(s);
    expect((await teacherCall(s, teacher.token, 'confirm', 99_999_999)).body).toMatchObject({ code: 70004 });
    expect((await teacherCall(s, teacher.token, 'confirm', 0)).body).toMatchObject({ code: 70003, field: 'id' });
    expect((await s.call('GET', '/api/teacher/schedule?week=2026-02-30', { token: teacher.token })).body).toMatchObject({
      code: 70003,
      field: 'week',
    });
  });

  it('a class that has started: 60051 for the teacher and for staff', async () => {
    const { cls, teacher, staff } = await asked(2 * HOUR);
    s.clock.set(cls.startsAt);
    try {
      // the deadline (the start, as it was assigned late) has passed too: the class is caught up all the same
      expect((await teacherCall(s, teacher.token, 'confirm', cls.id)).body.code).toBe(60051);
      expect((await scheduleRow(s, cls.id)).teacherState).toBe('unconfirmed');
      expect((await assign(s, staff.token, cls.id, teacher.id)).body.code).toBe(60051);
    } finally {
      s.clock.set(new Date(cls.startsAt.getTime() + MINUTE));
    }
  });

  it('past the deadline the class is caught up before the answer: 60050, unconfirmed, staff told once', async () => {
    const { cls, teacher, staff, title } = await asked();
    const by = (await scheduleRow(s, cls.id)).teacherConfirmBy!;
    expect(by.getTime()).toBe(cls.startsAt.getTime() - 24 * HOUR);
    s.clock.set(by);
    expect((await teacherCall(s, teacher.token, 'confirm', cls.id)).body.code).toBe(60050);
    expect((await scheduleRow(s, cls.id)).teacherState).toBe('unconfirmed');
    expect(await noticesAbout(s, staff.id, title)).toBe(1);
    // the job finds nothing more to do for it
    await enqueueJob(s.deps.db, { kind: TIME_PASSING_JOB, runAt: s.clock.now() });
    await runDueJobs(s.deps);
    expect(await noticesAbout(s, staff.id, title)).toBe(1);
  });
});

describe('the deadline job', () => {
  it('moves a class still waiting at its deadline to unconfirmed and tells staff; a confirmed one stays', async () => {
    const a = await asked();
    const b = await asked();
    expect((await teacherCall(s, b.teacher.token, 'confirm', b.cls.id)).body.code).toBe(200);
    s.clock.set(new Date(a.cls.startsAt.getTime() - 24 * HOUR - MINUTE));
    await enqueueJob(s.deps.db, { kind: TIME_PASSING_JOB, runAt: s.clock.now() });
    await runDueJobs(s.deps);
    expect((await scheduleRow(s, a.cls.id)).teacherState, 'a minute before its deadline').toBe('waiting');
    s.clock.advance(MINUTE);
    await enqueueJob(s.deps.db, { kind: TIME_PASSING_JOB, runAt: s.clock.now() });
    await runDueJobs(s.deps);
    expect((await scheduleRow(s, a.cls.id)).teacherState).toBe('unconfirmed');
    expect((await scheduleRow(s, b.cls.id)).teacherState).toBe('confirmed');
    expect(await noticesAbout(s, a.staff.id, a.title)).toBe(1);
    expect(await noticesAbout(s, a.staff.id, b.title)).toBe(0);
  });

  it('the deadline is a setting: TEACHER_CONFIRM_HOURS', async () => {
    const other = await startTestServer({ seed: true, config: { teacherConfirmHours: 48 } });
    const cls = await newClass(other, {
      teacherId: null,
      teacherState: 'not_started',
      startsAt: new Date(other.clock.now().getTime() + 3 * DAY),
    });
    const staff = await newStaff(other);
    const r = await assign(other, staff.token, cls.id, 1);
    expect(r.body.data.confirmBy).toBe(new Date(cls.startsAt.getTime() - 48 * HOUR).toISOString());
  });
});

describe('staff assignment', () => {
  beforeEach(() => s.clock.advance(DAY));

  it('404 for an unknown class or teacher, 400 for a missing teacherId', async () => {
    const { cls, staff } = await asked();
    expect((await assign(s, staff.token, 99_999_999, 1)).body).toMatchObject({ code: 70004, field: 'id' });
    expect((await assign(s, staff.token, cls.id, 99_999_999)).body).toMatchObject({ code: 70004, field: 'teacherId' });
    expect((await s.call('POST', `/api/staff/schedule/${cls.id}/teacher`, { token: staff.token, body: {} })).body).toMatchObject({
      code: 70003,
      field: 'teacherId',
    });
  });

  it('reassigning asks the new teacher, clears the old reason, and tells the booked members; the first assignment tells nobody booked', async () => {
    const title = `换老师${++n}`;
    const cls = await newClass(s, {
      teacherId: null,
      teacherState: 'not_started',
      title,
      titleEn: title,
      startsAt: new Date(s.clock.now().getTime() + 2 * DAY),
    });
    const member = await newMember(s);
    const card = await newCard(s, member.id);
    expect((await book(s, member.token, cls.id, card.id)).body.code).toBe(200);
    const staff = await newStaff(s);
    const [t1, t2] = [await newTeacher(s), await newTeacher(s)];
    expect((await assign(s, staff.token, cls.id, t1.id)).body.code).toBe(200);
    expect(await noticesAbout(s, member.id, title), 'no teacher before: no change to tell').toBe(0);
    expect((await teacherCall(s, t1.token, 'decline', cls.id, { reason: '出差' })).body.code).toBe(200);
    const r = await assign(s, staff.token, cls.id, t2.id);
    expect(r.body.data).toMatchObject({ state: 'waiting', teacherId: t2.id });
    const row = await scheduleRow(s, cls.id);
    expect(row).toMatchObject({ teacherState: 'waiting', teacherId: t2.id, teacherDeclineReason: null });
    expect(await noticesAbout(s, member.id, title)).toBe(1);
    expect(await noticesAbout(s, t2.accountId, title)).toBe(1);
    // the old teacher no longer has it
    const old = (await s.call('GET', `/api/teacher/schedule?week=${week(cls.startsAt)}`, { token: t1.token })).body.data;
    expect(old.classes.map((c: { id: number }) => c.id)).not.toContain(cls.id);
  });
});

describe('the week', () => {
  it('confirm the week confirms what waits for this teacher in that week, nothing else', async () => {
    const teacher = await newTeacher(s);
    const staff = await newStaff(s);
    const start = new Date(s.clock.now().getTime() + 7 * DAY);
    const monday = addDays(week(start), -((new Date(`${week(start)}T00:00:00Z`).getUTCDay() + 6) % 7));
    const at = (days: number, hh: number) => new Date(`${addDays(monday, days)}T${String(hh).padStart(2, '0')}:00:00+08:00`);
    const mk = async (startsAt: Date) => (await newClass(s, { teacherId: null, teacherState: 'not_started', startsAt })).id;
    const [a, b, c, next] = [await mk(at(0, 10)), await mk(at(3, 10)), await mk(at(6, 20)), await mk(at(7, 10))];
    for (const id of [a, b, c, next]) expect((await assign(s, staff.token, id, teacher.id)).body.code).toBe(200);
    expect((await teacherCall(s, teacher.token, 'decline', b, { reason: '有事' })).body.code).toBe(200);
    const other = await asked(8 * DAY);
    const r = await s.call('POST', '/api/teacher/schedule/confirm-week', { token: teacher.token, body: { week: addDays(monday, 2) } });
    expect(r.body.data.confirmed).toEqual([a, c]);
    expect((await scheduleRow(s, b)).teacherState).toBe('unconfirmed');
    expect((await scheduleRow(s, next)).teacherState).toBe('waiting');
    expect((await scheduleRow(s, other.cls.id)).teacherState).toBe('waiting');
    expect(
      (await s.call('POST', '/api/teacher/schedule/confirm-week', { token: teacher.token, body: { week: monday } })).body.data.confirmed,
      'again: nothing left',
    ).toEqual([]);
    const view = (await s.call('GET', `/api/teacher/schedule?week=${addDays(monday, 6)}`, { token: teacher.token })).body.data;
    expect(view).toMatchObject({ week: monday, prevWeek: addDays(monday, -7), nextWeek: addDays(monday, 7), teacherName: teacher.name });
    expect(view.classes.map((x: { id: number; state: string }) => [x.id, x.state])).toEqual([
      [a, 'confirmed'],
      [b, 'unconfirmed'],
      [c, 'confirmed'],
    ]);
    expect(
      (await s.call('POST', '/api/teacher/schedule/confirm-week', { token: teacher.token, body: { week: 'monday' } })).body,
    ).toMatchObject({ code: 70003, field: 'week' });
  });

  it('the demo teacher (林美) logs in and finds classes waiting for confirmation', async () => {
    const fresh = await startTestServer({ seed: true });
    const token = await tokenFor(fresh, '13800000004');
    const day = shanghaiDate(new Date(fresh.clock.now().getTime() + (DEMO_TEACHER_WAITS_FROM_DAY + 1) * DAY));
    const view = (await fresh.call('GET', `/api/teacher/schedule?week=${day}`, { token })).body.data;
    expect(view.teacherName).toBe('林美');
    expect(view.classes.some((c: { state: string; canConfirm: boolean }) => c.state === 'waiting' && c.canConfirm)).toBe(true);
    const [any] = await fresh.deps.db.select().from(classes).where(eq(classes.teacherState, 'not_started'));
    expect(any, 'the seed asks or confirms every class').toBeUndefined();
  });
});
