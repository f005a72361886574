// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { staffClubs } from '../../src/server/db/schema/index';
import { shanghaiDate } from '../../src/domain/time';
import { DAY, HOUR, newClass } from '../server/booking/support';
import { newStaff } from '../server/orders/support';
import { newTeacher } from '../server/schedule/support';
import { startScreenHarness } from './support/screen-harness';

/**
 * The week's confirmations at a glance on /staff/classes (decision 041): the four counts
 * from the server, each a filter of the list (a second tap clears it), "new class" for staff with a
 * club, and "edit or cancel" only on their clubs' classes.
 */
const h = await startScreenHarness({ seed: true });
const s = h.server;

async function waitFor(check: () => boolean, what: string) {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check(), what).toBe(true);
}

const listed = () => [...document.querySelectorAll('[data-staff-class]')].map((e) => Number(e.getAttribute('data-staff-class')));
const count = (k: string) => document.querySelector(`[data-glance-count="${k}"]`)?.textContent;

describe('confirmations at a glance', () => {
  it('counts each state, filters to it, and offers edit only at the staff member’s clubs', async () => {
    const staff = await newStaff(s);
    await s.deps.db.insert(staffClubs).values({ accountId: staff.id, clubId: 2 });
    const t = await newTeacher(s);
    // a week of its own, far past the seed
    const far = new Date(s.clock.now().getTime() + 200 * DAY);
    const at = (hh: number) => new Date(far.getTime() + hh * HOUR);
    const ids = {
      noTeacher: (await newClass(s, { clubId: 2, startsAt: at(0), teacherId: null, teacherState: 'not_started' })).id,
      waiting: (await newClass(s, { clubId: 2, startsAt: at(1), teacherId: t.id, teacherState: 'waiting' })).id,
      declined: (await newClass(s, { clubId: 1, startsAt: at(2), teacherId: t.id, teacherState: 'unconfirmed' })).id,
      confirmed: (await newClass(s, { clubId: 1, startsAt: at(3), teacherId: t.id, teacherState: 'confirmed' })).id,
    };
    h.jar.setClientCookie('token', staff.token);
    const ui = await h.open(`/staff/classes?week=${shanghaiDate(far)}`);
    expect([count('confirmed'), count('waiting'), count('declined'), count('noTeacher')]).toEqual(['1', '1', '1', '1']);
    expect(listed().sort()).toEqual(Object.values(ids).sort());
    const editable = [...document.querySelectorAll('[data-staff-class]')].filter((e) => e.querySelector('[data-action="edit-class"]'));
    expect(editable.map((e) => Number(e.getAttribute('data-staff-class'))).sort()).toEqual([ids.noTeacher, ids.waiting].sort());
    const monday = document.querySelector('[data-staff-week]')?.getAttribute('data-staff-week');
    expect(document.querySelector('[data-action="new-class"]')?.getAttribute('href')).toBe(`/staff/classes/new?week=${monday}`);
    for (const k of ['waiting', 'declined', 'confirmed', 'noTeacher'] as const) {
      await ui.user.click(document.querySelector(`[data-glance-key="${k}"]`)!);
      await waitFor(() => listed().length === 1 && listed()[0] === ids[k], `only the ${k} class`);
      expect(document.querySelector(`[data-glance-key="${k}"]`)?.getAttribute('aria-current')).toBe('true');
    }
    await ui.user.click(document.querySelector('[data-glance-key="noTeacher"]')!);
    await waitFor(() => listed().length === 4, 'a second tap shows every class again');
  });
});
