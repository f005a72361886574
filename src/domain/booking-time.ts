/**
 * Calendar arithmetic in Asia/Shanghai for the booking rules. Shanghai has had no daylight saving
 * since 1991, so local time is UTC+08:00 always: plain offset math, no time-zone database.
 */
export const SHANGHAI_OFFSET_MS = 8 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Days since 1970-01-01 in Shanghai: two instants on the same local day give the same number. */
export function shanghaiDayIndex(at: Date): number {
  return Math.floor((at.getTime() + SHANGHAI_OFFSET_MS) / DAY_MS);
}

/** The local calendar date, "YYYY-MM-DD". */
export function shanghaiDate(at: Date): string {
  return new Date(at.getTime() + SHANGHAI_OFFSET_MS).toISOString().slice(0, 10);
}

/** Day of the week in Shanghai: 0 Sunday .. 6 Saturday. */
export function shanghaiWeekday(at: Date): number {
  return new Date(at.getTime() + SHANGHAI_OFFSET_MS).getUTCDay();
}

/** Minutes after local midnight. */
export function shanghaiMinutes(at: Date): number {
  const local = new Date(at.getTime() + SHANGHAI_OFFSET_MS);
  return local.getUTCHours() * 60 + local.getUTCMinutes();
}

/** "HH:MM" local. */
export function shanghaiClock(at: Date): string {
  return new Date(at.getTime() + SHANGHAI_OFFSET_MS).toISOString().slice(11, 16);
}

/** The instant of local midnight starting "YYYY-MM-DD" (throws on a malformed date). */
export function shanghaiMidnight(date: string): Date {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) throw new Error(`not a date: ${date}`);
  const utc = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  if (Number.isNaN(utc) || new Date(utc).toISOString().slice(0, 10) !== date) throw new Error(`not a date: ${date}`);
  return new Date(utc - SHANGHAI_OFFSET_MS);
}

/** The same local wall time n calendar months later (the day clamped to the month's end). */
export function addShanghaiMonths(at: Date, n: number): Date {
  const local = new Date(at.getTime() + SHANGHAI_OFFSET_MS);
  const y = local.getUTCFullYear();
  const m = local.getUTCMonth() + n;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const d = Math.min(local.getUTCDate(), lastDay);
  const shifted = Date.UTC(y, m, d, local.getUTCHours(), local.getUTCMinutes(), local.getUTCSeconds(), local.getUTCMilliseconds());
  return new Date(shifted - SHANGHAI_OFFSET_MS);
}

/** Spec §9 time of day: morning before 12:00, afternoon before 18:00, evening after. */
export function timeOfDay(at: Date): 'morning' | 'afternoon' | 'evening' {
  const min = shanghaiMinutes(at);
  if (min < 12 * 60) return 'morning';
  if (min < 18 * 60) return 'afternoon';
  return 'evening';
}

/** A Shanghai calendar month "YYYY-MM": from its first midnight to the next month's. */
export function shanghaiMonthRange(month: string): { from: Date; to: Date } {
  const m = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(month);
  if (!m) throw new Error(`not a month: ${month}`);
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const next = mo === 12 ? `${y + 1}-01` : `${y}-${String(mo + 1).padStart(2, '0')}`;
  return { from: shanghaiMidnight(`${month}-01`), to: shanghaiMidnight(`${next}-01`) };
}
