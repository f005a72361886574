import { afterEach, describe, expect, it, vi } from 'vitest';
import dayjs from 'dayjs';
import { TIME_ZONE } from '../../src/domain/limits';
import {
  adoptZoneSpans,
  shanghaiZoneSpans,
  zoneOffsetSpans,
  addShanghaiDays,
  daysFromTo,
  addDays,
  addMonths,
  addShanghaiMonths,
  daysInMonth,
  parseShanghaiWallTime,
  shanghaiClock,
  shanghaiDate,
  shanghaiDateAfter,
  shanghaiDateSpan,
  shanghaiDayIndex,
  shanghaiDayStart,
  shanghaiFormat,
  shanghaiMidnight,
  shanghaiMinutes,
  shanghaiMonthDay,
  shanghaiMonthRange,
  shanghaiWeekday,
  weekdayOf,
} from '../../src/domain/time';

describe('dates shown on screen are Shanghai calendar dates (DESIGN.md §4)', () => {
  it('an instant late on a UTC day is already the next day in Shanghai', () => {
    expect(shanghaiDate('2026-11-19T16:00:00.000Z')).toBe('2026-11-20');
    expect(shanghaiDate('2026-11-19T15:59:59.999Z')).toBe('2026-11-19');
    expect(shanghaiDate(new Date('2026-12-31T17:00:00Z'))).toBe('2027-01-01');
  });

  it('month and day for short lists', () => {
    expect(shanghaiMonthDay('2026-03-05T01:00:00Z')).toBe('03-05');
  });

  it('spans collapse to one day, and drop the year within a year', () => {
    expect(shanghaiDateSpan('2026-11-20T01:00:00Z', '2026-11-20T09:00:00Z')).toBe('11-20');
    expect(shanghaiDateSpan('2026-11-20T01:00:00Z', '2026-11-22T09:00:00Z')).toBe('11-20 – 11-22');
    expect(shanghaiDateSpan('2026-12-30T01:00:00Z', '2027-01-02T01:00:00Z')).toBe('2026-12-30 – 2027-01-02');
  });

  it('an unreadable value shows nothing', () => {
    expect(shanghaiDate('not a date')).toBe('');
    expect(shanghaiDateSpan('bad', '2026-11-20T01:00:00Z')).toBe('2026-11-20');
  });
});

describe('the one time module: Shanghai calendar days at their edges', () => {
  it('23:59 in Shanghai (15:59 UTC) is still the day; 00:00 (16:00 UTC) is the next', () => {
    expect(shanghaiDate(new Date('2026-11-20T15:59:00Z'))).toBe('2026-11-20');
    expect(shanghaiClock(new Date('2026-11-20T15:59:00Z'))).toBe('23:59');
    expect(shanghaiDate(new Date('2026-11-20T16:00:00Z'))).toBe('2026-11-21');
    expect(shanghaiClock(new Date('2026-11-20T16:00:00Z'))).toBe('00:00');
    expect(shanghaiMinutes(new Date('2026-11-20T15:59:00Z'))).toBe(23 * 60 + 59);
    expect(shanghaiMinutes(new Date('2026-11-20T16:00:00Z'))).toBe(0);
  });

  it('the day index and weekday turn over at Shanghai midnight, not UTC midnight', () => {
    const before = new Date('2026-11-20T15:59:59.999Z');
    const after = new Date('2026-11-20T16:00:00Z');
    expect(shanghaiDayIndex(after) - shanghaiDayIndex(before)).toBe(1);
    expect(shanghaiDayIndex(new Date('1970-01-01T00:00:00+08:00'))).toBe(0);
    expect(shanghaiWeekday(before)).toBe(5); // Friday 20 Nov
    expect(shanghaiWeekday(after)).toBe(6);
  });

  it('the start of the day is the Shanghai midnight before, also at month and year ends', () => {
    expect(shanghaiDayStart(new Date('2026-11-30T15:59:00Z')).toISOString()).toBe('2026-11-29T16:00:00.000Z');
    expect(shanghaiDayStart(new Date('2026-11-30T16:00:00Z')).toISOString()).toBe('2026-11-30T16:00:00.000Z');
    expect(shanghaiDate(new Date('2026-11-30T16:00:00Z'))).toBe('2026-12-01');
    expect(shanghaiMidnight('2027-01-01').toISOString()).toBe('2026-12-31T16:00:00.000Z');
  });

  it('refuses dates that are not on the calendar', () => {
    expect(() => shanghaiMidnight('2026-02-29')).toThrow('not a date');
    expect(() => shanghaiMidnight('2026-11-2')).toThrow('not a date');
    expect(shanghaiMidnight('2028-02-29').toISOString()).toBe('2028-02-28T16:00:00.000Z');
    expect(() => shanghaiMonthRange('2026-13')).toThrow('not a month');
  });

  it('a month runs from its first Shanghai midnight to the next month’s, across the year end', () => {
    expect(shanghaiMonthRange('2026-12')).toEqual({ from: new Date('2026-11-30T16:00:00Z'), to: new Date('2026-12-31T16:00:00Z') });
    expect(shanghaiMonthRange('2026-02').to.toISOString()).toBe('2026-02-28T16:00:00.000Z');
  });

  it('adds days and months on the calendar, clamping to the month end', () => {
    expect(addDays('2026-11-30', 1)).toBe('2026-12-01');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(shanghaiDateAfter(new Date('2026-11-30T15:59:00Z'), 1)).toBe('2026-12-01');
    expect(shanghaiDateAfter(new Date('2026-11-30T16:00:00Z'), 1)).toBe('2026-12-02');
    expect(addMonths('2026-12', 1)).toBe('2027-01');
    expect(addMonths('2026-01', -1)).toBe('2025-12');
    expect(daysInMonth('2026-02')).toBe(28);
    expect(daysInMonth('2028-02')).toBe(29);
    expect(weekdayOf('2026-11-01')).toBe(0);
    // 31 Jan 23:59 Shanghai plus a month is 28 Feb 23:59 Shanghai, not a day in March
    expect(addShanghaiMonths(new Date('2026-01-31T15:59:00Z'), 1).toISOString()).toBe('2026-02-28T15:59:00.000Z');
    expect(addShanghaiMonths(new Date('2027-12-31T16:30:00Z'), 2).toISOString()).toBe('2028-02-29T16:30:00.000Z'); // 1 Jan 00:30 -> 1 Mar 00:30
  });

  it('formats and reads the Shanghai wall clock with its offset', () => {
    expect(shanghaiFormat(new Date('2026-11-20T02:00:00.789Z'), 'YYYY-MM-DD[T]HH:mm:ssZ')).toBe('2026-11-20T10:00:00+08:00');
    expect(parseShanghaiWallTime('2026-11-21 00:00:00')?.toISOString()).toBe('2026-11-20T16:00:00.000Z');
    expect(parseShanghaiWallTime('2026-02-30 10:00:00')).toBeUndefined();
    expect(parseShanghaiWallTime('2026-11-20 24:00:00')).toBeUndefined();
    expect(parseShanghaiWallTime('2026-11-20T10:00:00')).toBeUndefined();
  });

  it('counts calendar days between dates and moves an instant by calendar days in Shanghai', () => {
    expect(daysFromTo('2026-11-20', '2026-11-20')).toBe(0);
    expect(daysFromTo('2026-02-27', '2026-03-01')).toBe(2);
    expect(daysFromTo('2026-12-31', '2027-01-01')).toBe(1);
    expect(daysFromTo('2026-11-21', '2026-11-20')).toBe(-1);
    expect(addShanghaiDays(new Date('2026-11-20T16:00:00Z'), 3).toISOString()).toBe('2026-11-23T16:00:00.000Z');
    expect(addShanghaiDays(new Date('2026-03-01T01:30:00Z'), -1).toISOString()).toBe('2026-02-28T01:30:00.000Z');
  });
});

describe('the kept zone offsets (a tap must not ask Intl for every class row)', () => {
  it('read every instant as dayjs tz does, across the years Shanghai kept daylight saving time', () => {
    // 1986-1991 had summer time in China: the kept offsets must follow it there too
    const from = Date.UTC(1985, 0, 1);
    const to = Date.UTC(2030, 0, 1);
    for (let i = 0; i < 3000; i++) {
      const at = new Date(from + Math.floor((((i * 7919) % 3000) / 3000) * (to - from)) + i * 61_000);
      expect(shanghaiFormat(at, 'YYYY-MM-DD HH:mm:ss Z')).toBe(dayjs(at).tz(TIME_ZONE).format('YYYY-MM-DD HH:mm:ss Z'));
    }
  });

  it('give the same midnight the second time a date is asked', () => {
    expect(shanghaiMidnight('1988-06-01').getTime()).toBe(dayjs.tz('1988-06-01', TIME_ZONE).valueOf());
    expect(shanghaiMidnight('1988-06-01').getTime()).toBe(dayjs.tz('1988-06-01', TIME_ZONE).valueOf());
    expect(() => shanghaiMidnight('1988-02-30')).toThrow();
  });
});

describe("a zone's offsets as spans, and Shanghai's taken from the server (decision 052)", () => {
  afterEach(() => {
    adoptZoneSpans([]);
    vi.restoreAllMocks();
  });
  const at = (iso: string) => Date.parse(iso);

  it('finds each change of offset to the quarter hour', () => {
    expect(zoneOffsetSpans(at('2026-01-01T00:00:00Z'), at('2027-01-01T00:00:00Z'), 'America/New_York')).toEqual([
      [at('2026-01-01T00:00:00Z'), at('2026-03-08T07:00:00Z'), -300],
      [at('2026-03-08T07:00:00Z'), at('2026-11-01T06:00:00Z'), -240],
      [at('2026-11-01T06:00:00Z'), at('2027-01-01T00:00:00Z'), -300],
    ]);
    // Shanghai kept summer time from 1986 to 1991: in 1988 from 17 April 2:00 to 11 September 2:00
    expect(zoneOffsetSpans(at('1988-01-01T00:00:00Z'), at('1989-01-01T00:00:00Z'))).toEqual([
      [at('1988-01-01T00:00:00Z'), at('1988-04-16T18:00:00Z'), 480],
      [at('1988-04-16T18:00:00Z'), at('1988-09-10T17:00:00Z'), 540],
      [at('1988-09-10T17:00:00Z'), at('1989-01-01T00:00:00Z'), 480],
    ]);
  });

  it('Shanghai around today is one span of +8 hours, a year each way', () => {
    const now = new Date('2026-11-20T02:00:00Z');
    const spans = shanghaiZoneSpans(now);
    expect(spans).toHaveLength(1);
    const [from, to, offset] = spans[0]!;
    expect(offset).toBe(480);
    expect(from).toBeLessThanOrEqual(now.getTime() - 365 * 86_400_000);
    expect(to).toBeGreaterThanOrEqual(now.getTime() + 365 * 86_400_000);
  });

  it('with the spans adopted, clocks read as Intl reads them, and Intl is not asked', () => {
    // instants no earlier test has read (the per-quarter-hour memory would answer them without Intl)
    const instants = Array.from({ length: 200 }, (_, i) => at('2027-03-01T00:07:00Z') + i * 97 * 60_000);
    const wall = (t: number) =>
      new Date(t).toLocaleString('en-GB', { timeZone: 'Asia/Shanghai', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    const expected = instants.map(wall);
    adoptZoneSpans(shanghaiZoneSpans(new Date('2026-11-20T02:00:00Z')));
    const intl = vi.spyOn(Intl.DateTimeFormat.prototype, 'formatToParts');
    expect(instants.map((t) => shanghaiClock(new Date(t)))).toEqual(expected);
    expect(intl).not.toHaveBeenCalled();
  });

  it("the day, weekday and minute of the day agree with Intl's Shanghai wall clock, summer time and midnights included", () => {
    const parts = (t: number) => {
      const p = Object.fromEntries(
        new Intl.DateTimeFormat('en-GB', {
          timeZone: 'Asia/Shanghai',
          hourCycle: 'h23',
          year: 'numeric',
          month: '2-digit',
          day: '2-digit',
          hour: '2-digit',
          minute: '2-digit',
          weekday: 'short',
        })
          .formatToParts(t)
          .map((x) => [x.type, x.value]),
      );
      return {
        date: `${p.year}-${p.month}-${p.day}`,
        minutes: Number(p.hour) * 60 + Number(p.minute),
        weekday: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(p.weekday!),
      };
    };
    // a minute either side of 1988's two summer-time switches (+8 h to +9 h and back), the epoch, the
    // last moment before a Shanghai midnight, and 300 instants at odd hours from 1985 to 2109
    const instants = [
      at('1988-04-16T17:59:00Z'),
      at('1988-04-16T18:00:00Z'),
      at('1988-09-10T16:59:00Z'),
      at('1988-09-10T17:00:00Z'),
      at('1970-01-01T00:00:00Z'),
      at('2026-11-20T15:59:59.999Z'),
    ];
    for (let i = 0; i < 300; i++) instants.push(at('1985-01-01T00:00:00Z') + i * 151 * 86_400_000 + ((i * 7_919_000) % 86_400_000));
    const first = Date.UTC(1970, 0, 1);
    for (const t of instants) {
      const want = parts(t);
      expect(shanghaiDate(new Date(t)), new Date(t).toISOString()).toBe(want.date);
      expect(shanghaiDayIndex(new Date(t)), new Date(t).toISOString()).toBe((Date.parse(`${want.date}T00:00:00Z`) - first) / 86_400_000);
      expect(shanghaiWeekday(new Date(t)), new Date(t).toISOString()).toBe(want.weekday);
      expect(shanghaiMinutes(new Date(t)), new Date(t).toISOString()).toBe(want.minutes);
    }
  });

  it('wrong spans are what the app then believes, so only well-formed ones are taken', () => {
    adoptZoneSpans([[0, Number.MAX_SAFE_INTEGER, 60], ['x', 1, 2] as unknown as [number, number, number]]);
    expect(shanghaiClock(new Date('2026-06-01T00:00:00Z'))).toBe('01:00');
    adoptZoneSpans([]);
    expect(shanghaiClock(new Date('2026-06-01T00:00:00Z'))).toBe('08:00');
  });
});
