// `npm run bench`: builds the app if needed, starts the real server on a loopback port (fresh demo
// data), runs each section, prints one markdown table and keeps it in docs/bench/<date>.md (a second
// run the same day is added below the first; BENCH_SAVE=0 only prints). A measurement, not a test.
// Sections: BENCH_ONLY=bytes,lighthouse,taps,latency runs some of them.
// BENCH_SERVER_ENTRY=<built main.js> runs that server build instead of dist/node/main.js.
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { shanghaiClock, shanghaiDate } from '../src/domain/time';
import { ensureBuilt, startServer } from '../test/e2e/support/server';
import { apiLatency } from './sections/api-latency';
import { bookingRace } from './sections/booking-race';
import { flashSaleRace } from './sections/flash-sale-race';
import { lighthouseSection } from './sections/lighthouse';
import { tapLatency } from './sections/tap-latency';
import { transferBytes } from './sections/transfer-bytes';
import type { BenchRow, BenchSection } from './types';

/** Every section, in print order; a later issue adds its file under sections/ and one line here. */
const sections: Record<string, BenchSection> = {
  bytes: transferBytes,
  lighthouse: lighthouseSection,
  taps: tapLatency,
  latency: apiLatency,
  booking: bookingRace,
  flash: flashSaleRace,
};

const cell = (s: string) => s.replace(/\|/g, '\\|');

/** The run kept as docs/bench/<date>.md (the calendar day in Asia/Shanghai), a later run of the day added below; the file's path. */
function saveRun(table: string[], footer: string, only: string[] | undefined): string {
  const now = new Date();
  const file = path.join(import.meta.dirname, '..', 'docs', 'bench', `${shanghaiDate(now)}.md`);
  const heading = `## Run at ${shanghaiClock(now)} (Asia/Shanghai)${only ? `: ${only.join(', ')}` : ''}`;
  const run = `${heading}\n\n${table.join('\n')}\n\n${footer}\n`;
  if (existsSync(file)) appendFileSync(file, `\n${run}`);
  else
    writeFileSync(
      file,
      `# Benchmark, ${shanghaiDate(now)}\n\nWritten by \`npm run bench\` (bench/run.ts); what each row measures: [README.md](README.md).\n\n${run}`,
    );
  return path.relative(process.cwd(), file);
}

async function main() {
  const only = process.env.BENCH_ONLY?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  // measure what the current code builds to (BENCH_NO_BUILD=1 reuses dist/ as it is)
  ensureBuilt(process.env.BENCH_NO_BUILD !== '1');
  // BENCH_SERVER_ENTRY=path/to/main.js measures another build of the server (a before/after comparison)
  const entry = process.env.BENCH_SERVER_ENTRY;
  const server = await startServer({ env: { LOG: '0' }, timeoutMs: 300_000, ...(entry ? { nodeArgs: [entry] } : {}) });
  const table: string[] = ['| section | metric | value | note |', '|---|---|---|---|'];
  let failed = false;
  try {
    for (const [key, section] of Object.entries(sections)) {
      if (only && !only.includes(key)) continue;
      process.stderr.write(`bench: ${section.title} ...\n`);
      let rows: BenchRow[];
      try {
        rows = await section.run({ server, baseUrl: server.url });
      } catch (err) {
        failed = true;
        rows = [{ metric: 'error', value: '-', note: err instanceof Error ? err.message.split('\n')[0] : String(err) }];
      }
      for (const r of rows) table.push(`| ${cell(section.title)} | ${cell(r.metric)} | ${cell(r.value)} | ${cell(r.note ?? '')} |`);
    }
  } finally {
    await server.stop();
  }
  const footer = `Server: built app, PGlite demo data; kB = 1000 bytes; Node ${process.version}; ${availableParallelism()} cores.`;
  process.stdout.write(`\n${table.join('\n')}\n\n${footer}\n`);
  if (process.env.BENCH_SAVE !== '0') process.stderr.write(`bench: kept in ${saveRun(table, footer, only)}\n`);
  if (failed) process.exitCode = 1;
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
