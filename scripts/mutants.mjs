#!/usr/bin/env node
// `npm run mutants [name ...]`: checks the path tests (issue 11, decision 016). For each chart with a
// path test (test/screens/*.paths.test.tsx, test/server/lifecycles/*.paths.test.ts), every single-change mutant of its chart (a
// transition retargeted to each other state, a guard negated or removed, an invoke's done and error
// swapped) is planted where the app imports the machine and its own generated paths are run against
// the real screen and server. A mutant is killed when a path or the coverage check fails.
// Prints per machine the mutants killed, the equivalent ones (explained in the test file), the
// survivors with their description, and the kill rate; exits 1 when a machine is below 95%.
// `MUTANT_FILTER=text` runs only the mutants whose description holds the text.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';

const GOAL = 0.95;
const root = path.resolve(import.meta.dirname, '..');
// app machines: screen paths; domain lifecycle charts: server paths
const dirs = [path.join('test', 'screens'), path.join('test', 'server', 'lifecycles')];
const wanted = process.argv.slice(2);
const files = dirs
  .flatMap((dir) => readdirSync(path.join(root, dir)).map((f) => path.join(dir, f)))
  .filter((f) => /\.paths\.test\.tsx?$/.test(f))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.includes(w)));
if (files.length === 0) {
  console.error(`no path tests match ${wanted.join(' ') || '(all)'} in ${dirs.map((d) => `${d}/*.paths.test.ts(x)`).join(', ')}`);
  process.exit(2);
}

const report = path.join(mkdtempSync(path.join(tmpdir(), 'mutants-')), 'results.jsonl');
const started = Date.now();
// the mutants in shards (every n-th mutant of every machine), one vitest process each and one per
// core at a time: a process that ran a few hundred screen paths holds a lot of memory, so none runs long
const shards = Number(process.env.MUTANT_SHARDS) || 8;
const cores = Number(process.env.MUTANT_PROCESSES) || availableParallelism();
const runShard = (k) =>
  new Promise((resolve) => {
    const child = spawn(path.join(root, 'node_modules', '.bin', 'vitest'), ['run', ...files, '--reporter=dot', '--silent'], {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, MUTANTS: '1', MUTANTS_REPORT: report, MUTANT_SHARD: `${k}/${shards}` },
    });
    child.on('exit', (code) => resolve(code));
  });
const queue = Array.from({ length: shards }, (_, k) => k);
const runs = [];
await Promise.all(
  Array.from({ length: cores }, async () => {
    for (let k = queue.shift(); k !== undefined; k = queue.shift()) runs.push(await runShard(k));
  }),
);
if (!existsSync(report)) {
  console.error(`vitest wrote no results (exits ${runs.join(', ')}): a path test fails to load or a mutant crashed the run`);
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
  const notYet = list.filter((r) => r.outcome === 'not-yet');
  const survivors = list.filter((r) => r.outcome === 'survived');
  const counted = list.length - equivalent.length - notYet.length;
  const rate = counted === 0 ? 1 : killed / counted;
  if (rate < GOAL) below++;
  const later = notYet.length ? `, ${notYet.length} on transitions no endpoint drives yet` : '';
  console.log(`machine ${machine}: ${killed}/${counted} mutants killed (${(rate * 100).toFixed(1)}%), ${equivalent.length} equivalent, ${survivors.length} survived${later}`);
  for (const s of survivors) console.log(`  survived: ${s.mutant}`);
  for (const e of equivalent) console.log(`  equivalent: ${e.mutant} (${e.by})`);
}
console.log(`\n${results.length} mutants of ${byMachine.size} machines in ${((Date.now() - started) / 1000).toFixed(0)} s; goal ≥ ${GOAL * 100}% killed on every machine`);
process.exit(below > 0 ? 1 : 0);
