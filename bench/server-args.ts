import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot, serveCommand } from '../test/e2e/support/server';

/**
 * The node arguments of a race's server processes (the booking and flash-sale sections):
 * BENCH_SERVER_ENTRY=<built main.js> races another build (a before/after comparison in one sitting);
 * BENCH_CPU_PROF=<dir> makes each process write its V8 CPU profile there when it stops (a preload turns
 * SIGTERM into a normal exit, which is when node writes it); `npx tsx bench/profile-summary.ts <dir>`
 * sums them up. BENCH_CPU_PROF_INTERVAL=<µs> samples more often than V8's 1 ms (a race lasts a fifth of a
 * second, so 100 µs gives it ten times the samples).
 */
export function raceServerArgs(): string[] {
  const entry = process.env.BENCH_SERVER_ENTRY ? [path.resolve(process.env.BENCH_SERVER_ENTRY)] : serveCommand();
  const dir = process.env.BENCH_CPU_PROF;
  if (!dir) return entry;
  const abs = path.resolve(repoRoot, dir);
  mkdirSync(abs, { recursive: true });
  const preload = path.join(abs, 'exit-on-term.mjs');
  writeFileSync(preload, "process.on('SIGTERM', () => process.exit(0));\n");
  const interval = process.env.BENCH_CPU_PROF_INTERVAL ? [`--cpu-prof-interval=${Number(process.env.BENCH_CPU_PROF_INTERVAL)}`] : [];
  return ['--cpu-prof', '--cpu-prof-dir', abs, ...interval, '--import', preload, ...entry];
}

/**
 * Warm-up races before each race's recorded one (BENCH_RACE_WARMUP; 0 = cold), on a class or sale of
 * their own, not recorded: a race decides the day's first minute on servers that have been up for
 * hours. Five, because V8 keeps compiling the hot path over the first thousand or so requests: the
 * flash sale after one warm-up took 1.4-1.8 ms of server CPU a request, after five 0.8 ms, and the
 * floor (GET /api/health, same crowd) went from 0.85 to 0.3 ms over five bursts (decision 049).
 */
export const RACE_WARMUPS = process.env.BENCH_RACE_WARMUP === undefined ? 5 : Number(process.env.BENCH_RACE_WARMUP);

/** How a race's row says it was warmed: ", after the same crowd on 5 warm-up sales", or `cold`. */
export function warmUpNote(one: string, many: string, cold: string): string {
  if (RACE_WARMUPS === 0) return `, ${cold}`;
  return `, after the same crowd on ${RACE_WARMUPS === 1 ? `a warm-up ${one}` : `${RACE_WARMUPS} warm-up ${many}`}`;
}
