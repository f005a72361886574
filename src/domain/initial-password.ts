import { isPhoneDerivedPassword } from './phone-derived-password';

/**
 * The initial password of a member registered at the front desk (decision 054): random, read out or
 * written down by the desk, so no look-alike characters (no 0/O/o, 1/I/l/i). 54 symbols x 10 places
 * is about 57 bits: far beyond the 10 wrong tries an hour a phone is allowed.
 */
export const INITIAL_PASSWORD_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZabcdefghjkmnpqrstuvwxyz23456789';
export const INITIAL_PASSWORD_LENGTH = 10;

/** The page a session opened with an initial password is kept on until it sets a new one. */
export const NEW_PASSWORD_PAGE = '/mine/changepassword';

/** That page, asked to go on to `then` once the new password is set (the app and the page renderer both send there). */
export function newPasswordFirstPath(then: string): string {
  return `${NEW_PASSWORD_PAGE}?first=1&then=${encodeURIComponent(then)}`;
}

/** A uniform whole number from 0 to `below - 1`; the server passes node:crypto's randomInt. */
export type RandomIndex = (below: number) => number;

/**
 * A fresh initial password from a secure random source; drawn again in the (about one in ten
 * million) case that it happens to end like the phone, so no initial password is phone-derived.
 */
export function initialPassword(phone: string, randomIndex: RandomIndex): string {
  for (;;) {
    let pw = '';
    for (let i = 0; i < INITIAL_PASSWORD_LENGTH; i++) pw += INITIAL_PASSWORD_ALPHABET[randomIndex(INITIAL_PASSWORD_ALPHABET.length)];
    if (!isPhoneDerivedPassword(phone, pw)) return pw;
  }
}
