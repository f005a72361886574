/**
 * The one time module: every calendar-day and time-zone computation (Asia/Shanghai, DESIGN.md §4)
 * goes through here, on dayjs with its utc and timezone plugins (extended once, below), the zone's
 * offsets read from Intl's time-zone database (or, in the browser, the server's reading of it: the
 * boot data's spans). Nothing else adds an offset by hand. Instants come from the injected Clock
 * (./clock), never from Date.now().
 *
 * Two kinds of value: an instant (a Date) and a Shanghai calendar date ("YYYY-MM-DD", or a month
 * "YYYY-MM"). Arithmetic on calendar dates runs in dayjs's UTC mode, which is a plain calendar with
 * no zone; an instant becomes a date, and a date an instant, only through `TIME_ZONE`.
 */
import dayjs, { type Dayjs } from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';
import { TIME_ZONE } from './limits';

dayjs.extend(utc);
dayjs.extend(timezone);

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** A stretch of time with one offset from UTC: from and to (ms since the epoch, to excluded), offset in minutes. */
export type ZoneSpan = [from: number, to: number, offset: number];

const QUARTER_HOUR_MS = 15 * 60 * 1000;
/**
 * A day as a length of time, 24 hours: what a validity period, a window or a limit "of N days" adds to
 * an instant (Shanghai has kept no summer time since 1991, so it lands on the same wall time as
 * `addShanghaiDays`). Calendar days are `addShanghaiDays`, `addDays` and the rest.
 */
export const DAY_MS = 86_400_000;
export const HOUR_MS = 3_600_000;

/** One formatter per zone: creating one costs a phone tens of microseconds, the first the zone data's load. */
const formatters = new Map<string, Intl.DateTimeFormat>();

/** A zone's offset from UTC at an instant, in minutes, from the time-zone database the runtime carries (Intl). */
function intlOffset(t: number, zone: string): number {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, f);
  }
  const p: Record<string, number> = {};
  for (const { type, value } of f.formatToParts(t)) if (type !== 'literal') p[type] = Number(value);
  const wall = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
  return Math.round((wall - Math.floor(t / 1000) * 1000) / 60_000);
}

/**
 * A zone's offsets over [from, to), as spans of one offset each. Sampled once a day, and a change
 * found between two samples is placed to the quarter hour (zones change offset on quarter-hour
 * instants, and never twice in a day).
 */
export function zoneOffsetSpans(from: number, to: number, zone: string = TIME_ZONE): ZoneSpan[] {
  const spans: ZoneSpan[] = [];
  let start = Math.floor(from / QUARTER_HOUR_MS) * QUARTER_HOUR_MS;
  let offset = intlOffset(start, zone);
  for (let t = start; t < to; ) {
    const next = Math.min(t + DAY_MS, to);
    if (intlOffset(next, zone) === offset) {
      t = next;
      continue;
    }
    // the first quarter hour in (t, next] with another offset
    let lo = t;
    let hi = Math.ceil(next / QUARTER_HOUR_MS) * QUARTER_HOUR_MS;
    while (hi - lo > QUARTER_HOUR_MS) {
      const mid = lo + Math.floor((hi - lo) / 2 / QUARTER_HOUR_MS) * QUARTER_HOUR_MS;
      if (intlOffset(mid, zone) === offset) lo = mid;
      else hi = mid;
    }
    spans.push([start, hi, offset]);
    start = hi;
    offset = intlOffset(hi, zone);
    t = hi;
  }
  spans.push([start, to, offset]);
  return spans;
}

/**
 * Shanghai's offsets the server found (the page's boot data, decision 052). A phone's first use of
 * the zone through Intl loads its time-zone data: 30 ms of a phone's main thread in the middle of
 * hydrating the Homepage (80 ms in a fresh browser), for an answer the server already had.
 */
let known: ZoneSpan[] = [];

/** Takes Shanghai's offsets over a stretch of time from the server (none: ask Intl again). */
export function adoptZoneSpans(spans: ZoneSpan[]): void {
  known = spans.filter((s) => Array.isArray(s) && s.length === 3 && s.every(Number.isFinite));
}

/** Shanghai's offsets from a year before `at` to a year after, for the page's boot data (kept per day). */
export function shanghaiZoneSpans(at: Date): ZoneSpan[] {
  const day = Math.floor(at.getTime() / DAY_MS);
  if (spansDay !== day) {
    spansAround = zoneOffsetSpans((day - 366) * DAY_MS, (day + 367) * DAY_MS);
    spansDay = day;
  }
  return spansAround;
}
let spansDay: number | undefined;
let spansAround: ZoneSpan[] = [];

/**
 * Shanghai's offset from UTC, in minutes, at an instant: from the server's spans when they cover
 * it, else from Intl, kept per quarter hour (asking on every call cost a schedule of class rows tens
 * of milliseconds on a slow phone; zones change offset only on quarter-hour instants).
 */
const offsets = new Map<number, number>();
function zoneOffsetAt(t: number): number {
  for (const [from, to, offset] of known) if (t >= from && t < to) return offset;
  const quarter = Math.floor(t / QUARTER_HOUR_MS);
  let offset = offsets.get(quarter);
  if (offset === undefined) {
    offset = intlOffset(t, TIME_ZONE);
    if (offsets.size >= 10_000) offsets.clear();
    offsets.set(quarter, offset);
  }
  return offset;
}

/**
 * An instant's Shanghai wall clock as milliseconds since 1970-01-01 00:00 on that clock: its calendar
 * day is `floor(wall / DAY_MS)`, its time of day the rest. Arithmetic instead of a dayjs object
 * formatted and parsed back, for the rules checked per request and per schedule row: the day index,
 * minutes and date took 10-11 µs a call together, now under 1 µs (the booking race's profile had
 * them at 7% of the server's CPU).
 */
function wallMs(t: number): number {
  return t + zoneOffsetAt(t) * 60_000;
}

/** An instant read on the Shanghai wall clock. */
function inShanghai(at: Date | string | number): Dayjs {
  const instant = dayjs(at);
  return instant.utcOffset(zoneOffsetAt(instant.valueOf()));
}

/** A Shanghai calendar date as a zone-free calendar value (UTC mode), for day and month arithmetic. */
const calendar = (date: string): Dayjs => dayjs.utc(date);

/** An instant formatted on the Shanghai wall clock with dayjs tokens ("YYYY-MM-DD HH:mm:ss", "Z" gives +08:00). */
export function shanghaiFormat(at: Date, pattern: string): string {
  return inShanghai(at).format(pattern);
}

/** A stored instant (ISO text) as Shanghai date and minute, "2026-11-20 10:30"; none gives ''. */
export function shanghaiMinute(iso: string | null | undefined): string {
  return iso ? inShanghai(iso).format('YYYY-MM-DD HH:mm') : '';
}

/**
 * An instant as a Shanghai calendar date, "2026-11-20". The same text on the server and the phone
 * whatever their own zone (no hydration mismatch). An unreadable value gives ''.
 */
export function shanghaiDate(at: string | Date): string {
  const t = typeof at === 'string' ? Date.parse(at) : at.getTime();
  if (!Number.isFinite(t)) return '';
  const wall = new Date(wallMs(t));
  const year = wall.getUTCFullYear();
  // toISOString writes years outside 0..9999 with a sign and six digits; dayjs's format does not
  return year >= 0 && year <= 9999 ? wall.toISOString().slice(0, 10) : inShanghai(t).format('YYYY-MM-DD');
}

/**
 * The last Shanghai day of a validity that ends at `end` (exclusive: a card, coupon or course valid
 * "until 2027-09-30" ends at the midnight that starts 10-01). Every screen shows an end this way.
 */
export function lastValidDay(end: Date | string): string {
  const t = typeof end === 'string' ? Date.parse(end) : end.getTime();
  return shanghaiDate(new Date(t - 1));
}

/** "HH:MM" on the Shanghai wall clock. */
export function shanghaiClock(at: Date): string {
  return inShanghai(at).format('HH:mm');
}

/** The month and day only, "11-20", for short lists (notices). */
export function shanghaiMonthDay(at: string | Date): string {
  return shanghaiDate(at).slice(5);
}

/** A span of days, "11-20 – 11-22", or one day when both ends fall on the same Shanghai date. */
export function shanghaiDateSpan(from: string | Date, to: string | Date): string {
  const a = shanghaiDate(from);
  const b = shanghaiDate(to);
  if (!a || !b) return a || b;
  if (a === b) return a.slice(5);
  return a.slice(0, 4) === b.slice(0, 4) ? `${a.slice(5)} – ${b.slice(5)}` : `${a} – ${b}`;
}

/** Days since 1970-01-01 in Shanghai: two instants on the same local day give the same number. */
export function shanghaiDayIndex(at: Date): number {
  return Math.floor(wallMs(at.getTime()) / DAY_MS);
}

/** Day of the week in Shanghai: 0 Sunday .. 6 Saturday. */
export function shanghaiWeekday(at: Date): number {
  // 1970-01-01 was a Thursday
  return (((shanghaiDayIndex(at) + 4) % 7) + 7) % 7;
}

/** Minutes after Shanghai midnight. */
export function shanghaiMinutes(at: Date): number {
  const wall = wallMs(at.getTime());
  return Math.floor((wall - Math.floor(wall / DAY_MS) * DAY_MS) / 60_000);
}

/** The instant of Shanghai midnight starting "YYYY-MM-DD" (throws on a malformed date). */
export function shanghaiMidnight(date: string): Date {
  let t = midnights.get(date);
  if (t === undefined) {
    if (!DATE.test(date) || calendar(date).format('YYYY-MM-DD') !== date) throw new Error(`not a date: ${date}`);
    t = dayjs.tz(date, TIME_ZONE).valueOf();
    if (midnights.size >= 10_000) midnights.clear();
    midnights.set(date, t);
  }
  return new Date(t);
}
/** Shanghai midnights already computed, by date (dayjs.tz parsing is slow on a phone). */
const midnights = new Map<string, number>();

/** Start of the Shanghai calendar day containing `at`, as an instant (the daily SMS cap counts from it). */
export function shanghaiDayStart(at: Date): Date {
  return shanghaiMidnight(shanghaiDate(at));
}

/** A Shanghai wall time "YYYY-MM-DD HH:mm:ss" read back into an instant (undefined if malformed). */
export function parseShanghaiWallTime(wall: string): Date | undefined {
  const m = /^(\d{4}-\d{2}-\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(wall);
  if (!m || Number(m[2]) > 23 || Number(m[3]) > 59 || Number(m[4]) > 59) return undefined;
  try {
    return new Date(shanghaiMidnight(m[1]!).getTime() + ((Number(m[2]) * 60 + Number(m[3])) * 60 + Number(m[4])) * 1000);
  } catch {
    return undefined;
  }
}

/** The instant `days` days of 24 hours after `from` (negative: before). */
export function daysAfter(from: Date, days: number): Date {
  return new Date(from.getTime() + days * DAY_MS);
}

/** The calendar date n days after "YYYY-MM-DD" (n may be negative). */
export function addDays(date: string, n: number): string {
  return calendar(date).add(n, 'day').format('YYYY-MM-DD');
}

/** Calendar days from "YYYY-MM-DD" to "YYYY-MM-DD" (negative when `until` is earlier). */
export function daysFromTo(from: string, until: string): number {
  return calendar(until).diff(calendar(from), 'day');
}

/** The same Shanghai wall time n calendar days later (n may be negative). */
export function addShanghaiDays(at: Date, n: number): Date {
  return inShanghai(at).add(n, 'day').toDate();
}

/** The Shanghai date n calendar days after the day of `at`. */
export function shanghaiDateAfter(at: Date, n: number): string {
  return addDays(shanghaiDate(at), n);
}

/** The same Shanghai wall time n calendar months later (the day clamped to the month's end). */
export function addShanghaiMonths(at: Date, n: number): Date {
  const local = inShanghai(at);
  const day = calendar(local.format('YYYY-MM-DD')).add(n, 'month').format('YYYY-MM-DD');
  return new Date(shanghaiMidnight(day).getTime() + (at.getTime() - shanghaiDayStart(at).getTime()));
}

/** The month before or after "YYYY-MM". */
export function addMonths(month: string, by: number): string {
  return calendar(`${month}-01`).add(by, 'month').format('YYYY-MM');
}

/** How many days "YYYY-MM" has. */
export function daysInMonth(month: string): number {
  return calendar(`${month}-01`).daysInMonth();
}

/** Day of the week of a calendar date "YYYY-MM-DD": 0 Sunday .. 6 Saturday. */
export function weekdayOf(date: string): number {
  return calendar(date).day();
}

/** A Shanghai calendar month "YYYY-MM": from its first midnight to the next month's. */
export function shanghaiMonthRange(month: string): { from: Date; to: Date } {
  if (!MONTH.test(month)) throw new Error(`not a month: ${month}`);
  return { from: shanghaiMidnight(`${month}-01`), to: shanghaiMidnight(`${addMonths(month, 1)}-01`) };
}
