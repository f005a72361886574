// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import type { ScheduleItem } from '../../src/api/booking';
import { shanghaiToday } from '../../src/app/screens/booking/schedule-filter';
import { newClass, newMember } from '../server/booking/support';
import { startScreenHarness } from './support/screen-harness';

/**
 * Today's schedule opens at the next class: the classes already over are folded above
 * it, one tap away; another day lists every class. The real screen, the server's schedule and clock.
 */
const h = await startScreenHarness({ seed: true });
const HOUR = 3_600_000;
const ids = (sel: string) => [...document.querySelectorAll<HTMLElement>(`${sel} [data-class]`)].map((el) => Number(el.dataset.class));

describe("today's schedule", () => {
  it('opens at the next class: the ones over are folded, one tap shows them; the count is said', async () => {
    const now = h.server.clock.now().getTime();
    // one class over an hour ago, one under way, one later today (the test clock's day has room both sides)
    const over = await newClass(h.server, { clubId: 1, title: '已结束的课', startsAt: new Date(now - 2 * HOUR), durationMin: 60 });
    const under = await newClass(h.server, { clubId: 1, title: '进行中的课', startsAt: new Date(now - HOUR / 2), durationMin: 60 });
    const m = await newMember(h.server);
    h.jar.setClientCookie('token', m.token);
    const today = shanghaiToday(h.server.clock);
    const all = (await h.server.call('GET', `/api/customers/classes/schedule?date=${today}&clubId=1`, { token: m.token })).body
      .data as ScheduleItem[];
    const ended = all.filter((c) => new Date(c.endsAt).getTime() <= now).map((c) => c.id);
    expect(ended).toContain(over.id);
    const ui = await h.open(`/takecourse/bookcourse?date=${today}&clubId=1`);
    expect(ids('[data-ahead-classes]')).toEqual(all.filter((c) => !ended.includes(c.id)).map((c) => c.id));
    expect(ids('[data-ahead-classes]')).toContain(under.id);
    expect(document.querySelector('[data-over-classes]')).toBe(null);
    const fold = document.querySelector<HTMLButtonElement>('[data-action="show-over"]')!;
    expect(fold.textContent).toBe(`今天已结束 ${ended.length} 节课，点此查看`);
    await ui.user.click(fold);
    expect(ids('[data-over-classes]')).toEqual(ended);
    expect(fold.getAttribute('aria-expanded')).toBe('true');
  });

  it('another day lists every class, none folded', async () => {
    const m = await newMember(h.server);
    h.jar.setClientCookie('token', m.token);
    const tomorrow = shanghaiToday({ now: () => new Date(h.server.clock.now().getTime() + 24 * HOUR) });
    const all = (await h.server.call('GET', `/api/customers/classes/schedule?date=${tomorrow}`, { token: m.token })).body
      .data as ScheduleItem[];
    expect(all.length).toBeGreaterThan(0);
    await h.open(`/takecourse/bookcourse?date=${tomorrow}`);
    expect(ids('[data-ahead-classes]')).toEqual(all.map((c) => c.id));
    expect(document.querySelector('[data-action="show-over"]')).toBe(null);
  });
});
