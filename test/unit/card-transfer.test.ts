import { describe, expect, it } from 'vitest';
import { maskName, validIdNumber, validRecipientName } from '../../src/domain/card-transfer';

describe('card transfer rules (spec §5)', () => {
  it('an ID number is 18 characters with a real birth date and its check character', () => {
    expect(validIdNumber('11010519491231002X')).toBe(true);
    expect(validIdNumber('110105194912310021')).toBe(false); // check character wrong
    expect(validIdNumber('11010519491331002X')).toBe(false); // month 13
    expect(validIdNumber('1101051949123100')).toBe(false);
    expect(validIdNumber('110105194912310 2X')).toBe(false);
    expect(validIdNumber('11010519491231002x')).toBe(true);
  });

  it('a recipient name is 1-20 characters and not a number', () => {
    expect(validRecipientName('王小明')).toBe(true);
    expect(validRecipientName('  ')).toBe(false);
    expect(validRecipientName('12345')).toBe(false);
    expect(validRecipientName('a'.repeat(21))).toBe(false);
  });

  it('the phone lookup shows only the last character of a name', () => {
    expect(maskName('王小明')).toBe('**明');
    expect(maskName('Li')).toBe('*i');
    expect(maskName('王')).toBe('*');
    expect(maskName(null)).toBe('*');
  });
});
