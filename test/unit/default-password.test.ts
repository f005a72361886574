import { describe, expect, it } from 'vitest';
import { DEFAULT_PASSWORD_RULE, defaultPasswordFor, isDefaultPassword, parseDefaultPasswordRule } from '../../src/domain/default-password';
import { loadConfig } from '../../src/server/config';

describe('the default password rule (decision 045)', () => {
  it('is the last 6 digits of the phone unless configured', () => {
    expect(DEFAULT_PASSWORD_RULE).toEqual({ prefix: '', digits: 6 });
    expect(loadConfig({ APP_MODE: 'demo' }).defaultPassword).toEqual({ prefix: '', digits: 6 });
    expect(defaultPasswordFor('13812345678', DEFAULT_PASSWORD_RULE)).toBe('345678');
  });

  it('takes a prefix and a number of digits from the settings', () => {
    const rule = loadConfig({ APP_MODE: 'demo', DEFAULT_PASSWORD_PREFIX: ' yoga ', DEFAULT_PASSWORD_PHONE_DIGITS: '4' }).defaultPassword;
    expect(rule).toEqual({ prefix: 'yoga', digits: 4 });
    expect(defaultPasswordFor(' 13812345678 ', rule)).toBe('yoga5678');
    expect(isDefaultPassword('13812345678', ' yoga5678 ', rule)).toBe(true);
    expect(isDefaultPassword('13812345678', 'yoga5679', rule)).toBe(false);
    expect(isDefaultPassword('13812345678', '5678yoga', rule)).toBe(false);
  });

  it('refuses settings that cannot make a password of 6 to 15 characters, or that are not letters and digits', () => {
    expect(() => parseDefaultPasswordRule('', '5')).toThrow(/6 to 15/);
    expect(() => parseDefaultPasswordRule('abcdefghijk', '6')).toThrow(/6 to 15/);
    expect(() => parseDefaultPasswordRule('ab', '3')).toThrow(/4 to 11/);
    expect(() => parseDefaultPasswordRule('ab', '12')).toThrow(/4 to 11/);
    expect(() => parseDefaultPasswordRule('ab', 'six')).toThrow(/4 to 11/);
    expect(() => parseDefaultPasswordRule('a b', '6')).toThrow(/letters and digits/);
    expect(parseDefaultPasswordRule('', '')).toEqual({ prefix: '', digits: 6 });
    expect(parseDefaultPasswordRule('ab', '11')).toEqual({ prefix: 'ab', digits: 11 });
  });
});
