import { PASSWORD_MAX, PASSWORD_MIN } from './limits';

/** Mainland mobile numbers: 11 digits starting with 1 and a 3-9 second digit (spec §5). */
const PHONE_RE = /^1[3-9]\d{9}$/;

/** Phone and secret are trimmed before any check (spec §5). */
export function trimInput(value: string | undefined | null): string {
  return (value ?? '').trim();
}

export function isValidPhone(phone: string): boolean {
  return PHONE_RE.test(trimInput(phone));
}

/** Passwords are 6 to 15 characters (spec §5, §9). */
export function isValidPasswordLength(password: string): boolean {
  const n = [...password].length;
  return n >= PASSWORD_MIN && n <= PASSWORD_MAX;
}

/** A verification code is 6 digits. */
export function isValidSmsCode(code: string): boolean {
  return /^\d{6}$/.test(trimInput(code));
}

/** A required field holds something once trimmed (captcha, password, old password: spec §5). */
export function isFilled(value: string | undefined | null): boolean {
  return trimInput(value).length > 0;
}

/** Why a new password is refused before it is sent (spec §5), or undefined when it is acceptable. */
export type NewPasswordProblem = 'length' | 'mismatch' | 'sameAsOld';

/**
 * The new-password rules of spec §5 in their order: 6 to 15 characters, both entries match,
 * and (when the old one is known) different from the old one.
 */
export function newPasswordProblem(next: string, again: string, old?: string): NewPasswordProblem | undefined {
  const n = trimInput(next);
  if (!isValidPasswordLength(n)) return 'length';
  if (n !== trimInput(again)) return 'mismatch';
  if (old !== undefined && n === trimInput(old)) return 'sameAsOld';
  return undefined;
}
