#!/usr/bin/env node
// `npm test`: every check of the product. The steps run as many at once as the machine has cores,
// in list order as their inputs are ready (more at once than cores only slowed each other:
// docs/decisions/063-as-many-test-steps-as-cores.md), and the first failure stops the others:
//   build, types, lint, catalogs            first (a type or lint error shows within minutes)
//   unit, machines and the PGlite suite     then (a broken rule shows within two minutes)
//   server on PostgreSQL, browser (once the build is done), the screens in three shards: the long ones
// The summary gives each step's time, CPU and cost per test against its budget, and the ten
// slowest test files; its last line is always `N passed, N failed` (CI reads it).
// `node scripts/test.mjs lint types` runs only the named steps (and what they need).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { catalogs } from './test-support/catalogs.mjs';
import { runSteps, stepCapacity, StepFailure } from './test-support/run-steps.mjs';
import { stripAnsi, vitestRun } from './test-support/vitest-step.mjs';

const root = path.resolve(import.meta.dirname, '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const CI = process.env.CI === 'true' || process.env.CI === '1';
const CHROMIUM = process.env.CHROME_PATH || '/usr/bin/chromium';
const CORES = availableParallelism();
const say = (line) => process.stdout.write(`${line}\n`);

/**
 * Workers per vitest step under npm test (the steps already run side by side): TEST_WORKERS, else 1.
 * One worker keeps one process for all of a step's files (isolate: false); two workers started a fresh
 * process per file and re-imported everything: the PostgreSQL step took 392 s of CPU with one worker
 * and 846 s with two (clean clone, 2026-11-27).
 */
const workers = () => [`--maxWorkers=${Number(process.env.TEST_WORKERS) || 1}`];

/** A check that is one pass or one fail (lint, types, build). */
async function command(ctx, cmd, args, hint) {
  const { code } = await ctx.exec(cmd, args);
  if (code !== 0) throw new StepFailure(`${hint} (exit ${code})`);
  return { passed: 1, failed: 0, note: 'ok' };
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL: required under CI=true, otherwise run when TEST_DATABASE_URL is set and reachable.

async function reachable(url) {
  try {
    const { default: postgres } = await import('postgres');
    const sql = postgres(url, { max: 1, connect_timeout: 5, onnotice: () => {} });
    try {
      await sql`select 1`;
      return null;
    } finally {
      await sql.end({ timeout: 1 });
    }
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/** Whether the server suite runs on PostgreSQL in this run: null, or why not (checked once). */
const postgresAbsent = (async () => {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return 'TEST_DATABASE_URL not set (e.g. TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm test)';
  const why = await reachable(url);
  return why ? `PostgreSQL at ${redactUrl(url)} unreachable (${why})` : null;
})();

function redactUrl(url) {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}

/**
 * The server test files that also run on PGlite when the whole server suite runs on PostgreSQL
 * (decision 015, second pass): the ones about the database engine itself (migrations and CHECKs, raw SQL and
 * its result shapes, advisory locks, the seed, the jobs, and the services whose raw SQL is the
 * booking's and the flash sale's decision). The lifecycle charts' server paths run on PostgreSQL only
 * (sixth pass): the same SQL through the same drivers as the files here, at two thirds of the
 * PGlite step's CPU. Without PostgreSQL the whole server suite runs on PGlite.
 */
const PGLITE_SERVER_FILES = [
  'test/server/state-checks.test.ts',
  'test/server/idempotency.test.ts',
  'test/server/health.test.ts',
  'test/server/jobs.test.ts',
  'test/server/catalog/seed.test.ts',
  'test/server/booking/book.test.ts',
  'test/server/flash-sale/activity.test.ts',
  'test/server/flash-sale/sold-out-memory.test.ts',
];

/**
 * A suite on PostgreSQL (`paths` with TEST_DB=postgres), or skipped with why when there is none.
 * The server suite and the screens are two steps: one vitest worker keeps one process for all of a
 * step's files only while they share an environment (node, jsdom), and two steps side by side keep
 * both cores busy once the rest is done (decision 015, third pass).
 */
async function onPostgres(ctx, paths, what) {
  const absent = await postgresAbsent;
  if (absent) {
    if (CI) throw new StepFailure(`CI=true but ${absent}: the PostgreSQL suite must run in CI`);
    return { skip: absent };
  }
  ctx.say(`${what} on PostgreSQL (${redactUrl(process.env.TEST_DATABASE_URL)})`);
  return vitestRun(ctx, bin, [...paths, ...workers()], {
    env: { TEST_DB: 'postgres' },
    hint: `${what} failed on PostgreSQL: TEST_DB=postgres npx vitest run ${paths.join(' ')}`,
  });
}

/**
 * What runs on PostgreSQL when it is there: the server suite, and the screen tests, whose in-process
 * server spends a third less CPU on PostgreSQL than on PGlite (decision 015, third pass).
 */
const ON_POSTGRES = ['test/server', 'test/screens'];

// ---------------------------------------------------------------------------------------------
// Chromium and the browser tests.

/**
 * The browser tests run in Debian's `chromium-headless-shell` (half the Chromium CPU of the full
 * browser for the same walks: test/e2e/support/chromium.ts), else in `chromium`. As root with apt-get,
 * a missing shell is installed; when that fails the full browser still runs them.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

function ensureChromium(ctx) {
  if (process.env.CHROME_PATH) {
    if (existsSync(process.env.CHROME_PATH)) return;
    throw new StepFailure(`CHROME_PATH=${process.env.CHROME_PATH} does not exist: point it at a Chromium or Chrome binary`);
  }
  if (existsSync(HEADLESS_SHELL)) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const apt = ['/usr/bin/apt-get', '/bin/apt-get'].find((p) => existsSync(p));
  if (isRoot && apt) {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const ok = (args) => spawnSync(apt, args, { env, stdio: 'ignore' }).status === 0;
    const install = () => ok(['install', '-y', 'chromium-headless-shell']) && existsSync(HEADLESS_SHELL);
    ctx.say("installing Debian's chromium-headless-shell for the browser tests (apt-get install -y chromium-headless-shell)");
    if (install() || (ok(['update']) && install())) return;
    if (existsSync(CHROMIUM)) {
      ctx.say(`could not install chromium-headless-shell: the browser tests run in ${CHROMIUM} (about twice its CPU)`);
      return;
    }
  }
  if (existsSync(CHROMIUM)) return;
  throw new StepFailure(
    "Chromium is missing. Install Debian's packages (sudo apt-get update && sudo apt-get install -y chromium chromium-headless-shell), " +
      'or set CHROME_PATH to a Chromium or Chrome binary, then run npm test again',
  );
}

// ---------------------------------------------------------------------------------------------

/**
 * The screens run last, in three shards (vitest --shard) side by side. One vitest worker keeps a core
 * busy only while it is not waiting on PostgreSQL: as one step the run ended with one core idle for
 * its last 80-90 s (decision 015, ninth pass), and as two halves the machine was still a fifth idle
 * for the last two minutes (40 idle core-seconds; three shards: 16, tenth pass). A shard weighs two
 * thirds of a step, so all three fit in the two slots the server suite and the browser leave.
 */
const SCREEN_SHARDS = Number(process.env.TEST_SCREEN_SHARDS) || 3;
const SCREEN_WEIGHT = 2 / SCREEN_SHARDS;

/**
 * The steps, in the order they start. At most `capacity` weight runs at once (the machine's cores;
 * `TEST_CAPACITY` overrides): on the 2-core machine, seven steps at once spent a quarter more CPU on
 * each other than two at a time, and took longer (decision 015, fourth pass). The quick checks start
 * first, so their failures come early; then the long suites. `nice` lowers the quick checks beside
 * the build. `budget` is the cost per test the suite keeps (CPU ms per test, or CPU seconds for a
 * one-shot check): decision 015; a step over it is flagged.
 */
const steps = [
  {
    name: 'build',
    title: 'build (vite: client, server render, server)',
    weight: 1,
    budget: { cpuSeconds: 18 },
    run: (ctx) => command(ctx, 'npm', ['run', 'build'], 'npm run build failed'),
  },
  {
    name: 'types',
    title: 'types (tsc --noEmit)',
    weight: 1,
    nice: 5,
    budget: { cpuSeconds: 35 },
    // incremental: a second run re-checks only what changed (node_modules/.cache; a clean clone checks all)
    run: (ctx) =>
      command(
        ctx,
        bin('tsc'),
        ['-p', 'tsconfig.json', '--noEmit', '--incremental', '--tsBuildInfoFile', 'node_modules/.cache/yoga-tsc/tsconfig.tsbuildinfo'],
        'type check failed: npx tsc --noEmit',
      ),
  },
  {
    name: 'lint',
    title: 'lint (eslint ., biome format .)',
    weight: 1,
    nice: 5,
    budget: { cpuSeconds: 48 },
    run: async (ctx) => {
      await command(ctx, bin('eslint'), ['.'], 'lint failed: npx eslint . (npx eslint . --fix fixes some)');
      return command(ctx, bin('biome'), ['format', '.'], 'format check failed: npm run format formats the tree');
    },
  },
  {
    name: 'catalogs',
    title: 'catalogs (lingui extract finds no change, English complete)',
    weight: 1,
    nice: 5,
    budget: { cpuSeconds: 7 },
    run: (ctx) => catalogs(root, bin, ctx),
  },
  {
    name: 'tests',
    title: 'unit, machines, screens, server on PGlite',
    weight: 1,
    nice: 0,
    budget: { cpuMsPerTest: 180 },
    run: (ctx) => {
      // a test file anywhere else would silently never run
      const stray = readdirSync(path.join(root, 'test'), { recursive: true })
        .map((f) => String(f).split(path.sep).join('/'))
        .filter((f) => /\.test\.[cm]?[jt]sx?$/.test(f) && !/^(unit|machines|screens|server|e2e)\//.test(f));
      if (stray.length)
        throw new StepFailure(
          `test files outside test/unit, test/machines, test/screens, test/server, test/e2e are never run: ${stray.join(', ')}`,
        );
      return postgresAbsent.then((absent) => {
        const onDatabase = absent ? ON_POSTGRES : PGLITE_SERVER_FILES;
        if (!absent)
          ctx.say(
            `server tests on PGlite: the engine's own files (${PGLITE_SERVER_FILES.length}); the server suite and the screens run on PostgreSQL`,
          );
        const args = ['test/unit', 'test/machines', ...onDatabase];
        return vitestRun(ctx, bin, [...args, ...workers()], { hint: `tests failed: npx vitest run ${args.join(' ')}` });
      });
    },
  },
  {
    name: 'postgres',
    title: 'server on PostgreSQL',
    weight: 1,
    nice: 0,
    budget: { cpuMsPerTest: 130 },
    run: (ctx) => onPostgres(ctx, ['test/server'], 'server tests'),
  },
  {
    name: 'browser',
    title: 'browser (headless Chromium, built server)',
    weight: 1,
    after: ['build'],
    budget: { cpuMsPerTest: 2500 },
    run: async (ctx) => {
      ensureChromium(ctx);
      // the built servers on PostgreSQL when the run has it (half the CPU of PGlite; smoke.test.ts
      // still starts one on PGlite, as `npm start` runs)
      const env = (await postgresAbsent) ? {} : { E2E_DATABASE_URL: process.env.TEST_DATABASE_URL };
      return vitestRun(ctx, bin, ['-c', 'vitest.e2e.config.ts'], {
        env,
        hint: 'browser tests failed: npx vitest run -c vitest.e2e.config.ts',
      });
    },
  },
  // the screens in shards (vitest --shard), run last; TEST_SCREEN_SHARDS overrides the count (see SCREEN_SHARDS)
  ...Array.from({ length: SCREEN_SHARDS }, (_, i) => i + 1).map((part) => ({
    name: `screens${part}`,
    group: 'screens',
    title: `screens on PostgreSQL (part ${part} of ${SCREEN_SHARDS})`,
    weight: SCREEN_WEIGHT,
    nice: 0,
    budget: { cpuMsPerTest: 350 },
    run: (ctx) => onPostgres(ctx, ['test/screens', `--shard=${part}/${SCREEN_SHARDS}`], `screen tests (part ${part})`),
  })),
];

/** The whole suite's wall budget on the project's 2-core machine, printed with the total: measured, never asserted (decision 015). */
const WALL_BUDGET_SECONDS = 240;

function budgetNote(r) {
  const b = r.step.budget;
  if (!b || r.cpu === null || r.status !== 'passed') return '';
  if (b.cpuSeconds !== undefined) return r.cpu > b.cpuSeconds ? `OVER BUDGET (≤ ${b.cpuSeconds} s)` : `budget ≤ ${b.cpuSeconds} s`;
  const tests = r.passed + r.failed;
  if (!tests) return '';
  const per = (r.cpu * 1000) / tests;
  return per > b.cpuMsPerTest ? `OVER BUDGET (≤ ${b.cpuMsPerTest} ms/test)` : `budget ≤ ${b.cpuMsPerTest} ms/test`;
}

function summary(results, wallSeconds) {
  say('');
  say('── summary ' + '─'.repeat(80));
  const width = Math.max(...results.map((r) => r.step.title.length));
  say(
    `      ${'step'.padEnd(width)}  ${'result'.padEnd(16)} ${'wall s'.padStart(7)} ${'CPU s'.padStart(7)} ${'CPU/test'.padStart(10)}  budget`,
  );
  for (const r of results) {
    const mark = { passed: 'ok  ', failed: 'FAIL', skipped: 'skip', stopped: 'stop' }[r.status];
    const tests = r.passed + r.failed;
    const perTest = r.cpu !== null && tests > 1 ? `${((r.cpu * 1000) / tests).toFixed(0)} ms` : '';
    const cpu = r.cpu === null ? '' : r.cpu.toFixed(1);
    say(
      `${mark}  ${r.step.title.padEnd(width)}  ${r.note.padEnd(16)} ${r.seconds ? r.seconds.toFixed(1).padStart(7) : ''.padStart(7)} ${cpu.padStart(7)} ${perTest.padStart(10)}  ${budgetNote(r)}`,
    );
  }
  const coverage = results.flatMap((r) => r.coverage ?? []);
  if (coverage.length) {
    say('');
    for (const l of [...new Set(coverage)]) say(l);
  }
  const files = results.flatMap((r) => (r.files ?? []).map((f) => ({ ...f, step: r.step.name })));
  if (files.length) {
    say('');
    say('ten slowest test files (import, set-up and tests; wall seconds, steps running side by side):');
    for (const f of files.sort((a, b) => b.seconds - a.seconds).slice(0, 10)) {
      say(`  ${f.seconds.toFixed(1).padStart(6)} s  ${f.step.padEnd(8)}  ${f.file} (${f.tests} tests)`);
    }
  }
  const cpu = results.reduce((n, r) => n + (r.cpu ?? 0), 0);
  say('');
  const over = wallSeconds > WALL_BUDGET_SECONDS ? `OVER BUDGET (≤ ${WALL_BUDGET_SECONDS} s)` : `budget ≤ ${WALL_BUDGET_SECONDS} s`;
  say(`total: ${wallSeconds.toFixed(1)} s wall (${over} on 2 cores), ${cpu.toFixed(1)} s CPU of the steps' processes, on ${CORES} cores`);
  // CI shows only the tail of this output: name each failed test here, just above the last line
  const failures = results.flatMap((r) => (r.failures ?? []).map((f) => ({ ...f, step: r.step.name })));
  if (failures.length) {
    say('');
    say('failed tests:');
    for (const f of failures.slice(0, 10)) {
      say(`  ✗ [${f.step}] ${f.file} > ${f.name}`);
      const lines = stripAnsi(f.message)
        .split('\n')
        .filter((l) => l.trim());
      const where = lines.find((l) => /\.test\.tsx?:\d+/.test(l));
      for (const l of [...lines.filter((l) => !/^\s*at /.test(l)).slice(0, 3), ...(where ? [where] : [])])
        say(`      ${l.trim().slice(0, 200)}`);
    }
  }
  const passed = results.reduce((n, r) => n + r.passed, 0);
  const failed = results.reduce((n, r) => n + r.failed, 0);
  say('');
  say(`${passed} passed, ${failed} failed`);
  return failed;
}

async function main() {
  const only = process.argv.slice(2);
  // a step is named by its name or its group's (`screens` is both halves)
  const named = (n) => steps.filter((s) => s.name === n || s.group === n);
  const unknown = only.filter((n) => named(n).length === 0);
  if (unknown.length) {
    say(`unknown step(s) ${unknown.join(', ')}; steps: ${[...new Set(steps.map((s) => s.group ?? s.name))].join(', ')}`);
    process.exit(2);
  }
  // a named step brings the steps it needs (browser needs build)
  const wanted = new Set(only.flatMap((n) => named(n).map((s) => s.name)));
  for (const n of [...wanted]) for (const a of steps.find((s) => s.name === n).after ?? []) wanted.add(a);
  const chosen = only.length ? steps.filter((s) => wanted.has(s.name)) : steps;
  const capacity = stepCapacity();
  const t0 = Date.now();
  const results = await runSteps(chosen, { capacity, cwd: root, say });
  const failed = summary(results, (Date.now() - t0) / 1000);
  process.exit(failed > 0 || results.some((r) => r.status === 'failed') ? 1 : 0);
}

main();
