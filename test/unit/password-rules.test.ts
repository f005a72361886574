import { describe, expect, it } from 'vitest';
import { isFilled, newPasswordProblem } from '../../src/domain/validation';

describe('required fields and new-password rules (spec §5)', () => {
  it('a required field counts only what remains after trimming', () => {
    expect(isFilled('abc')).toBe(true);
    expect(isFilled('  x ')).toBe(true);
    expect(isFilled('   ')).toBe(false);
    expect(isFilled('')).toBe(false);
    expect(isFilled(undefined)).toBe(false);
  });

  it('a new password is 6 to 15 characters', () => {
    expect(newPasswordProblem('12345', '12345')).toBe('length');
    expect(newPasswordProblem('a'.repeat(16), 'a'.repeat(16))).toBe('length');
    expect(newPasswordProblem('123456', '123456')).toBeUndefined();
    expect(newPasswordProblem('a'.repeat(15), 'a'.repeat(15))).toBeUndefined();
  });

  it('both entries must match (after trimming)', () => {
    expect(newPasswordProblem('abcdef', 'abcdeg')).toBe('mismatch');
    expect(newPasswordProblem(' abcdef', 'abcdef ')).toBeUndefined();
  });

  it('the new password differs from the old one', () => {
    expect(newPasswordProblem('abcdef', 'abcdef', 'abcdef')).toBe('sameAsOld');
    expect(newPasswordProblem('abcdef', 'abcdef', 'old123')).toBeUndefined();
  });

  it('length is checked before the match and the old one', () => {
    expect(newPasswordProblem('abc', 'xyz', 'abc')).toBe('length');
    expect(newPasswordProblem('abcdef', 'xyz', 'abcdef')).toBe('mismatch');
  });
});
