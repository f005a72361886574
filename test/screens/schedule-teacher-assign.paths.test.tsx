// @vitest-environment jsdom
import { expect } from 'vitest';
import { scheduleTeacherAssignMachine, type TeacherAssignContext } from '../../machines/schedule-teacher-assign.machine';
import { shanghaiDate } from '../../src/domain/time';
import { DAY, newClass } from '../server/booking/support';
import { newStaff } from '../server/orders/support';
import { newTeacher, noticesAbout, scheduleRow } from '../server/schedule/support';
import { startScreenHarness } from './support/screen-harness';
import { defineScreenPaths, oneKeyPerIntent, sentBy, type World } from './support/screen-paths';

/**
 * Staff assigning a class's teacher on /staff/classes (decision 029), on the real screen
 * against the real server: choose a teacher, assign; the class then waits for that teacher, who is
 * asked (a notice); a refusal (the class has started meanwhile) says why; a network failure offers a
 * retry under the same key.
 */
const h = await startScreenHarness({ seed: true });
let n = 0;

interface Staff {
  classId: number;
  title: string;
  startsAt: Date;
  teachers: Array<{ id: number; accountId: number; name: string }>;
  /** the teacher the test chose last (index), or null */
  chosen: number | null;
}
type W = World<Staff>;

const ok = { code: 200, status: true, data: {} };
const started = { code: 60051, status: false, data: null };

const row = (w: W) => document.querySelector<HTMLElement>(`[data-staff-class="${w.classId}"]`)!;
const assignButton = (w: W) => row(w).querySelector<HTMLButtonElement>('[data-action="assign"]');
const picker = (w: W) => row(w).querySelector<HTMLSelectElement>('select');
const feedback = (w: W) => row(w).querySelector('[role="alert"]')?.textContent || null;
const badge = (w: W) => row(w).querySelector('[data-schedule-state]')?.getAttribute('data-schedule-state');
const within = async (check: () => void | Promise<void>) => {
  for (let i = 0; ; i++) {
    try {
      return await check();
    } catch (err) {
      if (i > 30) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
};

async function nobodyAsked(w: W) {
  expect((await scheduleRow(h.server, w.classId)).teacherState).toBe('not_started');
  for (const t of w.teachers) expect(await noticesAbout(h.server, t.accountId, w.title)).toBe(0);
}

defineScreenPaths<Staff>(h, {
  machine: scheduleTeacherAssignMachine,
  screen: '/staff/classes',
  inputs: { 'a class nobody teaches yet': { classId: 1 } },
  cases: {
    'teacher.choose': [{ teacherId: 1 }, { teacherId: 2 }],
    'xstate.done.actor.assign': [
      { output: ok, answer: { server: true } },
      // the class started while the staff member was choosing
      { output: started, answer: { server: true, arrange: async (w: W) => h.server.clock.set(w.startsAt) } },
    ],
    'xstate.error.actor.assign': [{ error: new Error('network') }],
  },
  // the walk's teacher ids 1 and 2 stand for the world's two teachers; choosing the one chosen already changes nothing
  offer: (e, s) =>
    !(e.type === 'teacher.choose' && (s.context as TeacherAssignContext).teacherId === (e as unknown as { teacherId: number }).teacherId),
  project: (c: TeacherAssignContext) => ({ teacherId: c.teacherId, errorCode: c.errorCode ?? null }),
  requests: { assign: { method: 'POST', path: /^\/api\/staff\/schedule\/\d+\/teacher$/ } },

  async start(hh) {
    const staff = await newStaff(hh.server);
    const teachers = [await newTeacher(hh.server, `排课老师${++n}甲`), await newTeacher(hh.server, `排课老师${n}乙`)];
    const title = `安排课${n}`;
    // three weeks out: past the seeded schedule, so the week holds only the tests' classes
    const startsAt = new Date(hh.server.clock.now().getTime() + 21 * DAY);
    const cls = await newClass(hh.server, { teacherId: null, teacherState: 'not_started', title, titleEn: title, startsAt });
    hh.jar.setClientCookie('token', staff.token);
    const ui = await hh.open(`/staff/classes?week=${shanghaiDate(startsAt)}`);
    return { ui, classId: cls.id, title, startsAt, teachers, chosen: null };
  },

  events: {
    'teacher.choose': async (w, e) => {
      const i = (e as unknown as { teacherId: number }).teacherId - 1;
      await w.ui.user.selectOptions(picker(w)!, String(w.teachers[i]!.id));
      w.chosen = i;
    },
    'teacher.assign': (w) => w.ui.user.click(assignButton(w)!),
    'network.retry': (w) => w.ui.user.click(assignButton(w)!),
  },

  states: {
    ready: async (w) => {
      expect(badge(w)).toBe('not_started');
      expect(feedback(w)).toBe(null);
      expect(assignButton(w)?.textContent).toBe('安排');
      expect(picker(w)?.value).toBe(w.chosen === null ? '' : String(w.teachers[w.chosen]!.id));
      expect(assignButton(w)?.disabled, 'assign works once a teacher is chosen').toBe(w.chosen === null);
      await nobodyAsked(w);
    },
    assigning: async (w) => {
      expect(assignButton(w)?.textContent).toBe('安排中…');
      expect(assignButton(w)?.disabled).toBe(true);
      expect(w.held.get('assign')!.at(-1)!.body).toEqual({ teacherId: w.teachers[w.chosen!]!.id });
    },
    refused: async (w) => {
      expect(feedback(w)).toBe('课程已开始，不能再更改老师安排');
      expect(assignButton(w)?.disabled).toBe(true);
      await nobodyAsked(w);
    },
    unreachable: async (w) => {
      expect(feedback(w)).toBe('网络无法连接');
      expect(assignButton(w)?.textContent).toBe('重试');
      await nobodyAsked(w);
    },
    assigned: async (w) => {
      const t = w.teachers[w.chosen!]!;
      expect(await scheduleRow(h.server, w.classId)).toMatchObject({ teacherState: 'waiting', teacherId: t.id });
      expect(await noticesAbout(h.server, t.accountId, w.title), 'the teacher was asked once').toBe(1);
      expect(await noticesAbout(h.server, w.teachers[1 - w.chosen!]!.accountId, w.title)).toBe(0);
      await within(() => {
        expect(badge(w)).toBe('waiting');
        expect(row(w).textContent).toContain(t.name);
      });
    },
  },

  effects: {
    ...oneKeyPerIntent<Staff>('assign', { intent: 'teacher.assign', retry: 'network.retry' }),
    // choosing a teacher sends nothing: the choice waits for the assign button, which it enables
    'teacher.choose': (w, _e, before) => {
      expect(sentBy(w, 'assign', before), 'choosing assigns nothing').toEqual([]);
      expect(assignButton(w)?.textContent).toBe('安排');
      expect(assignButton(w)?.disabled).toBe(false);
    },
  },
});
