import { PASSWORD_MAX, PASSWORD_MIN } from './limits';

/**
 * The default password of a member registered by staff at the front desk (spec §9 "default password
 * hint {secret}", decision 045): a fixed prefix and the
 * last digits of the member's phone. The rule comes from configuration (DEFAULT_PASSWORD_PREFIX,
 * DEFAULT_PASSWORD_PHONE_DIGITS); the login page shows how it is formed, never a password.
 */
export interface DefaultPasswordRule {
  /** letters or digits put before the phone's digits ('' by default) */
  prefix: string;
  /** how many of the phone's last digits follow the prefix (6 by default) */
  digits: number;
}

export const DEFAULT_PASSWORD_RULE: DefaultPasswordRule = { prefix: '', digits: 6 };

/** The rule from the two settings, or why they cannot make a password of 6 to 15 characters. */
export function parseDefaultPasswordRule(prefix: string | undefined, digits: string | undefined): DefaultPasswordRule {
  const p = (prefix ?? '').trim();
  const d = digits === undefined || digits.trim() === '' ? DEFAULT_PASSWORD_RULE.digits : Number(digits);
  if (!/^[A-Za-z0-9]*$/.test(p)) throw new Error('DEFAULT_PASSWORD_PREFIX: letters and digits only');
  if (!Number.isInteger(d) || d < 4 || d > 11) throw new Error('DEFAULT_PASSWORD_PHONE_DIGITS: a whole number from 4 to 11');
  const length = p.length + d;
  if (length < PASSWORD_MIN || length > PASSWORD_MAX) throw new Error(`DEFAULT_PASSWORD_PREFIX and DEFAULT_PASSWORD_PHONE_DIGITS make ${length} characters; a password has ${PASSWORD_MIN} to ${PASSWORD_MAX}`);
  return { prefix: p, digits: d };
}

/** The default password the rule gives this phone. */
export function defaultPasswordFor(phone: string, rule: DefaultPasswordRule): string {
  return `${rule.prefix}${phone.trim().slice(-rule.digits)}`;
}

/** Whether a password that logged in is the phone's default one (the member is then asked to change it). */
export function isDefaultPassword(phone: string, password: string, rule: DefaultPasswordRule): boolean {
  return password.trim() === defaultPasswordFor(phone, rule);
}
