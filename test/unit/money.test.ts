import { describe, expect, it } from 'vitest';
import { applyPercent, formatYuan, formatYuanChange } from '../../src/domain/money';

describe('money is integer cents, shown in yuan (spec §1, DESIGN.md §4)', () => {
  it('shows whole yuan without decimals and cents with two', () => {
    expect(formatYuan(2000)).toBe('¥20');
    expect(formatYuan(1999)).toBe('¥19.99');
    expect(formatYuan(5)).toBe('¥0.05');
    expect(formatYuan(0)).toBe('¥0');
    expect(formatYuan(-150)).toBe('-¥1.50');
  });

  it('refuses non-integer cents', () => {
    expect(() => formatYuan(19.5)).toThrow(TypeError);
    expect(() => formatYuanChange(0.5)).toThrow(TypeError);
  });

  it('shows a change with its sign: money in +, money out -, nothing unsigned', () => {
    expect(formatYuanChange(2000)).toBe('+¥20');
    expect(formatYuanChange(-150)).toBe('-¥1.50');
    expect(formatYuanChange(0)).toBe('¥0');
  });

  it('rounds a percent discount half up to the cent', () => {
    expect(applyPercent(1999, 85)).toBe(1699); // 1699.15
    expect(applyPercent(10, 85)).toBe(9); // 8.5 -> 9
    expect(applyPercent(1000, 100)).toBe(1000);
  });
});
