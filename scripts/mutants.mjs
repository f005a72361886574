#!/usr/bin/env node
// `npm run mutants [name ...]`: checks the path tests (issue 11, decision 016). For each machine with a
// screen path test (test/screens/*.paths.test.tsx), every single-change mutant of its chart (a
// transition retargeted to each other state, a guard negated or removed, an invoke's done and error
// swapped) is planted where the app imports the machine and its own generated paths are run against
// the real screen and server. A mutant is killed when a path or the coverage check fails.
// Prints per machine the mutants killed, the equivalent ones (explained in the test file), the
// survivors with their description, and the kill rate; exits 1 when a machine is below 95%.
// `MUTANT_FILTER=text` runs only the mutants whose description holds the text.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const GOAL = 0.95;
const root = path.resolve(import.meta.dirname, '..');
const dir = path.join(root, 'test', 'screens');
const wanted = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.paths.test.tsx'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.includes(w)))
  .map((f) => path.join('test', 'screens', f));
if (files.length === 0) {
  console.error(`no path tests match ${wanted.join(' ') || '(all)'} in test/screens/*.paths.test.tsx`);
  process.exit(2);
}

const report = path.join(mkdtempSync(path.join(tmpdir(), 'mutants-')), 'results.jsonl');
const started = Date.now();
const run = spawnSync(path.join(root, 'node_modules', '.bin', 'vitest'), ['run', ...files, '--reporter=dot', '--silent'], {
  cwd: root,
  stdio: ['ignore', 'inherit', 'inherit'],
  env: { ...process.env, MUTANTS: '1', MUTANTS_REPORT: report },
});
if (!existsSync(report)) {
  console.error(`vitest wrote no results (exit ${run.status}): a path test fails to load or a mutant crashed the run`);
  process.exit(2);
}

const results = readFileSync(report, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line));
const byMachine = new Map();
for (const r of results) byMachine.set(r.machine, [...(byMachine.get(r.machine) ?? []), r]);
let below = 0;
console.log('');
for (const [machine, list] of byMachine) {
  const killed = list.filter((r) => r.outcome === 'killed').length;
  const equivalent = list.filter((r) => r.outcome === 'equivalent');
  const survivors = list.filter((r) => r.outcome === 'survived');
  const counted = list.length - equivalent.length;
  const rate = counted === 0 ? 1 : killed / counted;
  if (rate < GOAL) below++;
  console.log(`machine ${machine}: ${killed}/${counted} mutants killed (${(rate * 100).toFixed(1)}%), ${equivalent.length} equivalent, ${survivors.length} survived`);
  for (const s of survivors) console.log(`  survived: ${s.mutant}`);
  for (const e of equivalent) console.log(`  equivalent: ${e.mutant} (${e.by})`);
}
console.log(`\n${results.length} mutants of ${byMachine.size} machines in ${((Date.now() - started) / 1000).toFixed(0)} s; goal ≥ ${GOAL * 100}% killed on every machine`);
process.exit(below > 0 ? 1 : 0);
