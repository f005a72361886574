#!/usr/bin/env node
// `npm test`: every check of the product, in order, stopping at the first failure.
//   catalogs -> lint -> types -> unit/machines/server on PGlite -> server on PostgreSQL -> build + browser
// The last line is always `N passed, N failed` (vitest tests, plus one per non-vitest check); CI reads it.
// `node scripts/test.mjs lint types` runs only the named steps.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const CI = process.env.CI === 'true' || process.env.CI === '1';
const CHROMIUM = process.env.CHROME_PATH || '/usr/bin/chromium';

/** @type {{ step: string, status: 'passed' | 'failed' | 'skipped', passed: number, failed: number, note: string, seconds: number }[]} */
const results = [];
/** `machine <id>: states a/b, transitions c/d` lines printed by the model-based tests */
const coverageLines = [];

class StepFailure extends Error {
  constructor(message, counts = { passed: 0, failed: 1 }) {
    super(message);
    this.counts = counts;
  }
}

const say = (line) => process.stdout.write(`${line}\n`);

/** Runs a command in the repository, echoing its output; resolves with the exit code and stdout. */
function run(cmd, args, { env = {}, capture = false } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: root,
      env: { ...process.env, ...(process.stdout.isTTY ? { FORCE_COLOR: '1' } : {}), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      process.stdout.write(d);
      if (capture) out += d.toString();
    });
    child.stderr.on('data', (d) => process.stderr.write(d));
    child.on('error', (err) => {
      process.stderr.write(`${cmd}: ${err.message}\n`);
      resolve({ code: 127, out });
    });
    child.on('close', (code) => resolve({ code: code ?? 1, out }));
  });
}

/** A check that is one pass or one fail (lint, types, build). */
async function command(cmd, args, hint) {
  const { code } = await run(cmd, args);
  if (code !== 0) throw new StepFailure(`${hint} (exit ${code})`);
  return { passed: 1, failed: 0, note: 'ok' };
}

/** Runs vitest and counts its tests from the JSON reporter. */
async function vitest(args, { env = {}, hint }) {
  const dir = mkdtempSync(path.join(tmpdir(), 'yoga-test-'));
  const report = path.join(dir, 'report.json');
  try {
    const { code, out } = await run(bin('vitest'), ['run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], {
      env,
      capture: true,
    });
    // eslint-disable-next-line no-control-regex -- strips ANSI colours
    for (const line of out.replace(/\x1b\[[0-9;]*m/g, '').split('\n')) {
      const m = /(machine \S+: states \d+\/\d+, transitions \d+\/\d+.*)$/.exec(line.trim());
      if (m && !coverageLines.includes(m[1])) coverageLines.push(m[1]);
    }
    let passed = 0;
    let failed = 0;
    if (existsSync(report)) {
      const json = JSON.parse(readFileSync(report, 'utf8'));
      passed = json.numPassedTests ?? 0;
      failed = json.numFailedTests ?? 0;
      // a file that fails to load has no tests: count it as one failure
      for (const file of json.testResults ?? []) {
        if (file.status === 'failed' && (file.assertionResults ?? []).every((a) => a.status !== 'failed')) failed += 1;
      }
    }
    if (code !== 0) throw new StepFailure(`${hint} (exit ${code})`, { passed, failed: Math.max(failed, 1) });
    return { passed, failed, note: `${passed} passed` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// (a) catalogs: `lingui extract` into a scratch copy must find nothing new or obsolete, and every
// English message must be translated. The working tree's catalogs are never written.

/** Parses a .po file into a Map of `msgctxt\u0004msgid` -> msgstr (obsolete `#~` entries skipped). */
function parsePo(text) {
  const entries = new Map();
  let cur = null;
  let field = null;
  const flush = () => {
    if (cur && cur.msgid !== '') entries.set(`${cur.msgctxt ?? ''}\u0004${cur.msgid}`, cur.msgstr ?? '');
    cur = null;
    field = null;
  };
  const unquote = (s) => JSON.parse(s.replace(/\\([^"\\nt])/g, '$1'));
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) {
      if (line === '' || (cur && field === 'msgstr')) flush();
      continue;
    }
    const m = /^(msgctxt|msgid|msgstr)\s+(".*")$/.exec(line);
    if (m) {
      if (m[1] === 'msgctxt' || (m[1] === 'msgid' && cur && cur.msgid !== undefined)) flush();
      cur ??= {};
      field = m[1];
      cur[field] = unquote(m[2]);
    } else if (line.startsWith('"') && cur && field) {
      cur[field] += unquote(line);
    }
  }
  flush();
  return entries;
}

async function catalogs() {
  const { tsImport } = await import('tsx/esm/api');
  const mod = await tsImport(path.join(root, 'lingui.config.ts'), import.meta.url);
  const config = mod.default?.default ?? mod.default;
  const scratch = mkdtempSync(path.join(tmpdir(), 'yoga-catalogs-'));
  try {
    const abs = (p) => p.replace('<rootDir>', root);
    const catalogsCfg = config.catalogs.map((c) => ({
      ...c,
      path: path.join(scratch, path.relative(root, abs(c.path))),
      include: c.include.map(abs),
      exclude: (c.exclude ?? []).map(abs),
    }));
    // start from the committed catalogs so translations carry over, then extract into the copy
    for (const c of config.catalogs) {
      for (const locale of config.locales) {
        const from = `${abs(c.path).replace('{locale}', locale)}.po`;
        const to = `${path.join(scratch, path.relative(root, abs(c.path))).replace('{locale}', locale)}.po`;
        if (existsSync(from)) {
          mkdirSync(path.dirname(to), { recursive: true });
          writeFileSync(to, readFileSync(from));
        }
      }
    }
    const cfgFile = path.join(scratch, 'lingui.config.json');
    writeFileSync(cfgFile, JSON.stringify({ ...config, rootDir: root, catalogs: catalogsCfg }, null, 2));
    const ex = spawnSync(bin('lingui'), ['extract', '--clean', '--config', cfgFile], { cwd: root, encoding: 'utf8' });
    if (ex.status !== 0) {
      process.stdout.write(ex.stdout ?? '');
      process.stderr.write(ex.stderr ?? '');
      throw new StepFailure(`lingui extract failed (exit ${ex.status})`);
    }
    const problems = [];
    let messages = 0;
    for (const c of config.catalogs) {
      for (const locale of config.locales) {
        const rel = `${path.relative(root, abs(c.path)).replace('{locale}', locale)}.po`;
        const mine = existsSync(path.join(root, rel)) ? parsePo(readFileSync(path.join(root, rel), 'utf8')) : new Map();
        const fresh = parsePo(readFileSync(path.join(scratch, rel), 'utf8'));
        messages = Math.max(messages, fresh.size);
        const show = (k) => JSON.stringify(k.split('\u0004').pop());
        const added = [...fresh.keys()].filter((k) => !mine.has(k));
        const obsolete = [...mine.keys()].filter((k) => !fresh.has(k));
        if (added.length) problems.push(`${rel}: ${added.length} message(s) in the code but not in the catalog: ${added.slice(0, 5).map(show).join(', ')}`);
        if (obsolete.length) problems.push(`${rel}: ${obsolete.length} message(s) no longer in the code: ${obsolete.slice(0, 5).map(show).join(', ')}`);
        if (locale !== config.sourceLocale) {
          const empty = [...mine].filter(([, v]) => v.trim() === '').map(([k]) => k);
          if (empty.length) problems.push(`${rel}: ${empty.length} untranslated message(s): ${empty.slice(0, 5).map(show).join(', ')}`);
        }
      }
    }
    if (problems.length) {
      for (const p of problems) say(`  ${p}`);
      throw new StepFailure('the catalogs are out of date: run `npm run extract`, then translate every empty English msgstr');
    }
    say(`catalogs: ${messages} messages, ${config.locales.join(' and ')} up to date and complete`);
    return { passed: 1, failed: 0, note: `${messages} messages` };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// (e) PostgreSQL: required under CI=true, otherwise run when TEST_DATABASE_URL is set and reachable.

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

async function postgresSuite() {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    if (CI) throw new StepFailure('CI=true but TEST_DATABASE_URL is not set: the PostgreSQL suite must run in CI');
    return { skip: 'TEST_DATABASE_URL not set (e.g. TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm test)' };
  }
  const redacted = url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
  const why = await reachable(url);
  if (why) {
    if (CI) throw new StepFailure(`CI=true but PostgreSQL at ${redacted} is unreachable: ${why}`);
    return { skip: `PostgreSQL at ${redacted} unreachable (${why})` };
  }
  say(`server tests on PostgreSQL (${redacted})`);
  return vitest(['test/server'], { env: { TEST_DB: 'postgres' }, hint: 'server tests failed on PostgreSQL: TEST_DB=postgres npx vitest run test/server' });
}

// ---------------------------------------------------------------------------------------------
// (f) Chromium, build, browser tests.

async function ensureChromium() {
  if (existsSync(CHROMIUM)) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const apt = ['/usr/bin/apt-get', '/bin/apt-get'].find((p) => existsSync(p));
  if (CHROMIUM === '/usr/bin/chromium' && isRoot && apt) {
    say("Chromium is missing: installing Debian's chromium (apt-get update && apt-get install -y chromium)");
    const env = { DEBIAN_FRONTEND: 'noninteractive' };
    if ((await run(apt, ['update'], { env })).code !== 0 || (await run(apt, ['install', '-y', 'chromium'], { env })).code !== 0 || !existsSync(CHROMIUM)) {
      throw new StepFailure("installing Debian's chromium failed: run `apt-get update && apt-get install -y chromium` and retry");
    }
    return;
  }
  throw new StepFailure(
    `Chromium is missing at ${CHROMIUM}. Install Debian's package (sudo apt-get update && sudo apt-get install -y chromium), ` +
      'or set CHROME_PATH to a Chromium or Chrome binary, then run npm test again',
  );
}

async function browser() {
  await ensureChromium();
  const build = await run('npm', ['run', 'build']);
  if (build.code !== 0) throw new StepFailure(`npm run build failed (exit ${build.code})`);
  const r = await vitest(['-c', 'vitest.e2e.config.ts'], { hint: 'browser tests failed: npx vitest run -c vitest.e2e.config.ts' });
  return { ...r, passed: r.passed + 1, note: `build ok, ${r.passed} passed` };
}

// ---------------------------------------------------------------------------------------------

const steps = [
  { name: 'catalogs', title: 'catalogs (lingui extract finds no change, English complete)', run: catalogs },
  { name: 'lint', title: 'lint (eslint .)', run: () => command(bin('eslint'), ['.'], 'lint failed: npx eslint . (npx eslint . --fix fixes some)') },
  { name: 'types', title: 'types (tsc --noEmit)', run: () => command(bin('tsc'), ['-p', 'tsconfig.json', '--noEmit'], 'type check failed: npx tsc --noEmit') },
  {
    name: 'tests',
    title: 'unit, machines, server on PGlite',
    run: () => {
      // a test file anywhere else would silently never run
      const stray = readdirSync(path.join(root, 'test'), { recursive: true })
        .map((f) => String(f).split(path.sep).join('/'))
        .filter((f) => /\.test\.[cm]?[jt]sx?$/.test(f) && !/^(unit|machines|server|e2e)\//.test(f));
      if (stray.length) throw new StepFailure(`test files outside test/unit, test/machines, test/server, test/e2e are never run: ${stray.join(', ')}`);
      return vitest(['test/unit', 'test/machines', 'test/server'], { hint: 'tests failed: npx vitest run test/unit test/machines test/server' });
    },
  },
  { name: 'postgres', title: 'server on PostgreSQL', run: postgresSuite },
  { name: 'browser', title: 'build + browser (headless Chromium)', run: browser },
];

function summary() {
  say('');
  say('── summary ' + '─'.repeat(60));
  const width = Math.max(...steps.map((s) => s.title.length));
  for (const r of results) {
    const mark = r.status === 'passed' ? 'ok  ' : r.status === 'failed' ? 'FAIL' : 'skip';
    say(`${mark}  ${r.step.padEnd(width)}  ${r.note}${r.seconds ? `  (${r.seconds.toFixed(1)} s)` : ''}`);
  }
  if (coverageLines.length) {
    say('');
    for (const l of coverageLines) say(l);
  }
  const passed = results.reduce((n, r) => n + r.passed, 0);
  const failed = results.reduce((n, r) => n + r.failed, 0);
  say('');
  say(`${passed} passed, ${failed} failed`);
  return failed;
}

async function main() {
  const only = process.argv.slice(2);
  const unknown = only.filter((n) => !steps.some((s) => s.name === n));
  if (unknown.length) {
    say(`unknown step(s) ${unknown.join(', ')}; steps: ${steps.map((s) => s.name).join(', ')}`);
    process.exit(2);
  }
  let stopped = false;
  for (const s of steps) {
    if (only.length && !only.includes(s.name)) continue;
    if (stopped) {
      results.push({ step: s.title, status: 'skipped', passed: 0, failed: 0, note: 'not run (an earlier step failed)', seconds: 0 });
      continue;
    }
    say('');
    say(`▶ ${s.title}`);
    const t0 = Date.now();
    try {
      const r = await s.run();
      const seconds = (Date.now() - t0) / 1000;
      if (r.skip) {
        say(`skipped: ${r.skip}`);
        results.push({ step: s.title, status: 'skipped', passed: 0, failed: 0, note: r.skip, seconds });
      } else {
        results.push({ step: s.title, status: 'passed', passed: r.passed, failed: r.failed, note: r.note, seconds });
      }
    } catch (err) {
      const seconds = (Date.now() - t0) / 1000;
      const counts = err instanceof StepFailure ? err.counts : { passed: 0, failed: 1 };
      const message = err instanceof Error ? err.message : String(err);
      say('');
      say(`✗ ${s.title}: ${message}`);
      if (!(err instanceof StepFailure) && err instanceof Error && err.stack) process.stderr.write(`${err.stack}\n`);
      results.push({ step: s.title, status: 'failed', ...counts, note: message, seconds });
      stopped = true;
    }
  }
  process.exit(summary() > 0 || stopped ? 1 : 0);
}

main();
