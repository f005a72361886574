import type { ScheduleQuery } from '../../../api/booking';
import { addDays, shanghaiDate } from '../../../domain/time';
import { DIFFICULTIES, EFFECTS, TIMES_OF_DAY, type ClassTypeKey } from '../../../domain/catalog';
import type { Clock } from '../../../domain/clock';
import { parseId } from '../../ui/data-or';

/** The durations a member can filter by (minutes; the seeded day has 45, 60 and 75 minute slots). */
export const DURATIONS = [45, 60, 75, 90] as const;

/** How many days the strip shows, from today (Shanghai): a week ahead, the widest card window (spec §9). */
export const STRIP_DAYS = 8;

const oneOf = <T extends string>(list: readonly { value: T }[], raw: string | null): T | undefined =>
  list.find((e) => e.value === raw)?.value;

/**
 * The course filter of spec §3 read from a URL query (the filter lives in the URL so the server
 * renders the filtered list). Anything unknown or malformed is dropped, never sent on.
 */
export function readScheduleQuery(params: URLSearchParams, today: string, type?: ClassTypeKey): ScheduleQuery & { date: string } {
  const date = params.get('date');
  const days = stripDays(today);
  const q: ScheduleQuery & { date: string } = { date: date && days.includes(date) ? date : today };
  const clubId = parseId(params.get('clubId'));
  if (clubId !== null) q.clubId = clubId;
  const minutes = Number(params.get('courseTimelong'));
  if ((DURATIONS as readonly number[]).includes(minutes)) q.courseTimelong = minutes;
  const level = oneOf(DIFFICULTIES, params.get('level'));
  if (level) q.level = level;
  const courseAt = oneOf(TIMES_OF_DAY, params.get('courseAt'));
  if (courseAt) q.courseAt = courseAt;
  const catgory = params.get('catgory');
  if (catgory && /^[a-z0-9-]{1,40}$/.test(catgory)) q.catgory = catgory;
  const ability = oneOf(EFFECTS, params.get('ability'));
  if (ability) q.ability = ability;
  const keywords = (params.get('keywords') ?? '').trim().slice(0, 40);
  if (keywords) q.keywords = keywords;
  if (type) q.type = type;
  return q;
}

/** The URL query of a schedule query (the day first); the class type is the page's own, not in the URL. */
export function scheduleSearch(q: ScheduleQuery, change: Partial<Record<keyof ScheduleQuery, string | number | undefined>> = {}): string {
  const merged: Record<string, string | number | undefined> = { ...q, ...change };
  delete merged.type;
  const order = ['date', 'clubId', 'courseTimelong', 'level', 'courseAt', 'catgory', 'ability', 'keywords'];
  const p = new URLSearchParams();
  for (const k of order) {
    const v = merged[k];
    if (v !== undefined && v !== '') p.set(k, String(v));
  }
  const s = p.toString();
  return s ? `?${s}` : '';
}

/** How many filter conditions (beyond the day and the studio) are on: the filter button shows it. */
export function activeFilterCount(q: ScheduleQuery): number {
  return (['courseTimelong', 'level', 'courseAt', 'catgory', 'ability', 'keywords'] as const).filter((k) => q[k] !== undefined).length;
}

/** The Shanghai days of the week strip, "YYYY-MM-DD", from today. */
export function stripDays(today: string, count = STRIP_DAYS): string[] {
  return Array.from({ length: count }, (_, i) => addDays(today, i));
}

/** Today in Shanghai by the injected clock (a loader passes clockFrom(context): the server's time). */
export function shanghaiToday(clock: Clock): string {
  return shanghaiDate(clock.now());
}

/** The schedules a filter page may return to (`?back=`); anything else goes to the main schedule. */
const FILTER_RETURNS = ['/takecourse/bookcourse', '/takecourse/bookcourse_yoga'] as const;

/** Where the filter page sends its result: the schedule it was opened from. */
export function filterReturn(params: URLSearchParams): string {
  const back = params.get('back');
  return FILTER_RETURNS.find((p) => p === back) ?? FILTER_RETURNS[0];
}

/** The URL query of a submitted filter form: only the conditions that are set, in the usual order. */
export function filterSearch(form: Iterable<[string, FormDataEntryValue]>, today: string): string {
  const p = new URLSearchParams();
  for (const [k, v] of form) if (typeof v === 'string' && v.trim() !== '') p.set(k, v);
  // a day outside the strip (or none) is today: say so, so the list and the strip agree
  return scheduleSearch(readScheduleQuery(p, today));
}

/**
 * The days of the strip this member may book (spec §5, by Shanghai calendar day): today and the
 * `days` after it, as the server counts them from the member's level and cards (decision 014).
 */
export function bookableDays(today: string, days: number): string[] {
  return stripDays(today, Math.min(days, STRIP_DAYS - 1) + 1);
}

/** Day of week of a Shanghai date (0 Sunday). */
export function weekdayOf(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay();
}
