import { PASSWORD_MAX, PASSWORD_MIN } from './limits';

/**
 * The settings of decision 045's phone-derived default password (DEFAULT_PASSWORD_PREFIX,
 * DEFAULT_PASSWORD_PHONE_DIGITS). Superseded by decision 053: nothing forms or shows such a password
 * any more; src/server/config.ts still parses the settings until its field is deleted, and this file
 * goes with it.
 */
export interface DefaultPasswordRule {
  prefix: string;
  digits: number;
}

const DEFAULT_PASSWORD_RULE: DefaultPasswordRule = { prefix: '', digits: 6 };

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
