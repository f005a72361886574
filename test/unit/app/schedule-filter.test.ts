import { describe, expect, it } from 'vitest';
import {
  activeFilterCount,
  bookableDays,
  filterReturn,
  filterSearch,
  readScheduleQuery,
  scheduleSearch,
  shanghaiToday,
  stripDays,
  weekdayOf,
} from '../../../src/app/screens/booking/schedule-filter';
import { fixedClock } from '../../../src/domain/clock';

const today = '2026-11-22';

describe('course filter in the URL (spec §3)', () => {
  it('reads every filter field the spec names', () => {
    const p = new URLSearchParams(
      'date=2026-11-24&clubId=2&courseTimelong=60&level=beginner&courseAt=evening&catgory=hatha&ability=strength&keywords=%20阴瑜伽%20',
    );
    expect(readScheduleQuery(p, today)).toEqual({
      date: '2026-11-24',
      clubId: 2,
      courseTimelong: 60,
      level: 'beginner',
      courseAt: 'evening',
      catgory: 'hatha',
      ability: 'strength',
      keywords: '阴瑜伽',
    });
  });

  it('drops malformed or unknown values and days outside the strip', () => {
    const p = new URLSearchParams(
      'date=2026-12-30&clubId=abc&courseTimelong=61&level=expert&courseAt=night&catgory=Bad Style&ability=x&keywords=',
    );
    expect(readScheduleQuery(p, today)).toEqual({ date: today });
  });

  it('adds the page class type (regular classes) without putting it in the URL', () => {
    const q = readScheduleQuery(new URLSearchParams('level=advanced'), today, 'regular');
    expect(q.type).toBe('regular');
    expect(scheduleSearch(q)).toBe(`?date=${today}&level=advanced`);
  });

  it('writes a change and removes emptied fields', () => {
    const q = readScheduleQuery(new URLSearchParams('clubId=3&level=beginner'), today);
    expect(scheduleSearch(q, { date: '2026-11-23', level: undefined })).toBe('?date=2026-11-23&clubId=3');
    expect(activeFilterCount(q)).toBe(1);
  });
});

describe('week strip', () => {
  it('counts eight Shanghai days across a month end (a 7-day card books the last)', () => {
    expect(stripDays('2026-11-28')).toEqual([
      '2026-11-28',
      '2026-11-29',
      '2026-11-30',
      '2026-12-01',
      '2026-12-02',
      '2026-12-03',
      '2026-12-04',
      '2026-12-05',
    ]);
    expect(weekdayOf('2026-11-22')).toBe(0);
  });
});

describe('the filter page', () => {
  it('returns to the schedule it was opened from, never elsewhere', () => {
    expect(filterReturn(new URLSearchParams('back=/takecourse/bookcourse_yoga'))).toBe('/takecourse/bookcourse_yoga');
    expect(filterReturn(new URLSearchParams('back=/takecourse/bookcourse'))).toBe('/takecourse/bookcourse');
    expect(filterReturn(new URLSearchParams(''))).toBe('/takecourse/bookcourse');
    expect(filterReturn(new URLSearchParams('back=https://evil.example/'))).toBe('/takecourse/bookcourse');
    expect(filterReturn(new URLSearchParams('back=//evil.example'))).toBe('/takecourse/bookcourse');
  });

  it('submits only the conditions that are set (empty "any" choices leave the URL)', () => {
    const form = [
      ['clubId', ''],
      ['date', '2026-11-23'],
      ['courseAt', ''],
      ['courseTimelong', '60'],
      ['level', ''],
      ['catgory', ''],
      ['ability', ''],
      ['keywords', '  '],
    ] as [string, string][];
    expect(filterSearch(form, today)).toBe('?date=2026-11-23&courseTimelong=60');
    expect(filterSearch([['keywords', ' 阴瑜伽 ']], today)).toBe(`?date=${today}&keywords=%E9%98%B4%E7%91%9C%E4%BC%BD`);
  });
});

describe('the booking window on the week strip (spec §5, by Shanghai calendar day)', () => {
  it('marks today and the days ahead the server counted (level 1: one; others: three; a 7-day card: seven)', () => {
    expect(bookableDays('2026-11-22', 1)).toEqual(['2026-11-22', '2026-11-23']);
    expect(bookableDays('2026-11-30', 3)).toEqual(['2026-11-30', '2026-12-01', '2026-12-02', '2026-12-03']);
    expect(bookableDays('2026-11-22', 7)).toEqual(stripDays('2026-11-22'));
    // never more days than the strip shows
    expect(bookableDays('2026-11-22', 30)).toEqual(stripDays('2026-11-22'));
  });

  it('today comes from the injected clock, in Shanghai (23:30 UTC is the next day there)', () => {
    expect(shanghaiToday(fixedClock('2026-11-22T15:59:00Z'))).toBe('2026-11-22');
    expect(shanghaiToday(fixedClock('2026-11-22T16:00:00Z'))).toBe('2026-11-23');
  });
});
