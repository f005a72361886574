import { describe, expect, it } from 'vitest';
import { shanghaiDate, shanghaiDateSpan, shanghaiMonthDay } from '../../src/domain/display-date';

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
