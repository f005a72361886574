import { describe, expect, it } from 'vitest';
import { fixedClock, systemClock } from '../../src/domain/clock';

describe('the clock every rule reads (never Date.now() inside a rule)', () => {
  it('the system clock says the time now', () => {
    const before = Date.now();
    const now = systemClock.now().getTime();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });

  it('a fixed clock stands still until a test moves it', () => {
    const clock = fixedClock('2026-11-20T02:00:00.000Z');
    expect(clock.now().toISOString()).toBe('2026-11-20T02:00:00.000Z');
    expect(clock.now().toISOString()).toBe('2026-11-20T02:00:00.000Z');
  });

  it('starts from a date, an ISO string or epoch milliseconds alike', () => {
    const t = Date.UTC(2026, 10, 20, 2);
    expect(fixedClock(t).now().getTime()).toBe(t);
    expect(fixedClock(new Date(t)).now().getTime()).toBe(t);
    expect(fixedClock('2026-11-20T10:00:00+08:00').now().getTime()).toBe(t);
  });

  it('advance moves it forward by the milliseconds given, adding up', () => {
    const clock = fixedClock('2026-11-20T02:00:00.000Z');
    clock.advance(90_000);
    expect(clock.now().toISOString()).toBe('2026-11-20T02:01:30.000Z');
    clock.advance(30_000);
    expect(clock.now().toISOString()).toBe('2026-11-20T02:02:00.000Z');
  });

  it('set puts it at a given time, forward or back', () => {
    const clock = fixedClock('2026-11-20T02:00:00.000Z');
    clock.set('2026-12-01T00:00:00.000Z');
    expect(clock.now().toISOString()).toBe('2026-12-01T00:00:00.000Z');
    clock.set(Date.UTC(2026, 0, 1));
    expect(clock.now().toISOString()).toBe('2026-01-01T00:00:00.000Z');
  });

  it('what it hands out is a copy: changing the Date does not move the clock', () => {
    const clock = fixedClock('2026-11-20T02:00:00.000Z');
    clock.now().setUTCFullYear(2030);
    expect(clock.now().toISOString()).toBe('2026-11-20T02:00:00.000Z');
  });
});
