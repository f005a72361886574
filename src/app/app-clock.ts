import type { ActorOptions, AnyActorLogic } from 'xstate';
import { systemClock, type Clock } from '../domain/clock';

let browserClock: Clock | undefined;
/** XState's timer interface (setTimeout and clearTimeout), as its `clock` option takes it */
type ActorTimers = NonNullable<ActorOptions<AnyActorLogic>['clock']>;
let timers: ActorTimers | undefined;

/**
 * The timers of the app's actors (XState's `clock` option: `after` delays, countdowns): the
 * browser's own unless set. Path tests set a simulated one and move it by the chart's delays.
 */
export function setActorTimers(t: ActorTimers | undefined): void {
  timers = t;
}

/** Options for `useActorRef` of a machine with `after` delays: `useActorRef(logic, { input, ...actorTimers() })`. */
export function actorTimers(): { clock?: ActorTimers } {
  return timers ? { clock: timers } : {};
}

/**
 * Timers for what passes on the screen outside a chart (a toast hiding itself, the wait for the
 * messaging app's bridge): the actors' when set (a path test moves them with the chart's delays), else
 * the browser's, looked up at each call (so fake timers in a unit test apply).
 */
export function appTimers(): ActorTimers {
  return (
    timers ?? {
      setTimeout: (fn: (...args: unknown[]) => void, ms: number) => setTimeout(fn, ms),
      clearTimeout: (id: unknown) => clearTimeout(id as ReturnType<typeof setTimeout>),
    }
  );
}

/** The browser entry sets the app's one clock (the server's time, see serverAlignedClock). */
export function setBrowserClock(clock: Clock): void {
  browserClock = clock;
}

/**
 * The server's clock as seen from the phone: the server's time at render plus the time the phone
 * has counted since. A phone whose own clock is wrong still shows the club's today.
 */
export function serverAlignedClock(serverNow: string, local: () => number = () => Date.now()): Clock {
  const offset = Date.parse(serverNow) - local();
  return { now: () => new Date(local() + (Number.isFinite(offset) ? offset : 0)) };
}

/**
 * The clock a loader reads: the request's (the server's injected clock) on the server, the app's in
 * the browser. Booking screens take "today" from here, never from the phone directly, so tests pin it.
 */
export function clockFrom(context: unknown): Clock {
  const ctx = context as { clock?: Clock } | undefined;
  return ctx?.clock ?? browserClock ?? systemClock;
}
