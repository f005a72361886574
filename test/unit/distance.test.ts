import { describe, expect, it } from 'vitest';
import { byDistance, formatDistance } from '../../src/domain/distance';

describe('distance to a club (Homepage and club list)', () => {
  it('shows metres under 1 km, rounded to 10 m', () => {
    expect(formatDistance(800)).toBe('800 m');
    expect(formatDistance(804)).toBe('800 m');
    expect(formatDistance(806)).toBe('810 m');
    expect(formatDistance(3)).toBe('10 m');
    expect(formatDistance(0)).toBe('10 m');
  });

  it('shows km with one decimal from 1 km', () => {
    expect(formatDistance(1000)).toBe('1.0 km');
    expect(formatDistance(1234)).toBe('1.2 km');
    expect(formatDistance(1250)).toBe('1.3 km');
    expect(formatDistance(99_940)).toBe('99.9 km');
  });

  it('does not show "1000 m": 995 m and above read as 1.0 km', () => {
    expect(formatDistance(995)).toBe('1.0 km');
    expect(formatDistance(999)).toBe('1.0 km');
  });

  it('shows whole km from 100 km', () => {
    expect(formatDistance(100_000)).toBe('100 km');
    expect(formatDistance(1_234_567)).toBe('1235 km');
  });

  it('shows nothing for an unknown distance', () => {
    expect(formatDistance(undefined)).toBe('');
    expect(formatDistance(null)).toBe('');
    expect(formatDistance(Number.NaN)).toBe('');
    expect(formatDistance(-5)).toBe('');
  });

  it('orders nearest first, unknown distances last in their original order', () => {
    const clubs = [
      { id: 1, d: undefined },
      { id: 2, d: 5000 },
      { id: 3, d: 300 },
      { id: 4, d: undefined },
      { id: 5, d: 300 },
    ];
    expect(byDistance(clubs, (c) => c.d).map((c) => c.id)).toEqual([3, 5, 2, 1, 4]);
  });
});
