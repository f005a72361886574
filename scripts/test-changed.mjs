#!/usr/bin/env node
// `npm run test:changed`: the inner loop (decision 015). For the files changed since main (on main:
// since the last commit, with what is not committed yet), side by side:
//   lint of those files, types (tsc, incremental), the catalogs when app text may have changed,
//   the unit, machine and server tests that import them (vitest related, PGlite), and the browser
//   test files among them (after a build when src/ changed).
// `--base <ref>` compares with another ref. `npm test` remains the whole check before a commit lands.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { catalogs } from './test-support/catalogs.mjs';
import { runSteps, stepCapacity, StepFailure } from './test-support/run-steps.mjs';
import { vitestRun } from './test-support/vitest-step.mjs';

const root = path.resolve(import.meta.dirname, '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const say = (line) => process.stdout.write(`${line}\n`);
const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();

/** The ref to compare with: --base, else where this branch left main, else HEAD (working on main). */
function baseRef() {
  const i = process.argv.indexOf('--base');
  if (i > 0 && process.argv[i + 1]) return process.argv[i + 1];
  const branch = git('rev-parse', '--abbrev-ref', 'HEAD');
  if (branch !== 'main') {
    try {
      return git('merge-base', 'HEAD', 'main');
    } catch {
      /* no main here */
    }
  }
  return 'HEAD';
}

const base = baseRef();
const changed = [
  ...new Set([...git('diff', '--name-only', base).split('\n'), ...git('ls-files', '--others', '--exclude-standard').split('\n')]),
]
  .filter((f) => f && existsSync(path.join(root, f)))
  .sort();
say(`changed since ${base === 'HEAD' ? 'the last commit' : base}: ${changed.length ? changed.join(', ') : 'nothing'}`);

const code = changed.filter((f) => /\.(ts|tsx|js|mjs)$/.test(f));
const e2eFiles = code.filter((f) => /^test\/e2e\/.*\.test\.ts$/.test(f));
const vitestFiles = code.filter((f) => !f.startsWith('test/e2e/'));
const appChanged = changed.some((f) => f.startsWith('src/') || f.startsWith('locales/'));

const steps = [];
if (code.length) {
  steps.push({
    name: 'lint',
    title: `lint (${code.length} file${code.length > 1 ? 's' : ''})`,
    weight: 1,
    run: async (ctx) => {
      const { code: exit } = await ctx.exec(bin('eslint'), code);
      if (exit !== 0) throw new StepFailure(`lint failed: npx eslint ${code.join(' ')}`);
      const { code: unformatted } = await ctx.exec(bin('biome'), ['format', '--no-errors-on-unmatched', ...code]);
      if (unformatted !== 0) throw new StepFailure(`format check failed: npx biome format --write ${code.join(' ')}`);
      return { passed: 1, failed: 0, note: 'ok' };
    },
  });
  steps.push({
    name: 'types',
    title: 'types (tsc --noEmit, incremental)',
    weight: 1,
    run: async (ctx) => {
      const { code: exit } = await ctx.exec(bin('tsc'), [
        '-p',
        'tsconfig.json',
        '--noEmit',
        '--incremental',
        '--tsBuildInfoFile',
        'node_modules/.cache/yoga-tsc/tsconfig.tsbuildinfo',
      ]);
      if (exit !== 0) throw new StepFailure('type check failed: npx tsc --noEmit');
      return { passed: 1, failed: 0, note: 'ok' };
    },
  });
}
if (appChanged) steps.push({ name: 'catalogs', title: 'catalogs', weight: 1, run: (ctx) => catalogs(root, bin, ctx) });
if (vitestFiles.length) {
  steps.push({
    name: 'tests',
    title: 'related unit, machine and server tests (PGlite)',
    weight: 1,
    run: (ctx) =>
      vitestRun(ctx, bin, [...vitestFiles, '--passWithNoTests'], {
        related: true,
        hint: `npx vitest related --run ${vitestFiles.join(' ')}`,
      }),
  });
}
if (e2eFiles.length) {
  steps.push({
    name: 'browser',
    title: `browser test files (${e2eFiles.length})`,
    weight: 1,
    run: (ctx) =>
      vitestRun(ctx, bin, ['-c', 'vitest.e2e.config.ts', ...e2eFiles], {
        env: appChanged ? { E2E_BUILD: '1' } : {},
        hint: `npx vitest run -c vitest.e2e.config.ts ${e2eFiles.join(' ')}`,
      }),
  });
}

if (!steps.length) {
  say('nothing to check');
  say('0 passed, 0 failed');
  process.exit(0);
}
const t0 = Date.now();
// as many steps at once as npm test runs: more steps than cores spent CPU on each other and took
// longer (docs/decisions/063-as-many-test-steps-as-cores.md)
const results = await runSteps(steps, { capacity: stepCapacity(), cwd: root, say });
say('');
for (const r of results)
  say(`${r.status === 'passed' ? 'ok  ' : r.status.toUpperCase().padEnd(4)}  ${r.step.title}: ${r.note} (${r.seconds.toFixed(1)} s)`);
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
say(`${((Date.now() - t0) / 1000).toFixed(1)} s; run npm test before you land`);
say(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || results.some((r) => r.status === 'failed') ? 1 : 0);
