import { describe, expect, it } from 'vitest';
import { maskName } from '../../src/domain/card-transfer';

describe('card transfer rules (spec §5)', () => {
  it('the phone lookup shows only the last character of a name', () => {
    expect(maskName('王小明')).toBe('**明');
    expect(maskName('Li')).toBe('*i');
    expect(maskName('王')).toBe('*');
    expect(maskName(null)).toBe('*');
  });
});
