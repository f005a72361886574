import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { INITIAL_PASSWORD_ALPHABET, INITIAL_PASSWORD_LENGTH, initialPassword } from '../../src/domain/initial-password';
import { PASSWORD_MAX, PASSWORD_MIN } from '../../src/domain/limits';
import { isPhoneDerivedPassword } from '../../src/domain/phone-derived-password';

describe('the initial password of a member registered at the desk (decision 054)', () => {
  it('is 10 characters of an alphabet without look-alikes, within the 6 to 15 password rule', () => {
    expect(INITIAL_PASSWORD_LENGTH).toBeGreaterThanOrEqual(PASSWORD_MIN);
    expect(INITIAL_PASSWORD_LENGTH).toBeLessThanOrEqual(PASSWORD_MAX);
    expect(INITIAL_PASSWORD_ALPHABET).not.toMatch(/[0O1Il]|o|i/);
    expect(new Set(INITIAL_PASSWORD_ALPHABET).size).toBe(INITIAL_PASSWORD_ALPHABET.length);
    for (let i = 0; i < 200; i++) {
      const pw = initialPassword('13812345678', randomInt);
      expect(pw).toHaveLength(INITIAL_PASSWORD_LENGTH);
      expect([...pw].every((ch) => INITIAL_PASSWORD_ALPHABET.includes(ch))).toBe(true);
    }
  });

  it('comes from the random source, not from the phone: two phones, the same draws, the same password', () => {
    const draws = (seed: number) => {
      let n = seed;
      return (below: number) => (n = (n * 31 + 7) % 1009) % below;
    };
    expect(initialPassword('13812345678', draws(1))).toBe(initialPassword('13900000000', draws(1)));
    expect(initialPassword('13812345678', draws(1))).not.toBe(initialPassword('13812345678', draws(2)));
    const seen = new Set(Array.from({ length: 500 }, () => initialPassword('13812345678', randomInt)));
    expect(seen.size).toBe(500);
  });

  it('is never phone-derived: draws that would end in the phone’s last digits are drawn again', () => {
    // the first ten draws spell "ABCDEF5678", which ends like the phone; the next ten do not
    const first = 'ABCDEF5678';
    const queue = [...first, ...'ABCDEFGHJK'].map((ch) => INITIAL_PASSWORD_ALPHABET.indexOf(ch));
    const pw = initialPassword('13812345678', () => queue.shift()!);
    expect(pw).toBe('ABCDEFGHJK');
    expect(isPhoneDerivedPassword('13812345678', pw)).toBe(false);
  });
});

describe('a phone-derived password (the old default of decision 045) is recognised', () => {
  const phone = '13812345678';
  it('the phone’s last 4 to 11 digits, alone or after any letters or digits', () => {
    for (const pw of ['345678', '2345678', '13812345678', 'yg345678', 'yoga5678', 'Ab12345678', '20245678', ' 345678 ']) {
      expect([pw, isPhoneDerivedPassword(phone, pw)]).toEqual([pw, true]);
    }
  });
  it('not: other digits at the end, the digits elsewhere, or other characters in it', () => {
    for (const pw of ['345679', '5678yoga', '1234567', 'yo-ga5678', 'my pw5678', 'ABCDEFGHJK', '']) {
      expect([pw, isPhoneDerivedPassword(phone, pw)]).toEqual([pw, false]);
    }
  });
});
