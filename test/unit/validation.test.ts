import { describe, expect, it } from 'vitest';
import { isValidPasswordLength, isValidPhone, isValidSmsCode, trimInput } from '../../src/domain/validation';

describe('login input rules (spec §5)', () => {
  it('trims phone and secret', () => {
    expect(trimInput('  13800138000 ')).toBe('13800138000');
    expect(trimInput(undefined)).toBe('');
  });

  it('accepts mainland mobile numbers only', () => {
    expect(isValidPhone('13800138000')).toBe(true);
    expect(isValidPhone(' 13800138000 ')).toBe(true);
    expect(isValidPhone('12800138000')).toBe(false);
    expect(isValidPhone('1380013800')).toBe(false);
    expect(isValidPhone('138001380001')).toBe(false);
    expect(isValidPhone('1380013800a')).toBe(false);
    expect(isValidPhone('')).toBe(false);
  });

  it('passwords are 6 to 15 characters', () => {
    expect(isValidPasswordLength('12345')).toBe(false);
    expect(isValidPasswordLength('123456')).toBe(true);
    expect(isValidPasswordLength('a'.repeat(15))).toBe(true);
    expect(isValidPasswordLength('a'.repeat(16))).toBe(false);
  });

  it('a verification code is six digits', () => {
    expect(isValidSmsCode('123456')).toBe(true);
    expect(isValidSmsCode('12345')).toBe(false);
    expect(isValidSmsCode('12345a')).toBe(false);
  });
});
