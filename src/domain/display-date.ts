/** Asia/Shanghai is UTC+8 all year (no daylight saving), so its wall clock is a fixed shift. */
const SHANGHAI_OFFSET_MS = 8 * 60 * 60 * 1000;

/**
 * An instant as a Shanghai calendar date, "2026-11-20" (DESIGN.md §4: Asia/Shanghai for calendar
 * rules). Computed without the runtime's time zone or ICU data, so the server render and the phone
 * print the same text (no hydration mismatch). An unreadable value gives ''.
 */
export function shanghaiDate(iso: string | Date): string {
  const t = typeof iso === 'string' ? Date.parse(iso) : iso.getTime();
  if (!Number.isFinite(t)) return '';
  return new Date(t + SHANGHAI_OFFSET_MS).toISOString().slice(0, 10);
}

/** The month and day only, "11-20", for short lists (notices). */
export function shanghaiMonthDay(iso: string | Date): string {
  return shanghaiDate(iso).slice(5);
}

/** A span of days, "11-20 – 11-22", or one day when both ends fall on the same Shanghai date. */
export function shanghaiDateSpan(from: string | Date, to: string | Date): string {
  const a = shanghaiDate(from);
  const b = shanghaiDate(to);
  if (!a || !b) return a || b;
  if (a === b) return a.slice(5);
  return a.slice(0, 4) === b.slice(0, 4) ? `${a.slice(5)} – ${b.slice(5)}` : `${a} – ${b}`;
}
