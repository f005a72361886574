import { describe, expect, it } from 'vitest';
import { idNumberProblem, maskIdNumber, validIdNumber, validRealName } from '../../src/domain/identity';

describe('identity (spec §3 personal information and transfer, §5; decision 032)', () => {
  it('an ID number is 18 characters with a real birth date and its check character; the form is told which is wrong', () => {
    expect(idNumberProblem('11010519491231002X')).toBe(null);
    expect(idNumberProblem('11010519491231002x')).toBe(null);
    expect(idNumberProblem(' 11010519491231002X ')).toBe(null);
    expect(idNumberProblem('110105194912310021')).toBe('checkDigit');
    expect(idNumberProblem('110101199003070000')).toBe('checkDigit');
    expect(idNumberProblem('11010519491331002X')).toBe('birthDate'); // month 13
    expect(idNumberProblem('110105194902300021')).toBe('birthDate'); // 30 February
    expect(idNumberProblem('110105189912310021')).toBe('birthDate'); // before 1900
    expect(idNumberProblem('110105203012310021', '2026-11-26')).toBe('birthDate'); // born in the future
    expect(idNumberProblem('1101051949123100')).toBe('format');
    expect(idNumberProblem('110105194912310 2X')).toBe('format');
    expect(idNumberProblem('11010519491231002Y')).toBe('format');
    expect(idNumberProblem('')).toBe('format');
    expect(validIdNumber('11010519491231002X')).toBe(true);
    expect(validIdNumber('110105194912310021')).toBe(false);
  });

  it('a real name is 1-20 characters and not a number', () => {
    expect(validRealName('王小明')).toBe(true);
    expect(validRealName('欧阳'.repeat(10))).toBe(true);
    expect(validRealName('欧阳'.repeat(10) + '子')).toBe(false);
    expect(validRealName('  ')).toBe(false);
    expect(validRealName('12345')).toBe(false);
    expect(validRealName('王2')).toBe(true);
    expect(validRealName('a'.repeat(21))).toBe(false);
  });

  it('a name of digits is numeric in any script: full-width, Arabic-Indic, Devanagari, and with spaces between them', () => {
    for (const digits of ['１２３４５', '１２3４５', '٣٤٥', '१२३', '12 34', '１２　３４'])
      expect(validRealName(digits), digits).toBe(false);
    expect(validRealName('王１')).toBe(true);
    expect(validRealName('Ｌｉ')).toBe(true);
  });

  it('an ID number is shown with its first and last four characters', () => {
    expect(maskIdNumber('11010519491231002X')).toBe('1101**********002X');
  });
});
