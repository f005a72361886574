// Summarises V8 CPU profiles (`node --cpu-prof`, e.g. BENCH_CPU_PROF=<dir> npm run bench) over
// the window where a marker function ran (default: the flash-sale race, `createOrder`), so start-up and
// the idle time after the race do not count. Usage:
//   npx tsx bench/profile-summary.ts <dir or .cpuprofile files> [--marker createOrder] [--top 40] [--last <ms>]
// Prints the time by area (inclusive: a sample counts once per area on its stack) and the hottest
// functions by self time.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const v = args[i + 1]!;
  args.splice(i, 2);
  return v;
};
const marker = opt('marker', 'createOrder');
const top = Number(opt('top', '40'));
/** --last <ms>: only the last ms of the marker's window (the recorded race after its warm-ups) */
const last = Number(opt('last', '0'));
/** --callers <function>: the commonest stacks (leaf first) that end in that function */
const callersOf = opt('callers', '');
const stacks = new Map<string, number>();
const files = args.flatMap((a) =>
  statSync(a).isDirectory()
    ? readdirSync(a)
        .filter((f) => f.endsWith('.cpuprofile'))
        .map((f) => path.join(a, f))
    : [a],
);

/** Areas by a frame's function name or file (first match wins; a sample counts once per area). */
const AREAS: [string, (f: Node['callFrame']) => boolean][] = [
  ['auth (session lookup)', (f) => /^(callerForToken|callerFor|requireAuth)$/.test(f.functionName) || /sessionCache/.test(f.functionName)],
  ['idempotency key', (f) => f.url.includes('idempotency') || /^idempotent/.test(f.functionName)],
  ['order create (service)', (f) => /^(createOrder|checkFlashSale|takeFlashPlace|priceCheckout|decide|buyFlash)/.test(f.functionName)],
  ['drizzle (query building, mapping)', (f) => f.url.includes('drizzle-orm')],
  ['postgres.js (protocol)', (f) => f.url.includes('/postgres/')],
  ['zod (validation)', (f) => f.url.includes('/zod/')],
  ['compression (gzip)', (f) => /compress|gzip|deflate|zlib/i.test(f.functionName) || f.url.includes('zlib')],
  ['logging', (f) => /logger|pino/i.test(f.url) || /^(forRequest|log)$/.test(f.functionName)],
  ['hono (routing, context)', (f) => f.url.includes('/hono/') || f.url.includes('@hono')],
  ['node http', (f) => /node:_http|node:http|_http_/.test(f.url)],
  ['crypto', (f) => /crypto/.test(f.url) || /createHash|randomBytes/.test(f.functionName)],
  ['GC', (f) => f.functionName === '(garbage collector)'],
];

let total = 0;
const byArea = new Map<string, number>();
const self = new Map<string, number>();
const byPkg = new Map<string, number>();
const byApp = new Map<string, number>();
for (const file of files) {
  const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stack = (id: number): Node[] => {
    const out: Node[] = [];
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) out.push(byId.get(cur)!);
    return out;
  };
  // sample times, then the window where the marker was on a stack
  const times: number[] = [];
  let t = 0;
  for (const d of p.timeDeltas) times.push((t += d));
  let from = Infinity;
  let to = -Infinity;
  p.samples.forEach((id, i) => {
    if (stack(id).some((n) => n.callFrame.functionName === marker)) {
      from = Math.min(from, times[i]!);
      to = Math.max(to, times[i]!);
    }
  });
  if (!Number.isFinite(from)) {
    console.log(`${path.basename(file)}: no sample in ${marker}`);
    continue;
  }
  if (last > 0) from = Math.max(from, to - last * 1000);
  let busy = 0;
  p.samples.forEach((id, i) => {
    if (times[i]! < from || times[i]! > to) return;
    const dt = (p.timeDeltas[i + 1] ?? p.timeDeltas[i]!) / 1000; // ms this sample stands for
    const leaf = byId.get(id)!;
    if (leaf.callFrame.functionName === '(idle)') return;
    busy += dt;
    const s = stack(id);
    const seen = new Set<string>();
    for (const n of s) for (const [name, test] of AREAS) if (!seen.has(name) && test(n.callFrame)) seen.add(name);
    for (const a of seen) byArea.set(a, (byArea.get(a) ?? 0) + dt);
    // exclusive: the package of the leaf, and the nearest function of the app's own bundle on the stack
    const pkg =
      /node_modules\/((@[^/]+\/)?[^/]+)/.exec(leaf.callFrame.url)?.[1] ??
      (leaf.callFrame.url.startsWith('node:')
        ? 'node:' + leaf.callFrame.url.slice(5).split('/')[0]
        : leaf.callFrame.url.includes('/dist/')
          ? 'app (dist)'
          : leaf.callFrame.functionName || '(native)');
    byPkg.set(pkg, (byPkg.get(pkg) ?? 0) + dt);
    const app = s.find((n) => n.callFrame.url.includes('/dist/node/'));
    const appName = app ? `${app.callFrame.functionName || '(anonymous)'}:${app.callFrame.lineNumber + 1}` : '(no app frame)';
    byApp.set(appName, (byApp.get(appName) ?? 0) + dt);
    const where = `${leaf.callFrame.functionName || '(anonymous)'} ${leaf.callFrame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/dist\//, 'dist/')}:${leaf.callFrame.lineNumber + 1}`;
    self.set(where, (self.get(where) ?? 0) + dt);
    if (callersOf && leaf.callFrame.functionName === callersOf) {
      const key = s
        .slice(0, 14)
        .map(
          (n) =>
            `${n.callFrame.functionName || '(anon)'}@${n.callFrame.url.replace(/^.*node_modules\//, '').replace(/^.*\//, '')}:${n.callFrame.lineNumber + 1}`,
        )
        .join(' < ');
      stacks.set(key, (stacks.get(key) ?? 0) + dt);
    }
  });
  total += busy;
  console.log(`${path.basename(file)}: ${((to - from) / 1e6).toFixed(2)} s window, ${busy.toFixed(0)} ms on CPU (JS thread)`);
}
const pct = (v: number) => `${((v / total) * 100).toFixed(1)}%`.padStart(6);
console.log(`\nBy area (inclusive, of ${total.toFixed(0)} ms busy):`);
for (const [a, v] of [...byArea].sort((x, y) => y[1] - x[1])) console.log(`${pct(v)}  ${v.toFixed(0).padStart(6)} ms  ${a}`);
console.log(`\nBy package of the running function (exclusive):`);
for (const [a, v] of [...byPkg].sort((x, y) => y[1] - x[1]).slice(0, 20)) console.log(`${pct(v)}  ${v.toFixed(0).padStart(6)} ms  ${a}`);
console.log(`\nBy the nearest app function on the stack (exclusive):`);
for (const [a, v] of [...byApp].sort((x, y) => y[1] - x[1]).slice(0, 30)) console.log(`${pct(v)}  ${v.toFixed(0).padStart(6)} ms  ${a}`);
console.log(`\nTop ${top} by self time:`);
for (const [w, v] of [...self].sort((x, y) => y[1] - x[1]).slice(0, top)) console.log(`${pct(v)}  ${v.toFixed(0).padStart(6)} ms  ${w}`);
if (callersOf) {
  console.log(`\nStacks ending in ${callersOf}:`);
  for (const [k, v] of [...stacks].sort((x, y) => y[1] - x[1]).slice(0, 12)) console.log(`${v.toFixed(0).padStart(6)} ms  ${k}`);
}
