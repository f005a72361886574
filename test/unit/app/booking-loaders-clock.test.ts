import { describe, expect, it, vi } from 'vitest';
import type { Api } from '../../../src/api/index';
import { clockFrom, serverAlignedClock } from '../../../src/app/app-clock';
import { loader as filterLoader } from '../../../src/app/screens/booking/filter-screen';
import { loader as calendarLoader } from '../../../src/app/screens/booking/my-calendar-screen';
import { loader as scheduleLoader } from '../../../src/app/screens/booking/schedule-screen';
import { fixedClock } from '../../../src/domain/clock';

const ok = <T>(data: T) => Promise.resolve({ code: 200, status: true, data });
const empty = { list: [], total: 0, pagenum: 0, pagesize: 50 };

/** A loader's context with the server's clock pinned (what entry-server puts there) and a fake API. */
function pinned(at: string) {
  const booking = { schedule: vi.fn(() => ok([])), mine: vi.fn(() => ok(empty)), window: vi.fn(() => ok(null)) };
  const catalog = { clubs: vi.fn(() => ok([])), dict: vi.fn(() => ok([])) };
  return { booking, context: { api: { booking, catalog } as unknown as Api, clock: fixedClock(at) } };
}

const args = (url: string, context: unknown) => ({ request: new Request(`http://x${url}`), context, params: {} }) as never;

describe('booking screens take today from the injected clock, in Shanghai', () => {
  it('the schedule asks for the clock’s Shanghai day (16:30 UTC is already tomorrow there)', async () => {
    const { booking, context } = pinned('2026-11-22T16:30:00Z');
    const d = (await scheduleLoader(args('/takecourse/bookcourse', context))) as { today: string };
    expect(d.today).toBe('2026-11-23');
    expect(booking.schedule).toHaveBeenCalledWith(expect.objectContaining({ date: '2026-11-23' }));
  });

  it('the filter page reads the same day, and returns to the schedule it came from', async () => {
    const { context } = pinned('2026-11-22T15:59:00Z');
    const d = (await filterLoader(args('/takecourse/bookcourse/bookcoursefilter?back=%2Ftakecourse%2Fbookcourse_yoga', context))) as {
      today: string;
      back: string;
    };
    expect(d.today).toBe('2026-11-22');
    expect(d.back).toBe('/takecourse/bookcourse_yoga');
  });

  it('the calendar opens on the clock’s month and day', async () => {
    const { context } = pinned('2026-11-30T17:00:00Z');
    const d = (await calendarLoader(args('/takecourse', context))) as { today: string; month: string; day: string; now: string };
    expect(d).toMatchObject({ today: '2026-12-01', month: '2026-12', day: '2026-12-01', now: '2026-11-30T17:00:00.000Z' });
  });

  it('the calendar asks for its own month, every page of it, so an older month keeps its dots', async () => {
    const { booking, context } = pinned('2026-11-22T08:00:00Z');
    const row = (id: number) => ({ bookingId: id, class: { startsAt: '2026-09-03T02:00:00.000Z' } });
    booking.mine.mockImplementation(((q: { scope: string; pagenum: number; pagesize: number }) =>
      ok(
        q.scope === 'past'
          ? {
              list: [row(q.pagenum * 2 + 1), row(q.pagenum * 2 + 2)].slice(0, q.pagenum === 2 ? 1 : 2),
              total: 5,
              pagenum: q.pagenum,
              pagesize: q.pagesize,
            }
          : empty,
      )) as never);
    const d = (await calendarLoader(args('/takecourse?month=2026-09', context))) as { bookings: { bookingId: number }[] };
    for (const call of booking.mine.mock.calls as unknown as [{ month: string }][]) expect(call[0].month).toBe('2026-09');
    expect(d.bookings.map((b) => b.bookingId).sort()).toEqual([1, 2, 3, 4, 5]);
  });
});

describe('the app clock follows the server', () => {
  it('the server’s time at render plus what the phone counted since, whatever the phone’s own clock says', () => {
    let phone = Date.parse('2020-01-01T00:00:00Z');
    const clock = serverAlignedClock('2026-11-22T08:00:00Z', () => phone);
    expect(clock.now().toISOString()).toBe('2026-11-22T08:00:00.000Z');
    phone += 90_000;
    expect(clock.now().toISOString()).toBe('2026-11-22T08:01:30.000Z');
  });

  it('a loader prefers the request’s clock', () => {
    const c = fixedClock('2026-11-22T00:00:00Z');
    expect(clockFrom({ clock: c })).toBe(c);
  });
});
