import { describe, expect, it } from 'vitest';
import { activeFilterCount, readScheduleQuery, scheduleSearch, stripDays, weekdayOf } from '../../../src/app/screens/booking/schedule-filter';

const today = '2026-11-22';

describe('course filter in the URL (spec §3)', () => {
  it('reads every filter field the spec names', () => {
    const p = new URLSearchParams('date=2026-11-24&clubId=2&courseTimelong=60&level=beginner&courseAt=evening&catgory=hatha&ability=strength&keywords=%20阴瑜伽%20');
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
    const p = new URLSearchParams('date=2026-12-30&clubId=abc&courseTimelong=61&level=expert&courseAt=night&catgory=Bad Style&ability=x&keywords=');
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
  it('counts seven Shanghai days across a month end', () => {
    expect(stripDays('2026-11-28')).toEqual(['2026-11-28', '2026-11-29', '2026-11-30', '2026-12-01', '2026-12-02', '2026-12-03', '2026-12-04']);
    expect(weekdayOf('2026-11-22')).toBe(0);
  });
});
