import { describe, expect, it } from 'vitest';
import {
  equalSplit,
  MAX_SPLIT_PARTS,
  MIN_SPLIT_PARTS,
  parseYuan,
  partInRange,
  splitProblems,
  splittable,
  yuanText,
} from '../../src/domain/split';

describe('splitting what is left to pay (spec §4, §5, §9; decision 021)', () => {
  it('2 to 10 parts (spec §9: split max 10)', () => {
    expect([MIN_SPLIT_PARTS, MAX_SPLIT_PARTS]).toEqual([2, 10]);
  });

  it('a part is above zero and below the amount to pay, in whole cents (spec §5)', () => {
    expect(partInRange(1, 100)).toBe(true);
    expect(partInRange(99, 100)).toBe(true);
    expect(partInRange(0, 100)).toBe(false);
    expect(partInRange(-1, 100)).toBe(false);
    expect(partInRange(100, 100)).toBe(false);
    expect(partInRange(50.5, 100)).toBe(false);
  });

  it('an amount of 2 cents or more can be split; 1 cent or nothing cannot', () => {
    expect(splittable(2)).toBe(true);
    expect(splittable(1)).toBe(false);
    expect(splittable(0)).toBe(false);
  });

  it('the first proposal is equal parts, the cents left over on the first', () => {
    expect(equalSplit(19_900, 2)).toEqual([9_950, 9_950]);
    expect(equalSplit(19_900, 3)).toEqual([6_634, 6_633, 6_633]);
    expect(equalSplit(10_001, 10)).toEqual([1_001, 1_000, 1_000, 1_000, 1_000, 1_000, 1_000, 1_000, 1_000, 1_000]);
    for (const n of [2, 3, 7, 10]) expect(equalSplit(19_901, n).reduce((a, p) => a + p, 0)).toBe(19_901);
  });

  it('reads yuan with at most two decimals as cents; anything else is not an amount', () => {
    expect(parseYuan('12')).toBe(1_200);
    expect(parseYuan('12.5')).toBe(1_250);
    expect(parseYuan(' 12.05 ')).toBe(1_205);
    expect(parseYuan('0.01')).toBe(1);
    expect(parseYuan('0')).toBe(0);
    expect(parseYuan('9999999.99')).toBe(999_999_999);
    for (const bad of ['', ' ', '12.345', '1,2', '-3', 'abc', '.5', '5.', '1e3', '12345678', '¥12']) expect(parseYuan(bad), bad).toBe(null);
  });

  it('writes cents as an amount field with two decimals', () => {
    expect(yuanText(9_950)).toBe('99.50');
    expect(yuanText(6_634)).toBe('66.34');
    expect(yuanText(5)).toBe('0.05');
    expect(yuanText(100)).toBe('1.00');
    for (const c of [1, 99, 1_000, 123_456]) expect(parseYuan(yuanText(c))).toBe(c);
  });

  it('names each wrong part, then the count, then a sum that is off (by how much)', () => {
    expect(splitProblems(19_900, [9_950, 9_950])).toEqual([]);
    expect(splitProblems(19_900, [null, 0, 19_900, 5])).toEqual([
      { field: 0, problem: 'notAmount' },
      { field: 1, problem: 'outOfRange' },
      { field: 2, problem: 'outOfRange' },
    ]);
    expect(splitProblems(19_900, [9_950, 9_000])).toEqual([{ field: 'parts', problem: 'sum', differenceCents: 950 }]);
    expect(splitProblems(19_900, [10_000, 10_000])).toEqual([{ field: 'parts', problem: 'sum', differenceCents: -100 }]);
    expect(splitProblems(19_900, [5_000, 0, 14_900])).toEqual([{ field: 1, problem: 'outOfRange' }]);
  });

  it('fewer than 2 or more than 10 parts is a problem of the count', () => {
    expect(splitProblems(100, [50])).toEqual([
      { field: 'parts', problem: 'count' },
      { field: 'parts', problem: 'sum', differenceCents: 50 },
    ]);
    expect(splitProblems(1_100, Array(11).fill(100))).toEqual([{ field: 'parts', problem: 'count' }]);
    expect(splitProblems(1_000, Array(10).fill(100))).toEqual([]);
  });
});
