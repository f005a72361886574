// One vitest run inside a step of `npm test`: counts its tests (JSON reporter), keeps each file's
// whole time (file-timings-reporter.ts) and the machine-coverage lines the model-based tests print.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { StepFailure } from './run-steps.mjs';

/** Text without its ANSI colour codes. */
// eslint-disable-next-line no-control-regex -- the one place that strips ANSI colours
export const stripAnsi = (text) => text.replace(/\x1b\[[0-9;]*m/g, '');

/**
 * Runs `vitest run ...args` (or `vitest related --run ...args` with `related`); resolves
 * { passed, failed, note, files, coverage, failures } or throws StepFailure (whose counts carry
 * `failures`: each failed test's file, name and first failure message, for the summary).
 */
export async function vitestRun(ctx, bin, args, { env = {}, hint, related = false }) {
  const dir = mkdtempSync(path.join(tmpdir(), 'yoga-test-'));
  const report = path.join(dir, 'report.json');
  const timings = path.join(dir, 'timings.json');
  try {
    const { code, out } = await ctx.exec(
      bin('vitest'),
      [
        ...(related ? ['related', '--run'] : ['run']),
        ...args,
        '--reporter=default',
        '--reporter=json',
        `--outputFile.json=${report}`,
        '--reporter=./scripts/test-support/file-timings-reporter.ts',
      ],
      { ...env, VITEST_TIMINGS_FILE: timings },
    );
    const coverage = [];
    for (const line of stripAnsi(out).split('\n')) {
      const m = /(machine \S+: states \d+\/\d+, transitions \d+\/\d+.*)$/.exec(line.trim());
      if (m && !coverage.includes(m[1])) coverage.push(m[1]);
    }
    let passed = 0;
    let failed = 0;
    const failures = [];
    if (existsSync(report)) {
      const json = JSON.parse(readFileSync(report, 'utf8'));
      passed = json.numPassedTests ?? 0;
      failed = json.numFailedTests ?? 0;
      // a file that fails to load has no tests: count it as one failure
      for (const file of json.testResults ?? []) {
        const where = path.relative(process.cwd(), file.name ?? '');
        if (file.status === 'failed' && (file.assertionResults ?? []).every((a) => a.status !== 'failed')) {
          failed += 1;
          failures.push({ file: where, name: '(file did not load)', message: file.message ?? '' });
        }
        for (const a of file.assertionResults ?? []) {
          if (a.status === 'failed')
            failures.push({ file: where, name: a.fullName ?? a.title, message: (a.failureMessages ?? [])[0] ?? '' });
        }
      }
    }
    const files = existsSync(timings) ? JSON.parse(readFileSync(timings, 'utf8')) : [];
    if (code !== 0) throw new StepFailure(`${hint} (exit ${code})`, { passed, failed: Math.max(failed, 1), failures });
    return { passed, failed, note: `${passed} passed`, files, coverage, failures };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
