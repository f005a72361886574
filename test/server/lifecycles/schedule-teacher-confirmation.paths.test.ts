import { expect } from 'vitest';
import { chartStateOf, type TeacherScheduleState } from '../../../machines/domain/schedule-teacher-confirmation-transitions';
import { scheduleTeacherConfirmationMachine } from '../../../machines/domain/schedule-teacher-confirmation.machine';
import { shanghaiDate } from '../../../src/domain/time';
import { passTime } from '../../../src/server/jobs/time-passing';
import { DAY, HOUR, newClass } from '../booking/support';
import { newStaff } from '../orders/support';
import { assign, newTeacher, noticesAbout, scheduleRow, teacherCall } from '../schedule/support';
import { startTestServer } from '../support/harness';
import { accepted, defineServerPaths } from '../support/server-paths';

/**
 * The teacher schedule chart (spec §4 teacher schedule, decision 029) against the server: staff assign
 * a teacher (POST /staff/schedule/{id}/teacher), the teacher confirms or declines with a reason
 * (POST /teacher/schedule/{id}/confirm|decline), the time-passing job moves a class still waiting at
 * its deadline. Each state is read back from staff's week (GET /staff/schedule) and the table, with
 * what it promises: whose week holds the class and what that teacher may do, whether members see the
 * teacher (GET /customers/classes/schedule), who was told (the teacher asked, staff on a decline or a
 * lapse). The world remembers what the test did last, so a state the server reaches by another event
 * than the chart's is caught.
 */
const s = await startTestServer({ seed: true });
const REASON = '那天要去外地培训';
let classes = 0;

interface World {
  classId: number;
  title: string;
  staff: { id: number; token: string };
  teachers: Array<{ id: number; accountId: number; token: string; name: string }>;
  /** the teacher now assigned (index into teachers), or null */
  current: number | null;
  /** what the test did last: assign, confirm, decline or deadline */
  last: string | null;
  /** times each teacher was asked; times staff were told */
  asked: number[];
  staffTold: number;
}

const day = (w: World) => async () => shanghaiDate((await scheduleRow(s, w.classId)).startsAt);
async function staffView(w: World) {
  const week = (await s.call('GET', `/api/staff/schedule?week=${await day(w)()}`, { token: w.staff.token })).body.data as {
    classes: Array<Record<string, unknown>>;
  };
  return week.classes.find((c) => c.id === w.classId)!;
}
async function teacherView(w: World, i: number) {
  const week = (await s.call('GET', `/api/teacher/schedule?week=${await day(w)()}`, { token: w.teachers[i]!.token })).body.data as {
    classes: Array<Record<string, unknown>>;
  };
  return week.classes.find((c) => c.id === w.classId);
}
async function memberView(w: World) {
  const list = (await s.call('GET', `/api/customers/classes/schedule?date=${await day(w)()}`)).body.data as Array<{
    id: number;
    teacherName: string | null;
    teacherId: number | null;
  }>;
  return list.find((c) => c.id === w.classId)!;
}
const teacherToken = (w: World) => w.teachers[w.current ?? 0]!.token;

defineServerPaths<World>(s, {
  machine: scheduleTeacherConfirmationMachine,
  record: "a class's teacher confirmation",
  async start() {
    const title = `排课路径${++classes}`;
    const cls = await newClass(s, {
      teacherId: null,
      teacherState: 'not_started',
      title,
      titleEn: title,
      startsAt: new Date(s.clock.now().getTime() + 3 * DAY),
    });
    return {
      classId: cls.id,
      title,
      staff: await newStaff(s),
      teachers: [await newTeacher(s), await newTeacher(s)],
      current: null,
      last: null,
      asked: [0, 0],
      staffTold: 0,
    };
  },
  events: {
    'schedule.assign': async (w) => {
      // the other teacher than the one asked now: a reassignment asks a new teacher
      const next = w.current === 0 ? 1 : 0;
      accepted(await assign(s, w.staff.token, w.classId, w.teachers[next]!.id), 'assign');
      w.current = next;
      w.asked[next]!++;
      w.last = 'assign';
    },
    'schedule.confirm': async (w) => {
      accepted(await teacherCall(s, teacherToken(w), 'confirm', w.classId), 'confirm');
      w.last = 'confirm';
    },
    'schedule.decline': async (w) => {
      accepted(await teacherCall(s, teacherToken(w), 'decline', w.classId, { reason: REASON }), 'decline');
      w.last = 'decline';
      w.staffTold++;
    },
    'schedule.deadline': async (w) => {
      const c = await scheduleRow(s, w.classId);
      const due = (c.teacherConfirmBy ?? new Date(c.startsAt.getTime() - 24 * HOUR)).getTime();
      if (due > s.clock.now().getTime()) s.clock.set(due);
      const moved = await passTime(s.deps.db, s.clock.now());
      if ((await scheduleRow(s, w.classId)).teacherState !== c.teacherState) {
        w.last = 'deadline';
        w.staffTold++;
      }
      expect(moved.schedules).toBeGreaterThanOrEqual(0);
    },
  },
  async read(w) {
    return {
      stored: chartStateOf((await scheduleRow(s, w.classId)).teacherState),
      shown: chartStateOf((await staffView(w)).state as TeacherScheduleState),
    };
  },
  states: {
    notStarted: async (w) => {
      expect(await staffView(w)).toMatchObject({ teacherId: null, teacherName: null, canAssign: true, confirmBy: null });
      expect(await teacherView(w, 0)).toBeUndefined();
      expect(await teacherView(w, 1)).toBeUndefined();
      expect(await memberView(w)).toMatchObject({ teacherId: null, teacherName: null });
      expect(w.last).toBe(null);
    },
    waiting: async (w) => {
      const t = w.teachers[w.current!]!;
      expect(await staffView(w)).toMatchObject({ teacherId: t.id, teacherName: t.name, declineReason: null, canAssign: true });
      expect(await teacherView(w, w.current!), 'in the asked teacher’s week, to answer').toMatchObject({
        state: 'waiting',
        canConfirm: true,
        canDecline: true,
        declineReason: null,
      });
      expect(await teacherView(w, 1 - w.current!), 'not in the other teacher’s week').toBeUndefined();
      expect((await scheduleRow(s, w.classId)).teacherConfirmBy, 'a deadline to answer by').toBeTruthy();
      expect(await memberView(w), 'members do not see a teacher not yet confirmed').toMatchObject({ teacherId: null, teacherName: null });
      expect(await noticesAbout(s, t.accountId, w.title), 'the teacher was asked').toBe(w.asked[w.current!]);
      expect(w.last).toBe('assign');
    },
    confirmed: async (w) => {
      const t = w.teachers[w.current!]!;
      expect(await teacherView(w, w.current!)).toMatchObject({
        state: 'confirmed',
        canConfirm: false,
        canDecline: false,
        declineReason: null,
      });
      expect(await memberView(w), 'members see the confirmed teacher').toMatchObject({ teacherId: t.id, teacherName: t.name });
      expect(await noticesAbout(s, w.staff.id, w.title)).toBe(w.staffTold);
      expect(w.last).toBe('confirm');
    },
    unconfirmed: async (w) => {
      const t = w.teachers[w.current!]!;
      const view = await staffView(w);
      expect(view).toMatchObject({ teacherId: t.id, canAssign: true, declineReason: w.last === 'decline' ? REASON : null });
      expect(await teacherView(w, w.current!)).toMatchObject({ state: 'unconfirmed', canConfirm: false, canDecline: false });
      expect(await memberView(w), 'members see no teacher').toMatchObject({ teacherId: null, teacherName: null });
      expect(await noticesAbout(s, w.staff.id, w.title), 'staff were told').toBe(w.staffTold);
      expect(w.staffTold).toBeGreaterThan(0);
      expect(['decline', 'deadline']).toContain(w.last);
    },
  },
});
