// @vitest-environment jsdom
import { expect } from 'vitest';
import { scheduleConfirmMachine, type ScheduleConfirmContext } from '../../machines/schedule-confirm.machine';
import { shanghaiDate } from '../../src/domain/time';
import { DAY, HOUR, newClass } from '../server/booking/support';
import { newStaff } from '../server/orders/support';
import { assign, newTeacher, noticesAbout, scheduleRow, teacherCall } from '../server/schedule/support';
import { screen, startScreenHarness } from './support/screen-harness';
import { defineScreenPaths, sentBy, type World } from './support/screen-paths';

/**
 * A teacher confirming their schedule (spec §4 teacher schedule, decision 029), on the real
 * screens against the real server: the week (/bindPage/teacherConfirm, "confirm all") and one class
 * (/bindPage/teacherConfirmForm: confirm, or decline with a reason, required). The server stores each
 * answer once; a refusal (answered elsewhere first) says why; a network failure offers a retry under
 * the same key.
 */
const h = await startScreenHarness({ seed: true });
const REASON = '那天要去外地培训';

interface Teacher {
  token: string;
  accountId: number;
  staffId: number;
  kind: 'class' | 'week';
  /** the classes asked of this teacher (one for the form, two in the week) */
  classIds: number[];
  title: string;
  /** what the test typed as the reason, and whether it sent the form without one since */
  typed: string;
  flagged: boolean;
}
type W = World<Teacher>;

const ok = { code: 200, status: true, data: {} };
const notWaiting = { code: 60050, status: false, data: null };
let n = 0;

const alertText = () => screen.queryByRole('alert')?.textContent || null;
const button = (action: string) => document.querySelector<HTMLButtonElement>(`[data-action="${action}"]`);
const states = async (w: W) => Promise.all(w.classIds.map(async (id) => (await scheduleRow(h.server, id)).teacherState));
const badges = () => [...document.querySelectorAll('[data-schedule-state]')].map((e) => e.getAttribute('data-schedule-state'));
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

/** Nothing answered yet: every class still waiting on the server and on the screen. */
async function stillWaiting(w: W) {
  expect(await states(w)).toEqual(w.classIds.map(() => 'waiting'));
  expect(await noticesAbout(h.server, w.staffId, w.title), 'staff not told').toBe(0);
}

defineScreenPaths<Teacher>(h, {
  machine: scheduleConfirmMachine,
  screen: '/bindPage/teacherConfirm(Form)',
  inputs: {
    'one class': { target: { kind: 'class', id: 1 } },
    'the week': { target: { kind: 'week', week: '2026-11-23' } },
  },
  cases: {
    'xstate.done.actor.confirm': [
      { output: ok, answer: { server: true } },
      // the teacher confirmed it on another phone first
      {
        output: notWaiting,
        answer: { server: true, arrange: (w: W) => teacherCall(h.server, w.token, 'confirm', w.classIds[0]!).then(() => {}) },
      },
    ],
    'xstate.error.actor.confirm': [{ error: new Error('network') }],
    'xstate.done.actor.decline': [
      { output: ok, answer: { server: true } },
      {
        output: notWaiting,
        answer: { server: true, arrange: (w: W) => teacherCall(h.server, w.token, 'confirm', w.classIds[0]!).then(() => {}) },
      },
    ],
    'xstate.error.actor.decline': [{ error: new Error('network') }],
    'reason.change': [{ value: REASON }, { value: '   ' }],
  },
  // confirming the week answers with what it confirmed: never a refusal of a waiting week
  offer: (e, s) =>
    !(
      (s.context as ScheduleConfirmContext).target.kind === 'week' &&
      e.type === 'xstate.done.actor.confirm' &&
      (e.output as typeof ok).code !== 200
    ),
  project: (c: ScheduleConfirmContext) => ({
    kind: c.target.kind,
    reason: c.reason.trim() !== '',
    missing: c.reasonMissing,
    errorCode: c.errorCode ?? null,
  }),
  requests: {
    confirm: { method: 'POST', path: /^\/api\/teacher\/schedule\/(\d+\/confirm|confirm-week)$/ },
    decline: { method: 'POST', path: /^\/api\/teacher\/schedule\/\d+\/decline$/ },
  },

  async start(hh, input) {
    const teacher = await newTeacher(hh.server);
    const staff = await newStaff(hh.server);
    const kind = input === 'the week' ? 'week' : 'class';
    const title = `确认课${++n}`;
    // next week, a day apart; asked now, so their deadlines are days away
    const base = new Date(hh.server.clock.now().getTime() + 7 * DAY);
    const classIds: number[] = [];
    for (let i = 0; i < (kind === 'week' ? 2 : 1); i++) {
      const cls = await newClass(hh.server, {
        teacherId: null,
        teacherState: 'not_started',
        title,
        titleEn: title,
        startsAt: new Date(base.getTime() + i * 2 * HOUR),
      });
      expect((await assign(hh.server, staff.token, cls.id, teacher.id)).body.code).toBe(200);
      classIds.push(cls.id);
    }
    hh.jar.setClientCookie('token', teacher.token);
    const day = shanghaiDate(base);
    const ui = await hh.open(
      kind === 'week' ? `/bindPage/teacherConfirm?week=${day}` : `/bindPage/teacherConfirmForm?id=${classIds[0]}&week=${day}`,
    );
    return { ui, token: teacher.token, accountId: teacher.accountId, staffId: staff.id, kind, classIds, title, typed: '', flagged: false };
  },

  events: {
    'schedule.confirm': (w) => w.ui.user.click(button(w.kind === 'week' ? 'confirm-all' : 'confirm')!),
    'network.retry': (w) =>
      w.ui.user.click(
        button(
          w.kind === 'week' ? 'confirm-all' : document.querySelector('[data-action="decline-submit"]') ? 'decline-submit' : 'confirm',
        )!,
      ),
    'decline.start': async (w) => {
      await w.ui.user.click(button('decline-start')!);
      w.flagged = false;
    },
    'reason.change': async (w, e) => {
      const box = screen.getByLabelText('无法上课的原因') as HTMLTextAreaElement;
      w.typed = (e as unknown as { value: string }).value;
      w.flagged = false;
      await w.ui.user.clear(box);
      await w.ui.user.type(box, w.typed);
    },
    'decline.submit': async (w) => {
      if (w.typed.trim() === '') w.flagged = true;
      await w.ui.user.click(button('decline-submit')!);
    },
    'decline.cancel': (w) => w.ui.user.click(button('decline-cancel')!),
  },

  states: {
    ready: async (w) => {
      expect(alertText()).toBe(null);
      expect(screen.queryByLabelText('无法上课的原因')).toBe(null);
      if (w.kind === 'week') {
        expect(button('confirm-all')?.textContent).toBe('全部确认');
        expect(badges()).toEqual(['waiting', 'waiting']);
      } else {
        expect(button('confirm')?.textContent).toBe('确认上课');
        expect(button('decline-start')?.textContent).toBe('无法上课');
        expect(badges()).toEqual(['waiting']);
      }
      await stillWaiting(w);
    },
    confirming: async (w) => {
      const b = button(w.kind === 'week' ? 'confirm-all' : 'confirm');
      expect(b?.textContent).toBe('确认中…');
      expect(b?.disabled).toBe(true);
      const held = w.held.get('confirm')!.at(-1)!;
      expect(held.path).toBe(w.kind === 'week' ? '/api/teacher/schedule/confirm-week' : `/api/teacher/schedule/${w.classIds[0]}/confirm`);
    },
    confirmUnreachable: async (w) => {
      expect(sentBy(w, 'confirm').at(-1)?.answer).toBe('network');
      expect(alertText()).toBe('网络无法连接');
      expect(button(w.kind === 'week' ? 'confirm-all' : 'confirm')?.textContent).toBe('重试');
      await stillWaiting(w);
    },
    declining: async (w) => {
      const box = screen.getByLabelText('无法上课的原因') as HTMLTextAreaElement;
      expect(box.disabled).toBe(false);
      expect(button('decline-submit')?.textContent).toBe('提交');
      expect(button('decline-cancel')).not.toBe(null);
      expect(button('confirm')).toBe(null);
      expect(alertText()).toBe(null);
      // what was typed stays; sent without a reason, the field says it is required, and nothing was sent
      expect(box.value).toBe(w.typed);
      expect(document.querySelector('[data-reason-missing]')?.textContent ?? null).toBe(w.flagged ? '请填写无法上课的原因' : null);
      expect(sentBy(w, 'decline')).toEqual([]);
      await stillWaiting(w);
    },
    sendingDecline: async (w) => {
      expect(button('decline-submit')?.textContent).toBe('提交中…');
      expect(button('decline-submit')?.disabled).toBe(true);
      expect(w.held.get('decline')!.at(-1)!.body).toEqual({ reason: REASON });
    },
    declineUnreachable: async (w) => {
      expect(sentBy(w, 'decline').at(-1)?.answer).toBe('network');
      expect(alertText()).toBe('网络无法连接');
      expect(button('decline-submit')?.textContent).toBe('重试');
      await stillWaiting(w);
    },
    refused: async (w) => {
      expect(alertText()).toBe('这节课现在不在等待您确认');
      expect(button('confirm')).toBe(null);
      expect(button('decline-submit')).toBe(null);
      // it was confirmed on the other phone: the answer here changed nothing more
      expect(await states(w)).toEqual(['confirmed']);
      expect(await noticesAbout(h.server, w.staffId, w.title)).toBe(0);
    },
    confirmed: async (w) => {
      expect(await states(w)).toEqual(w.classIds.map(() => 'confirmed'));
      await within(() => expect(badges()).toEqual(w.classIds.map(() => 'confirmed')));
      if (w.kind === 'week') expect(document.querySelector('[data-confirmed-all]')?.textContent).toBe('本周待确认的课程已全部确认');
      else expect(document.querySelector('[data-done="confirmed"]')?.textContent).toBe('已确认，谢谢！');
      expect(sentBy(w, 'confirm').filter((r) => r.answer === 200)).toHaveLength(1);
      expect(await noticesAbout(h.server, w.staffId, w.title)).toBe(0);
    },
    declined: async (w) => {
      expect(await states(w)).toEqual(['unconfirmed']);
      expect((await scheduleRow(h.server, w.classIds[0]!)).teacherDeclineReason).toBe(REASON);
      await within(() => expect(badges()).toEqual(['unconfirmed']));
      expect(document.querySelector('[data-done="declined"]')?.textContent).toBe('已告知门店，工作人员会重新安排老师');
      expect(document.querySelector('[data-decline-reason]')?.textContent).toContain(REASON);
      expect(await noticesAbout(h.server, w.staffId, w.title), 'staff told once').toBe(1);
    },
  },

  effects: {
    'schedule.confirm': (w, _e, before) => {
      const [tap] = sentBy(w, 'confirm', before);
      expect(tap?.key, 'the confirmation carries an Idempotency-Key').toBeDefined();
      expect(
        sentBy(w, 'confirm')
          .slice(0, -1)
          .map((r) => r.key),
        'a new intent, a new key',
      ).not.toContain(tap!.key);
    },
    'decline.submit': (w, _e, before, seen) => {
      const sent = sentBy(w, 'decline', before);
      if ((seen as { reason: string }).reason.trim() === '') {
        expect(sent, 'no reason: nothing sent').toEqual([]);
        expect(document.querySelector('[data-reason-missing]')?.textContent).toBe('请填写无法上课的原因');
      } else {
        expect(sent[0]?.key, 'the decline carries an Idempotency-Key').toBeDefined();
        expect(
          sentBy(w, 'decline')
            .slice(0, -1)
            .map((r) => r.key),
        ).not.toContain(sent[0]!.key);
      }
    },
    // going back from the reason form: the form is gone, the class's buttons are back, nothing sent
    'decline.cancel': (w, _e, before) => {
      expect(screen.queryByLabelText('无法上课的原因'), 'the form is closed').toBe(null);
      expect(button('confirm')?.textContent).toBe('确认上课');
      expect(w.sent.slice(before).filter((r) => r.invoke)).toEqual([]);
    },
    'reason.change': () => {
      expect(document.querySelector('[data-reason-missing]'), 'typing clears "required"').toBe(null);
    },
    'network.retry': (w, _e, before) => {
      const again = [...sentBy(w, 'confirm', before), ...sentBy(w, 'decline', before)];
      expect(again, 'a retry sends the request again').toHaveLength(1);
      const of = sentBy(w, again[0]!.invoke!);
      expect(again[0]!.key, 'a retry is the same intent: the same key').toBe(of.at(-2)?.key);
    },
  },
  seen: () => ({ reason: (document.querySelector('#decline-reason') as HTMLTextAreaElement | null)?.value ?? '' }),
});
