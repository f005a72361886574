import { describe, expect, it } from 'vitest';
import { dataOr, parseId } from '../../src/app/ui/data-or';

describe('ids of detail screens are numbers (DESIGN.md §5)', () => {
  it('reads positive integers', () => {
    expect(parseId('1')).toBe(1);
    expect(parseId('2147483647')).toBe(2147483647);
  });
  it('refuses anything else', () => {
    for (const bad of [undefined, null, '', '0', '-1', '01', '1.5', 'abc', '1e3', ' 1', '2147483648', '99999999999'])
      expect(parseId(bad)).toBeNull();
  });
});

describe('tolerant loader reads', () => {
  it('gives the data of a success, the fallback for a refusal or a failure', async () => {
    expect(await dataOr(Promise.resolve({ code: 200, status: true, data: [1] }), [])).toEqual([1]);
    expect(await dataOr(Promise.resolve({ code: 401, status: false, data: null as unknown as number[] }), [])).toEqual([]);
    expect(await dataOr(Promise.reject(new Error('network')), [])).toEqual([]);
  });
});
