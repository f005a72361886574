// Runs the steps of `npm test` side by side on the machine's cores (decision 015): a step starts
// once the steps it needs have passed and there is room for its weight; its output is kept and
// printed whole when it ends, so parallel steps never interleave. The first failure stops the rest.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, setPriority } from 'node:os';

/** A step failed: its message, and the tests it counted before failing. */
export class StepFailure extends Error {
  constructor(message, counts = { passed: 0, failed: 1 }) {
    super(message);
    this.counts = counts;
  }
}

/** Thrown into steps that were stopped because another step failed. */
export class StepStopped extends Error {}

/**
 * CPU seconds used by this process's finished children (and theirs), from /proc/self/stat
 * (cutime + cstime); null where there is no /proc. Read when a step's process ends, the difference
 * is that step's CPU time (servers it talks to, like PostgreSQL, are not counted).
 */
export function childrenCpuSeconds() {
  if (!existsSync('/proc/self/stat')) return null;
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // after "pid (comm) ": state is field 3, so cutime (16) and cstime (17) are at 13 and 14
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

/** The reading at the last child's end: what a child adds to it when it ends is that child's CPU. */
let lastReading = childrenCpuSeconds();

/**
 * Starts a command in its own process group and collects its output. `onExit` hears its code and
 * the CPU it used; `kill` stops it with everything it started (servers, browsers, workers).
 */
export function startProcess(cmd, args, { cwd, env, nice = 0 }) {
  let out = '';
  let cpu = 0;
  const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  // A lower priority for work that only has to be done by the end (its workers inherit it). The
  // child leads a session of its own, which Linux schedules as its own group (autogroup): the
  // group's nice is what weighs against the other steps, so set both.
  if (nice && child.pid) {
    try {
      setPriority(child.pid, nice);
      if (existsSync(`/proc/${child.pid}/autogroup`)) writeFileSync(`/proc/${child.pid}/autogroup`, String(nice));
    } catch {
      /* not allowed here: run at the normal priority */
    }
  }
  child.stdout.on('data', (d) => (out += d.toString()));
  child.stderr.on('data', (d) => (out += d.toString()));
  const done = new Promise((resolve) => {
    child.on('error', (err) => {
      out += `${cmd}: ${err.message}\n`;
      resolve(127);
    });
    child.on('exit', (code, signal) => {
      const now = childrenCpuSeconds();
      cpu = now === null || lastReading === null ? Number.NaN : now - lastReading;
      lastReading = now;
      resolve(code ?? (signal ? 1 : 0));
    });
  });
  return {
    done,
    output: () => out,
    cpu: () => cpu,
    kill() {
      try {
        process.kill(-child.pid, 'SIGTERM');
        setTimeout(() => {
          try {
            process.kill(-child.pid, 'SIGKILL');
          } catch {
            /* gone */
          }
        }, 3000).unref();
      } catch {
        /* already gone */
      }
    },
  };
}

/**
 * How much weight runs at once: the machine's cores, or TEST_CAPACITY. On the 2-core machine, seven
 * steps at once spent a quarter more CPU on each other than two at a time (decision 015, fourth pass).
 */
export function stepCapacity() {
  return Number(process.env.TEST_CAPACITY) || availableParallelism();
}

/**
 * Runs steps ({ name, title, weight, nice, after, run(ctx) }) with at most `capacity` weight at once,
 * in list order as their `after` steps pass; a step's processes run at its `nice` (0 = normal). `run` gets `ctx.exec(cmd, args, env)` (tracked, killed on
 * stop) and returns { passed, failed, note } or { skip }. Resolves with one result per step.
 */
export async function runSteps(steps, { capacity, cwd, say }) {
  const results = new Map();
  const running = new Map();
  let stopping = false;
  const t0 = Date.now();
  const elapsed = () => `${((Date.now() - t0) / 1000).toFixed(0)} s`;

  const startStep = (s) => {
    const procs = new Set();
    let cpu = 0;
    let cpuKnown = true;
    const log = [];
    const ctx = {
      say: (line) => log.push(line),
      async exec(cmd, args, env = {}) {
        if (stopping) throw new StepStopped();
        const p = startProcess(cmd, args, { cwd, env: { ...process.env, ...env }, nice: s.nice ?? 0 });
        procs.add(p);
        const code = await p.done;
        procs.delete(p);
        log.push(p.output().trimEnd());
        if (Number.isNaN(p.cpu())) cpuKnown = false;
        else cpu += p.cpu();
        if (stopping) throw new StepStopped();
        return { code, out: p.output() };
      },
    };
    say(`▶ ${s.title}  (started at ${elapsed()})`);
    const started = Date.now();
    const promise = (async () => {
      let r;
      try {
        r = await s.run(ctx);
        r = r.skip ? { status: 'skipped', passed: 0, failed: 0, note: r.skip } : { status: 'passed', ...r };
      } catch (err) {
        if (err instanceof StepStopped) r = { status: 'stopped', passed: 0, failed: 0, note: 'stopped: another step failed' };
        else {
          const counts = err instanceof StepFailure ? err.counts : { passed: 0, failed: 1 };
          r = { status: 'failed', ...counts, note: err instanceof Error ? err.message : String(err) };
          if (!(err instanceof StepFailure) && err instanceof Error && err.stack) log.push(err.stack);
        }
      }
      const seconds = (Date.now() - started) / 1000;
      const result = { step: s, ...r, seconds, cpu: cpuKnown ? cpu : null };
      running.delete(s.name);
      results.set(s.name, result);
      if (result.status !== 'stopped') {
        say('');
        say(`── ${s.title}: ${result.status} in ${seconds.toFixed(1)} s ${'─'.repeat(20)}`);
        const text = log.filter(Boolean).join('\n');
        if (text) say(text);
        if (result.status === 'failed') say(`✗ ${s.title}: ${result.note}`);
      }
      if (result.status === 'failed' && !stopping) {
        stopping = true;
        for (const other of running.values()) for (const p of other.procs) p.kill();
      }
    })();
    running.set(s.name, { promise, procs });
  };

  for (;;) {
    if (!stopping) {
      for (const s of steps) {
        if (results.has(s.name) || running.has(s.name)) continue;
        if (!(s.after ?? []).every((a) => results.get(a)?.status === 'passed' || results.get(a)?.status === 'skipped')) continue;
        const used = [...running.keys()].reduce((n, name) => n + steps.find((x) => x.name === name).weight, 0);
        // a step's weight may be a share (the screens' shards): 3 x 2/3 must fit in 2
        if (used > 0 && used + s.weight > capacity + 1e-9) continue;
        startStep(s);
      }
    }
    if (running.size === 0) break;
    await Promise.race([...running.values()].map((r) => r.promise));
  }
  return steps.map(
    (s) =>
      results.get(s.name) ?? {
        step: s,
        status: 'skipped',
        passed: 0,
        failed: 0,
        note: 'not run (an earlier step failed)',
        seconds: 0,
        cpu: null,
      },
  );
}
