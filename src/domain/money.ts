/** Money is integer cents end to end; this is the one place cents become yuan text (¥19.99, ¥20). */
export function formatYuan(cents: number): string {
  if (!Number.isInteger(cents)) throw new TypeError(`cents must be an integer, got ${cents}`);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const yuan = Math.floor(abs / 100);
  const rest = abs % 100;
  if (rest === 0) return `${sign}¥${yuan}`;
  return `${sign}¥${yuan}.${String(rest).padStart(2, '0')}`;
}

/** A change of money with its sign always shown (+¥20, -¥1.50, ¥0): a balance history's amounts. */
export function formatYuanChange(cents: number): string {
  return cents > 0 ? `+${formatYuan(cents)}` : formatYuan(cents);
}

/** A percent discount, rounded half up to the cent (server side). */
export function applyPercent(cents: number, percent: number): number {
  return Math.floor((cents * percent) / 100 + 0.5);
}
