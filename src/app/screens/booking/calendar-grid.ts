import type { MyBooking } from '../../../api/booking';
import { daysInMonth, shanghaiDate, weekdayOf } from '../../../domain/time';

/** "YYYY-MM" of a Shanghai date. */
export const monthOf = (date: string) => date.slice(0, 7);

/** A month query value if well-formed, else null. */
export function parseMonth(raw: string | null): string | null {
  if (!raw || !/^\d{4}-(0[1-9]|1[0-2])$/.test(raw)) return null;
  return raw;
}

/**
 * The weeks of a month for a calendar, Monday first: each week seven cells, a date "YYYY-MM-DD" or
 * null for the days of the neighbouring months.
 */
export function monthGrid(month: string): (string | null)[][] {
  const days = daysInMonth(month);
  const lead = (weekdayOf(`${month}-01`) + 6) % 7;
  const cells: (string | null)[] = [...Array<null>(lead).fill(null)];
  for (let d = 1; d <= days; d++) cells.push(`${month}-${String(d).padStart(2, '0')}`);
  while (cells.length % 7) cells.push(null);
  return Array.from({ length: cells.length / 7 }, (_, i) => cells.slice(i * 7, i * 7 + 7));
}

/** What a day's dot says: a seat (booked, checked in or not) or only a queue place. */
export type DayMark = 'booked' | 'queued';

/** The days (Shanghai) with a live booking, for the calendar's dots; cancelled ones are left out. */
export function bookedDays(list: readonly MyBooking[]): Map<string, DayMark> {
  const out = new Map<string, DayMark>();
  for (const b of list) {
    const day = shanghaiDate(new Date(b.class.startsAt));
    if (b.state === 'booked' || b.state === 'checked_in' || b.state === 'not_checked_in') out.set(day, 'booked');
    else if (b.state === 'queued' && !out.has(day)) out.set(day, 'queued');
  }
  return out;
}
