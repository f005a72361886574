import { describe, expect, it } from 'vitest';
import { lightMap } from '../../src/app/screens/catalog/club/map-projection';

describe('the light map (decision 039)', () => {
  it('puts north up and east right, the outermost points inside the padding', () => {
    const m = lightMap([
      { lat: 31.3, lng: 121.4 },
      { lat: 31.2, lng: 121.5 },
    ]);
    const [nw, se] = m.spots;
    expect(nw!.top).toBeLessThan(se!.top);
    expect(nw!.left).toBeLessThan(se!.left);
    for (const v of m.spots.flatMap((s) => [s.left, s.top])) {
      expect(v).toBeGreaterThanOrEqual(12 - 1e-9);
      expect(v).toBeLessThanOrEqual(88 + 1e-9);
    }
  });

  it('keeps distances true in both directions (east-west degrees shrink by the latitude)', () => {
    // 0.1° east at 31.2°N is 0.0855° of latitude in length: the map is wider than tall
    const m = lightMap([
      { lat: 31.2, lng: 121.4 },
      { lat: 31.25, lng: 121.5 },
    ]);
    expect(m.aspect).toBeCloseTo(0.05 / (0.1 * Math.cos((31.225 * Math.PI) / 180)), 5);
  });

  it('a single club, or clubs at one place, sit in the middle; no clubs draw nothing', () => {
    expect(lightMap([{ lat: 31.2, lng: 121.4 }]).spots).toEqual([{ left: 50, top: 50 }]);
    expect(lightMap([]).spots).toEqual([]);
  });

  it('a chain spread along one line still gets a map of phone proportions', () => {
    const m = lightMap([
      { lat: 31.2, lng: 121.0 },
      { lat: 31.2, lng: 122.0 },
    ]);
    expect(m.aspect).toBe(0.5);
    expect(m.spots.map((s) => s.top)).toEqual([50, 50]);
  });
});
