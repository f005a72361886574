import { describe, expect, it } from 'vitest';
import type { TeacherHome } from '../../../src/contracts/schedule';
import { TeacherHome as TeacherHomeSchema } from '../../../src/contracts/schedule';
import { addDays, shanghaiDate, shanghaiMidnight } from '../../../src/domain/time';
import { DAY, HOUR, newClass, newMember } from '../booking/support';
import { newStaff } from '../orders/support';
import { startTestServer } from '../support/harness';
import { assign, newTeacher, teacherCall } from './support';

/**
 * GET /api/teacher/schedule/home (decision 097): a bound teacher's classes of today's Shanghai day,
 * and every class still waiting for their answer whatever week it is in, soonest deadline first;
 * a member, staff or nobody is refused like the other teacher calls.
 */
const s = await startTestServer({ seed: true });

async function askedIn(teacherId: number, staffToken: string, inMs: number, title: string) {
  const cls = await newClass(s, {
    teacherId: null,
    teacherState: 'not_started',
    title,
    titleEn: `${title} en`,
    startsAt: new Date(s.clock.now().getTime() + inMs),
  });
  expect((await assign(s, staffToken, cls.id, teacherId)).body.code).toBe(200);
  return cls;
}

describe('the teacher home API', () => {
  it("lists today's classes on the Shanghai calendar and every waiting class of any week, soonest deadline first", async () => {
    const staff = await newStaff(s);
    const teacher = await newTeacher(s, '周老师');
    const other = await newTeacher(s, '别的老师');
    const now = s.clock.now();
    const today = shanghaiDate(now);
    // later today (and waiting), tomorrow's first minute (not today), three weeks out (waiting, beyond next week)
    const later = await askedIn(teacher.id, staff.token, 2 * HOUR, '今天的课');
    const tomorrow = await newClass(s, { teacherId: teacher.id, teacherState: 'confirmed', startsAt: shanghaiMidnight(addDays(today, 1)) });
    const farOut = await askedIn(teacher.id, staff.token, 21 * DAY, '三周后的课');
    const soon = await askedIn(teacher.id, staff.token, 2 * DAY, '后天的课');
    // confirmed: no longer waiting; another teacher's waiting class: not mine
    const answered = await askedIn(teacher.id, staff.token, 4 * DAY, '已确认的课');
    expect((await teacherCall(s, teacher.token, 'confirm', answered.id)).body.code).toBe(200);
    const theirs = await askedIn(other.id, staff.token, 3 * HOUR, '别人的课');

    const r = await s.call('GET', '/api/teacher/schedule/home', { token: teacher.token });
    expect(r.status).toBe(200);
    const home = TeacherHomeSchema.parse(r.body.data) as TeacherHome;
    expect(home.today).toBe(today);
    expect(home.teacherName).toBe('周老师');
    expect(home.todayClasses.map((c) => c.id)).toEqual([later.id]);
    expect(home.todayClasses.map((c) => c.id)).not.toContain(tomorrow.id);
    expect(home.waiting.map((c) => c.id)).toEqual([later.id, soon.id, farOut.id]);
    expect(home.waiting.map((c) => c.id)).not.toContain(theirs.id);
    expect(home.waiting.every((c) => c.canConfirm && c.confirmBy !== null)).toBe(true);
    const deadlines = home.waiting.map((c) => Date.parse(c.confirmBy!));
    expect(deadlines).toEqual([...deadlines].sort((a, b) => a - b));
  });

  it('speaks English with the English names where the data has them', async () => {
    const staff = await newStaff(s);
    const teacher = await newTeacher(s, '吴老师');
    await askedIn(teacher.id, staff.token, 5 * DAY, '英文课');
    const r = await s.call('GET', '/api/teacher/schedule/home', { token: teacher.token, headers: { 'Accept-Language': 'en' } });
    expect(r.body.data.teacherName).toBe('吴老师 (en)');
    expect(r.body.data.waiting[0].title).toBe('英文课 en');
  });

  it('a class whose deadline has passed is not waiting any more', async () => {
    const staff = await newStaff(s);
    const teacher = await newTeacher(s, '郑老师');
    const cls = await askedIn(teacher.id, staff.token, 3 * DAY, '过期的课');
    const before = await s.call('GET', '/api/teacher/schedule/home', { token: teacher.token });
    expect(before.body.data.waiting.map((c: { id: number }) => c.id)).toEqual([cls.id]);
    const at = s.clock.now();
    s.clock.set(new Date(cls.startsAt.getTime() - HOUR));
    try {
      const after = await s.call('GET', '/api/teacher/schedule/home', { token: teacher.token });
      expect(after.body.data.waiting).toEqual([]);
    } finally {
      s.clock.set(at);
    }
  });

  it('is refused to nobody (401), a member (403) and staff (403)', async () => {
    expect((await s.call('GET', '/api/teacher/schedule/home')).status).toBe(401);
    const member = await newMember(s);
    expect((await s.call('GET', '/api/teacher/schedule/home', { token: member.token })).status).toBe(403);
    const staff = await newStaff(s);
    expect((await s.call('GET', '/api/teacher/schedule/home', { token: staff.token })).status).toBe(403);
  });
});
