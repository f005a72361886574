import { describe, expect, it } from 'vitest';
import { rootFontSize } from '../../src/domain/root-font';

describe('root font size: 32px per 750px of viewport, ratio capped at 2 (spec §9)', () => {
  it('scales with the viewport', () => {
    expect(rootFontSize(750)).toBe(32);
    expect(rootFontSize(375)).toBe(16);
    expect(rootFontSize(320)).toBeCloseTo(13.653, 3);
  });
  it('caps the ratio at 2', () => {
    expect(rootFontSize(1500)).toBe(64);
    expect(rootFontSize(3000)).toBe(64);
  });
});
