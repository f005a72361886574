import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot, serveCommand } from '../test/e2e/support/server';

/**
 * The node arguments of a race's server processes (the booking and flash-sale sections):
 * BENCH_SERVER_ENTRY=<built main.js> races another build (a before/after comparison in one sitting);
 * BENCH_CPU_PROF=<dir> makes each process write its V8 CPU profile there when it stops (a preload turns
 * SIGTERM into a normal exit, which is when node writes it); `npx tsx bench/profile-summary.ts <dir>`
 * sums them up.
 */
export function raceServerArgs(): string[] {
  const entry = process.env.BENCH_SERVER_ENTRY ? [path.resolve(process.env.BENCH_SERVER_ENTRY)] : serveCommand();
  const dir = process.env.BENCH_CPU_PROF;
  if (!dir) return entry;
  const abs = path.resolve(repoRoot, dir);
  mkdirSync(abs, { recursive: true });
  const preload = path.join(abs, 'exit-on-term.mjs');
  writeFileSync(preload, "process.on('SIGTERM', () => process.exit(0));\n");
  return ['--cpu-prof', '--cpu-prof-dir', abs, '--import', preload, ...entry];
}
