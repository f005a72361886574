/**
 * A person's identity as members and staff type it (spec §3 personal information, transfer; §5; §9
 * real name max 20; decision 032): the one real-name rule and the one resident ID number validator,
 * used by personal information and card transfer, by the server's checks and the app's forms. Pure.
 */

import { REAL_NAME_MAX } from './limits';

/** Spec §9: a real name is at most this many characters (named once, in limits). */
export { REAL_NAME_MAX };

/**
 * Digits of any script, full-width `１２３` and Arabic-Indic `٣` as much as ASCII `123`, and the spaces
 * between them: `\d` alone matches ASCII digits only, so `１２３４５` passed as a name (decision 053).
 */
const NUMERIC = /^[\p{Nd}\s]+$/u;

/** Spec §5 real name: required, at most 20 characters, not numeric (in any script's digits). */
export function validRealName(name: string): boolean {
  const n = name.trim();
  return n.length > 0 && [...n].length <= REAL_NAME_MAX && !NUMERIC.test(n);
}

/** What is wrong with a resident ID number, so a form can say which: its shape, its birth date, its check character. */
export type IdNumberProblem = 'format' | 'birthDate' | 'checkDigit';

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK = '10X98765432';

/**
 * A mainland resident ID number (GB 11643): 17 digits and a check character (digit or X, either
 * case); characters 7-14 a real birth date from 1900 on and not after `today` (YYYY-MM-DD, when given);
 * the check character computed from the 17 digits. Null when it is right.
 */
export function idNumberProblem(id: string, today?: string): IdNumberProblem | null {
  const s = id.trim().toUpperCase();
  if (!/^\d{17}[\dX]$/.test(s)) return 'format';
  const birth = `${s.slice(6, 10)}-${s.slice(10, 12)}-${s.slice(12, 14)}`;
  const t = Date.parse(`${birth}T00:00:00Z`);
  if (
    !Number.isFinite(t) ||
    new Date(t).toISOString().slice(0, 10) !== birth ||
    birth < '1900-01-01' ||
    (today !== undefined && birth > today)
  )
    return 'birthDate';
  const sum = ID_WEIGHTS.reduce((acc, w, i) => acc + w * Number(s[i]), 0);
  return ID_CHECK[sum % 11] === s[17] ? null : 'checkDigit';
}

/** Whether an ID number is right (`idNumberProblem` finds nothing). */
export function validIdNumber(id: string, today?: string): boolean {
  return idNumberProblem(id, today) === null;
}

/** An ID number as stored and compared: trimmed, the check character upper case. */
export const normalIdNumber = (id: string) => id.trim().toUpperCase();

/** `11010519491231002X` → `1101**********002X`: the first four and last four characters, enough for the member to recognise it. */
export function maskIdNumber(id: string): string {
  return id.length > 8 ? `${id.slice(0, 4)}${'*'.repeat(id.length - 8)}${id.slice(-4)}` : '*'.repeat(id.length);
}
