#!/usr/bin/env node
// `npm run mutants [name ...]`: checks the path tests: a wrong chart must fail them (decision 016). For each chart with a
// path test (test/screens/*.paths.test.tsx, test/server/lifecycles/*.paths.test.ts), every single-change mutant of its chart (a
// transition retargeted to each other state, a guard negated or removed, an invoke's done and error
// swapped) is planted where the app imports the machine and its own generated paths are run against
// the real screen and server. A mutant is killed when a path or the coverage check fails.
// Prints per machine the mutants killed, the equivalent ones (explained in the test file), the
// survivors with their description, and the kill rate; exits 1 when a machine is below 95%.
// `MUTANT_FILTER=text` runs only the mutants whose description holds the text. With no names, and
// with `src/domain`, Stryker then mutates the rules in src/domain against the unit tests and prints its score.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';

const GOAL = 0.95;
const root = path.resolve(import.meta.dirname, '..');
// app machines: screen paths; domain lifecycle charts: server paths
const dirs = [path.join('test', 'screens'), path.join('test', 'server', 'lifecycles')];
const args = process.argv.slice(2);
// `src/domain` (or `stryker`) asks for Stryker's run over the domain rules; with no names, the charts and Stryker
const strykerWanted = args.length === 0 || args.some((a) => a === 'src/domain' || a === 'stryker');
const wanted = args.filter((a) => a !== 'src/domain' && a !== 'stryker');
if (args.length > 0 && wanted.length === 0) process.exit(strykerScore());
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

const results = readFileSync(report, 'utf8')
  .trim()
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line));
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
  console.log(
    `machine ${machine}: ${killed}/${counted} mutants killed (${(rate * 100).toFixed(1)}%), ${equivalent.length} equivalent, ${survivors.length} survived${later}`,
  );
  for (const s of survivors) console.log(`  survived: ${s.mutant}`);
  for (const e of equivalent) console.log(`  equivalent: ${e.mutant} (${e.by})`);
}
console.log(
  `\n${results.length} mutants of ${byMachine.size} machines in ${((Date.now() - started) / 1000).toFixed(0)} s; goal ≥ ${GOAL * 100}% killed on every machine`,
);
const strykerExit = strykerWanted ? strykerScore() : 0;
process.exit(below > 0 || strykerExit !== 0 ? 1 : 0);

/**
 * Stryker over the rules in src/domain (stryker.config.mjs: every mutant against the unit tests that
 * cover it); prints its mutation score per file and in all. Returns Stryker's exit code.
 */
function strykerScore() {
  console.log('\nStryker: the rules in src/domain against the unit tests (stryker.config.mjs) ...');
  const t0 = Date.now();
  const run = spawnSync(path.join(root, 'node_modules', '.bin', 'stryker'), ['run'], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // its table (file, score, killed, survived, no coverage)
  const table = (run.stdout ?? '').split('\n').filter((l) => /^\s*(File|All files|[\w-]+\.ts)\s*\|/.test(l) || /^-+\|/.test(l));
  for (const line of table) console.log(line);
  const json = path.join(root, 'reports', 'stryker', 'mutation.json');
  if (run.status === 0 && existsSync(json)) {
    const files = Object.values(JSON.parse(readFileSync(json, 'utf8')).files);
    const mutants = files.flatMap((f) => f.mutants);
    const count = (...st) => mutants.filter((m) => st.includes(m.status)).length;
    const detected = count('Killed', 'Timeout');
    const valid = detected + count('Survived', 'NoCoverage');
    const covered = detected + count('Survived');
    console.log(
      `Stryker src/domain: mutation score ${((detected / valid) * 100).toFixed(2)}% (${detected}/${valid} killed), ${((detected / covered) * 100).toFixed(2)}% of the mutants the unit tests reach, in ${((Date.now() - t0) / 1000).toFixed(0)} s; report: reports/stryker/index.html`,
    );
  }
  return run.status ?? 1;
}
