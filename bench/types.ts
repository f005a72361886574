import type { RunningServer } from '../test/e2e/support/server';

/** One row of the bench table. */
export interface BenchRow {
  metric: string;
  value: string;
  /** budget verdict, comparison or how it was measured */
  note?: string;
}

/** What every section gets: the server the bench started (built app, demo data, loopback port). */
export interface BenchContext {
  server: RunningServer;
  baseUrl: string;
}

/** A part of the bench; later issues add one file per section under bench/sections/. */
export interface BenchSection {
  title: string;
  run(ctx: BenchContext): Promise<BenchRow[]>;
}

/** kB as 1000 bytes, one decimal. */
export const kB = (bytes: number): string => `${(bytes / 1000).toFixed(1)} kB`;

/** Milliseconds, no decimals above 10 ms. */
export const ms = (v: number): string => (v >= 10 ? `${Math.round(v)} ms` : v >= 1 ? `${v.toFixed(1)} ms` : `${v.toFixed(2)} ms`);
