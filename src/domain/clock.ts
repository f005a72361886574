/** Every rule takes its time from a Clock, never from Date.now(), so tests can drive time. */
export interface Clock {
  now(): Date;
}

/** The real clock, used only at the edges (server start, the app's entry). */
export const systemClock: Clock = { now: () => new Date() };

/** A clock tests move by hand. */
export function fixedClock(start: Date | string | number): Clock & { advance(ms: number): void; set(t: Date | string | number): void } {
  let t = new Date(start).getTime();
  return {
    now: () => new Date(t),
    advance(ms: number) {
      t += ms;
    },
    set(v) {
      t = new Date(v).getTime();
    },
  };
}
