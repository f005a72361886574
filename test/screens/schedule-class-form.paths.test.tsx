// @vitest-environment jsdom
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { scheduleClassFormMachine, type ClassFormContext, type ClassFormValues } from '../../machines/schedule-class-form.machine';
import { bookings, classes } from '../../src/server/db/schema/index';
import { shanghaiDate } from '../../src/domain/time';
import { cardRow, classRow, DAY, newCard, newClass, newMember } from '../server/booking/support';
import { newStaff } from '../server/orders/support';
import { startScreenHarness } from './support/screen-harness';
import { defineScreenPaths, sentBy, type World } from './support/screen-paths';

/**
 * Staff creating, editing and cancelling a class on /staff/classes/new and /staff/classes/:id/edit
 * (decision 041), on the real screen against the real server: a save creates the class or
 * stores the new capacity; a refusal (the start passed meanwhile, the class started meanwhile) says
 * why where the server names the field; a cancel, after its confirm, cancels the class with its
 * booking (the use given back); a network failure offers a retry under the same key.
 */
const h = await startScreenHarness({ seed: true });
let n = 0;

interface Form {
  classId: number | null;
  title: string;
  room: string;
  day: string;
  startsAt: Date;
  /** the capacity the form holds (typed by the path, or as loaded) */
  capacity: number;
  /** edit only: a member's booking and card, and the card's uses before booking */
  booking?: { id: number; cardId: number; usesBefore: number };
}
type W = World<Form>;

const ok = { code: 200, status: true, data: {} };
const values: ClassFormValues = {
  clubId: '1',
  classType: 'regular',
  title: '',
  room: '',
  capacity: '20',
  day: '2026-12-01',
  start: '19:00',
  end: '20:00',
  teacherId: '',
};

const button = (action: string) => document.querySelector<HTMLButtonElement>(`[data-action="${action}"]`);
const alert = () => document.querySelector('[data-class-form] [role="alert"]')?.textContent || null;
const form = () => document.querySelector('[data-class-form]');
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
const STARTED = '课程已开始，不能再修改或取消';

async function classesTitled(title: string) {
  return h.server.deps.db.select().from(classes).where(eq(classes.title, title));
}

/** Nothing saved: no class of that title (new), or the class as it was (edited), open, its booking held. */
async function untouched(w: W) {
  if (w.classId === null) {
    expect(await classesTitled(w.title)).toEqual([]);
    return;
  }
  const c = await classRow(h.server, w.classId);
  expect([c.status, c.capacity, c.bookedCount]).toEqual(['open', 10, 1]);
  const [b] = await h.server.deps.db.select().from(bookings).where(eq(bookings.id, w.booking!.id));
  expect(b!.state).toBe('booked');
}

defineScreenPaths<Form>(h, {
  machine: scheduleClassFormMachine,
  screen: '/staff/classes/new | /staff/classes/:id/edit',
  inputs: { 'a new class': { classId: null, values }, 'a class edited': { classId: 1, values } },
  cases: {
    'field.change': [{ field: 'capacity', value: '12' }],
    'xstate.done.actor.save': [
      { output: ok, answer: { server: true } },
      // a new class: its start passed while staff were filling the form
      {
        output: { code: 70161, status: false, data: null, field: 'start' },
        answer: { server: true, arrange: async (w: W) => h.server.clock.set(w.startsAt) },
      },
      // an edited class: it started meanwhile
      {
        output: { code: 70165, status: false, data: null },
        answer: { server: true, arrange: async (w: W) => h.server.clock.set(w.startsAt) },
      },
    ],
    'xstate.error.actor.save': [{ error: new Error('network') }],
    'xstate.done.actor.cancel': [
      { output: ok, answer: { server: true } },
      {
        output: { code: 70165, status: false, data: null },
        answer: { server: true, arrange: async (w: W) => h.server.clock.set(w.startsAt) },
      },
    ],
    'xstate.error.actor.cancel': [{ error: new Error('network') }],
  },
  // the refusal a save meets is the one of its kind: 70161 for a new class, 70165 for an edited one
  offer: (e, s) => {
    if (e.type !== 'xstate.done.actor.save') return true;
    const code = (e as unknown as { output: { code: number } }).output.code;
    const editing = (s.context as ClassFormContext).classId !== null;
    return code === 200 || code === (editing ? 70165 : 70161);
  },
  project: (c: ClassFormContext) => ({ edit: c.classId !== null, errorCode: c.errorCode ?? null }),
  requests: {
    save: { method: 'POST', path: /^\/api\/staff\/classes(\/\d+)?$/ },
    cancel: { method: 'POST', path: /^\/api\/staff\/classes\/\d+\/cancel$/ },
  },

  async start(hh, input) {
    const staff = await newStaff(hh.server);
    hh.jar.setClientCookie('token', staff.token);
    const title = `表单课${++n}`;
    const room = `表单教室${n}`;
    // three weeks out: past the seeded schedule
    const day = shanghaiDate(new Date(hh.server.clock.now().getTime() + 21 * DAY));
    const startsAt = new Date(`${day}T19:00:00+08:00`);
    if (input === 'a new class') {
      const ui = await hh.open(`/staff/classes/new?week=${day}`);
      await ui.user.type(ui.container.querySelector('input[name="title"]')!, title);
      await ui.user.type(ui.container.querySelector('input[name="room"]')!, room);
      await ui.user.clear(ui.container.querySelector('input[name="day"]')!);
      await ui.user.type(ui.container.querySelector('input[name="day"]')!, day);
      return { ui, classId: null, title, room, day, startsAt, capacity: 20 };
    }
    const cls = await newClass(hh.server, {
      teacherId: null,
      teacherState: 'not_started',
      title,
      titleEn: title,
      room,
      startsAt,
      capacity: 10,
      bookedCount: 1,
    });
    const member = await newMember(hh.server);
    const card = await newCard(hh.server, member.id);
    const usesBefore = card.usesLeft!;
    const now = hh.server.clock.now();
    const [b] = await hh.server.deps.db
      .insert(bookings)
      .values({ classId: cls.id, accountId: member.id, cardId: card.id, state: 'booked', usesSpent: 1, createdAt: now, bookedAt: now })
      .returning({ id: bookings.id });
    const { memberCards } = await import('../../src/server/db/schema/index');
    await hh.server.deps.db
      .update(memberCards)
      .set({ usesLeft: usesBefore - 1 })
      .where(eq(memberCards.id, card.id));
    const ui = await hh.open(`/staff/classes/${cls.id}/edit?week=${day}`);
    return { ui, classId: cls.id, title, room, day, startsAt, capacity: 10, booking: { id: b!.id, cardId: card.id, usesBefore } };
  },

  events: {
    'field.change': async (w) => {
      const input = w.ui.container.querySelector<HTMLInputElement>('input[name="capacity"]')!;
      await w.ui.user.clear(input);
      await w.ui.user.type(input, '12');
      w.capacity = 12;
    },
    'form.save': (w) => w.ui.user.click(button('save')!),
    'network.retry': (w) => w.ui.user.click((button('cancel-confirm') ?? button('save'))!),
    'cancel.ask': (w) => w.ui.user.click(button('cancel-ask')!),
    'cancel.back': (w) => w.ui.user.click(button('cancel-back')!),
    'cancel.confirm': (w) => w.ui.user.click(button('cancel-confirm')!),
  },

  states: {
    editing: async (w) => {
      expect(form()).not.toBe(null);
      expect(alert()).toBe(null);
      expect(button('save')?.textContent).toBe('保存');
      expect(button('save')?.disabled).toBe(false);
      expect(button('cancel-ask') !== null, 'only an edited class may be cancelled').toBe(w.classId !== null);
      expect(document.querySelector('[data-cancel-confirm]')).toBe(null);
      await untouched(w);
    },
    saving: async (w) => {
      expect(button('save')?.textContent).toBe('保存中…');
      expect(button('save')?.disabled).toBe(true);
      const body = w.held.get('save')!.at(-1)!.body as Record<string, unknown>;
      expect(body).toMatchObject({ capacity: w.capacity, day: w.day, start: '19:00', end: '20:00' });
      if (w.classId === null) expect(body).toMatchObject({ title: w.title, room: w.room, clubId: 1 });
    },
    refused: async (w) => {
      if (w.classId === null) {
        expect(document.querySelector('[data-field-error="start"]')?.textContent, 'shown at the field the server names').toBe(
          '上课时间已经过去，请选择以后的时间',
        );
      } else {
        expect(alert()).toBe(STARTED);
      }
      expect(button('save')?.disabled, 'the same form would be refused again').toBe(true);
      await untouched(w);
    },
    unreachable: async (w) => {
      expect(alert()).toBe('网络无法连接');
      expect(button('save')?.textContent).toBe('重试');
      await untouched(w);
    },
    saved: async (w) => {
      if (w.classId === null) {
        const [c] = await classesTitled(w.title);
        expect([c!.room, c!.capacity, c!.status, c!.teacherState, shanghaiDate(c!.startsAt)]).toEqual([
          w.room,
          w.capacity,
          'open',
          'not_started',
          w.day,
        ]);
      } else {
        expect((await classRow(h.server, w.classId)).capacity).toBe(w.capacity);
      }
      await within(() => expect(document.querySelector('[data-staff-week]'), 'back on the week').not.toBe(null));
    },
    confirmingCancel: async (w) => {
      expect(document.querySelector('[data-cancel-confirm]')?.textContent).toContain('所有预约都会取消');
      expect(button('cancel-confirm')?.textContent).toBe('确定取消');
      expect(button('save'), 'the form waits behind the confirm').toBe(null);
      await untouched(w);
    },
    cancelling: async (w) => {
      expect(button('cancel-confirm')?.textContent).toBe('取消中…');
      expect(button('cancel-confirm')?.disabled).toBe(true);
      expect(w.held.get('cancel')!.at(-1)!.path).toBe(`/api/staff/classes/${w.classId}/cancel`);
    },
    cancelRefused: async (w) => {
      expect(alert()).toBe(STARTED);
      expect(button('cancel-confirm')).toBe(null);
      expect(button('cancel-back')).not.toBe(null);
      await untouched(w);
    },
    cancelUnreachable: async (w) => {
      expect(alert()).toBe('网络无法连接');
      expect(button('cancel-confirm')?.textContent).toBe('重试');
      await untouched(w);
    },
    cancelled: async (w) => {
      const c = await classRow(h.server, w.classId!);
      expect(c.status).toBe('cancelled');
      const [b] = await h.server.deps.db.select().from(bookings).where(eq(bookings.id, w.booking!.id));
      expect([b!.state, b!.cancelReason]).toEqual(['cancelled', 'class-cancelled']);
      expect((await cardRow(h.server, w.booking!.cardId)).usesLeft, 'the use given back').toBe(w.booking!.usesBefore);
      await within(() => {
        expect(document.querySelector('[data-staff-week]'), 'back on the week').not.toBe(null);
        expect(document.querySelector(`[data-staff-class="${w.classId}"]`), 'no longer listed').toBe(null);
      });
    },
  },

  seen: () => (document.querySelector('[data-cancel-confirm]') ? 'cancel' : 'save'),
  effects: {
    // one key per intent: a save tap or a confirmed cancel sends a new key; a retry repeats the key of what it retries
    'form.save': (w, _e, before) => {
      const [tap] = sentBy(w, 'save', before);
      expect(tap?.key).toBeDefined();
      expect(
        sentBy(w, 'save')
          .slice(0, -1)
          .map((r) => r.key),
      ).not.toContain(tap!.key);
    },
    'cancel.confirm': (w, _e, before) => {
      const [tap] = sentBy(w, 'cancel', before);
      expect(tap?.key).toBeDefined();
      expect(
        sentBy(w, 'cancel')
          .slice(0, -1)
          .map((r) => r.key),
      ).not.toContain(tap!.key);
    },
    // a retry repeats what failed (the cancel when the confirm was open, else the save) under its key
    'network.retry': (w, _e, before, seenBefore) => {
      const invoke = seenBefore === 'cancel' ? 'cancel' : 'save';
      const [again] = sentBy(w, invoke, before);
      expect(again, 'a retry sends the failed request again').toBeDefined();
      expect(again!.key).toBeDefined();
      expect(again!.key).toBe(sentBy(w, invoke).at(-2)?.key);
    },
    // asking to cancel opens the confirm and sends nothing
    'cancel.ask': (w, _e, before) => {
      expect(w.sent.slice(before).filter((r) => r.invoke)).toEqual([]);
      expect(button('cancel-confirm')?.textContent, 'the confirm is open').toBe('确定取消');
      expect(alert()).toBe(null);
    },
    // going back closes the confirm: the form again, ready to save, nothing sent
    'cancel.back': (w, _e, before) => {
      expect(w.sent.slice(before).filter((r) => r.invoke)).toEqual([]);
      expect(document.querySelector('[data-cancel-confirm]')).toBe(null);
      expect(button('save')?.textContent).toBe('保存');
      expect(button('save')?.disabled).toBe(false);
      expect(alert()).toBe(null);
    },
    // typing sends nothing and clears a refusal: the form may be saved again
    'field.change': (w, _e, before) => {
      expect(w.sent.slice(before).filter((r) => r.invoke)).toEqual([]);
      expect(alert()).toBe(null);
      expect(document.querySelector('[data-field-error]')).toBe(null);
      expect(button('save')?.textContent).toBe('保存');
      expect(button('save')?.disabled).toBe(false);
    },
  },
});
