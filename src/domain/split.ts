/**
 * Splitting what is left to pay of an order (spec §4, §5, §9; decision 021): 2 to 10 parts in whole
 * cents, each above zero and below the amount to pay, adding up to it exactly. The server refuses
 * anything else (40016, 40017, 70003); the split screen checks the same rules first to say which
 * field is wrong.
 */
export const MIN_SPLIT_PARTS = 2;
export const MAX_SPLIT_PARTS = 10;

/** Whether one part may be `cents` of an order with `totalCents` to pay: above zero and below the total. */
export const partInRange = (cents: number, totalCents: number): boolean => Number.isInteger(cents) && cents > 0 && cents < totalCents;

/** Whether an amount to pay can be split at all: two parts of at least a cent each, both below it. */
export const splittable = (totalCents: number): boolean => totalCents >= MIN_SPLIT_PARTS;

/** The screen's first proposal: equal parts, the cents left over on the first part. */
export function equalSplit(totalCents: number, count: number): number[] {
  const each = Math.floor(totalCents / count);
  return Array.from({ length: count }, (_, i) => (i === 0 ? totalCents - each * (count - 1) : each));
}

const YUAN = /^\d{1,7}(\.\d{1,2})?$/;

/** Yuan as a member types it ("12", "12.5", "12.50") in cents; null when it is not an amount with at most 2 decimals. */
export function parseYuan(text: string): number | null {
  const t = text.trim();
  if (!YUAN.test(t)) return null;
  const [yuan, fen = ''] = t.split('.');
  return Number(yuan) * 100 + Number(fen.padEnd(2, '0'));
}

/** Cents as the text of an amount field: always two decimals ("12.50"). */
export function yuanText(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** What is wrong with one part, or with the parts together. */
export type SplitProblem =
  | { field: number; problem: 'notAmount' | 'outOfRange' }
  | { field: 'parts'; problem: 'count' }
  | { field: 'parts'; problem: 'sum'; differenceCents: number };

/**
 * Every problem of the parts (null: a text that is not an amount), each part's first, in order; then
 * the count, then the sum (`differenceCents` = total − sum: still missing when positive, too much when
 * negative). None: the server should accept them (it decides).
 */
export function splitProblems(totalCents: number, parts: ReadonlyArray<number | null>): SplitProblem[] {
  const out: SplitProblem[] = [];
  parts.forEach((p, i) => {
    if (p === null) out.push({ field: i, problem: 'notAmount' });
    else if (!partInRange(p, totalCents)) out.push({ field: i, problem: 'outOfRange' });
  });
  if (parts.length < MIN_SPLIT_PARTS || parts.length > MAX_SPLIT_PARTS) out.push({ field: 'parts', problem: 'count' });
  if (parts.every((p) => p !== null)) {
    const sum = (parts as number[]).reduce((a, p) => a + p, 0);
    if (sum !== totalCents) out.push({ field: 'parts', problem: 'sum', differenceCents: totalCents - sum });
  }
  return out;
}
