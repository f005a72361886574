import { appendFileSync } from 'node:fs';
import { createMachine, not, type AnyStateMachine } from 'xstate';

/**
 * The single changes to a chart a reviewer fears: a transition retargeted to each other
 * state, a guard negated or removed, an invoke's done and error swapped. An `after` delay is a
 * transition like any other, so its target changes with the rest. Mutants are made from the
 * machine's own config, so each one is the chart as it would be with that one line wrong.
 */
export interface Mutant {
  /** e.g. `editing on password.save [1 lengthInvalid]: → #authPasswordChange.done` */
  description: string;
  config: unknown;
}

type Config = Record<string, unknown>;

/** A copy of the plain objects and arrays of a config; functions and class instances are shared. */
function cloneConfig<T>(value: T): T {
  if (Array.isArray(value)) return value.map(cloneConfig) as T;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cloneConfig(v)])) as T;
  }
  return value;
}

/** Each state node's config with its path from the root (`['editing', 'clean']`). */
function nodes(config: Config, path: string[] = []): Array<{ path: string[]; node: Config }> {
  const states = (config.states ?? {}) as Record<string, Config>;
  return [{ path, node: config }, ...Object.entries(states).flatMap(([k, child]) => nodes(child, [...path, k]))];
}

/** Where a list of transitions sits in a node: `on.<event>`, `always`, `after.<delay>`, `invoke.<i>.onDone`. */
interface Site {
  label: string;
  get(node: Config): unknown;
  set(node: Config, value: unknown): void;
}

function sitesOf(node: Config): Site[] {
  const sites: Site[] = [];
  for (const event of Object.keys((node.on ?? {}) as Config)) {
    sites.push({ label: `on ${event}`, get: (n) => (n.on as Config)[event], set: (n, v) => ((n.on as Config)[event] = v) });
  }
  if (node.always !== undefined) sites.push({ label: 'always', get: (n) => n.always, set: (n, v) => (n.always = v) });
  for (const delay of Object.keys((node.after ?? {}) as Config)) {
    sites.push({ label: `after ${delay}`, get: (n) => (n.after as Config)[delay], set: (n, v) => ((n.after as Config)[delay] = v) });
  }
  const invokes = node.invoke === undefined ? [] : Array.isArray(node.invoke) ? node.invoke : [node.invoke];
  invokes.forEach((inv: Config, i) => {
    const invoke = (n: Config) => (Array.isArray(n.invoke) ? n.invoke[i] : n.invoke) as Config;
    const name = String(inv.id ?? inv.src ?? i);
    for (const key of ['onDone', 'onError'] as const) {
      if (inv[key] !== undefined) sites.push({ label: `${key} ${name}`, get: (n) => invoke(n)[key], set: (n, v) => (invoke(n)[key] = v) });
    }
  });
  return sites;
}

/** A site's transitions as a list of objects (a string target becomes `{ target }`). */
function branches(value: unknown): Config[] {
  const list = Array.isArray(value) ? value : [value];
  return list.map((t) => (typeof t === 'string' ? { target: t } : { ...(t as Config) }));
}

function guardName(guard: unknown): string {
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') return guard.name || 'guard';
  if (guard && typeof guard === 'object' && 'type' in guard) return String(guard.type);
  return 'guard';
}

/** Resolves a config target to a node path (`.x` child, `#id.a.b` by id, else a sibling). */
function resolveTarget(machineId: string, source: string[], target: string): string {
  if (target.startsWith('#')) {
    const id = target.slice(1);
    return id.startsWith(`${machineId}.`) ? id.slice(machineId.length + 1) : id;
  }
  if (target.startsWith('.')) return [...source, ...target.slice(1).split('.')].join('.');
  return [...source.slice(0, -1), ...target.split('.')].join('.');
}

function targetsOf(t: Config): string[] {
  const target = t.target;
  return target === undefined ? [] : Array.isArray(target) ? (target as string[]) : [target as string];
}

/** A state that only decides where to go: `always` and nothing else; never a state a member is in. */
function isTransient(node: Config): boolean {
  return node.always !== undefined && !node.on && !node.invoke && !node.after;
}

/**
 * The states a transition can be retargeted to: the atomic and final states a member can be in (a
 * compound target enters its initial child; a transient one only passes on).
 */
function leafPaths(config: Config): string[] {
  return nodes(config)
    .filter(
      ({ path, node }) =>
        path.length > 0 && (node.type === 'final' || Object.keys((node.states ?? {}) as Config).length === 0) && !isTransient(node),
    )
    .map(({ path }) => path.join('.'));
}

/**
 * The atomic states a transition to `path` leaves the machine in, below the closest parallel state
 * above it (entering a region's state enters its parallel siblings at their initial states): a
 * compound state enters its initial child, a parallel one each region. Two targets that enter the
 * same set are the same change.
 */
function entered(config: Config, path: string): string {
  const byPath = new Map(nodes(config).map((n) => [n.path.join('.'), n.node]));
  const down = (p: string): string[] => {
    const node = byPath.get(p);
    const children = Object.keys((node?.states ?? {}) as Config);
    if (!node || children.length === 0) return [p];
    if (node.type === 'parallel') return children.flatMap((c) => down(`${p}.${c}`));
    return down(`${p}.${String(node.initial)}`);
  };
  // the parallel ancestor's other regions enter at their initial states
  const parts = path.split('.');
  let leaves = down(path);
  for (let i = parts.length - 1; i > 0; i--) {
    const parent = parts.slice(0, i).join('.');
    if (byPath.get(parent)?.type !== 'parallel') continue;
    const own = parts[i];
    const others = Object.keys((byPath.get(parent)!.states ?? {}) as Config).filter((r) => r !== own);
    leaves = [...leaves, ...others.flatMap((r) => down(`${parent}.${r}`))];
  }
  return [...new Set(leaves)].sort().join(' + ');
}

/** Every single-change mutant of a machine's chart. */
export function mutantsOf(machine: AnyStateMachine): Mutant[] {
  const base = machine.config as Config;
  const id = machine.id;
  const leaves = leafPaths(base);
  const out: Mutant[] = [];
  const make = (path: string[], site: Site, description: string, change: (list: Config[]) => unknown) => {
    const config = cloneConfig(base);
    const node = nodes(config).find((n) => n.path.join('.') === path.join('.'))!.node;
    site.set(node, change(branches(site.get(node))));
    out.push({ description: `${path.join('.') || '(root)'} ${site.label}: ${description}`, config });
  };

  for (const { path, node } of nodes(base)) {
    for (const site of sitesOf(node)) {
      const list = branches(site.get(node));
      list.forEach((t, i) => {
        const which = list.length > 1 ? `[${i}${t.guard ? ` ${guardName(t.guard)}` : ''}] ` : t.guard ? `[${guardName(t.guard)}] ` : '';
        const current = targetsOf(t).map((x) => resolveTarget(id, path, x));
        if (current.length === 1) {
          const now = entered(base, current[0]!);
          for (const leaf of leaves) {
            if (entered(base, leaf) === now) continue;
            make(path, site, `${which}→ ${leaf} (instead of ${current[0]})`, (l) =>
              l.map((b, j) => (j === i ? { ...b, target: `#${id}.${leaf}` } : b)),
            );
          }
        }
        if (t.guard !== undefined) {
          make(path, site, `${which}guard negated`, (l) => l.map((b, j) => (j === i ? { ...b, guard: not(b.guard as never) } : b)));
          make(path, site, `${which}guard removed`, (l) => l.map((b, j) => (j === i ? { ...b, guard: undefined } : b)));
        }
      });
    }
    const invokes = node.invoke === undefined ? [] : Array.isArray(node.invoke) ? node.invoke : [node.invoke];
    invokes.forEach((inv: Config, i) => {
      if (inv.onDone === undefined || inv.onError === undefined) return;
      const config = cloneConfig(base);
      const target = nodes(config).find((n) => n.path.join('.') === path.join('.'))!.node;
      const copy = (Array.isArray(target.invoke) ? target.invoke[i] : target.invoke) as Config;
      [copy.onDone, copy.onError] = [copy.onError, copy.onDone];
      out.push({ description: `${path.join('.')} invoke ${String(inv.id ?? inv.src)}: done and error swapped`, config });
    });
  }
  return out;
}

/** The mutant as a machine with the original's implementations (actions, guards, actors, delays). */
export function mutantMachine(machine: AnyStateMachine, mutant: Mutant): AnyStateMachine {
  return createMachine(mutant.config as never, machine.implementations as never) as unknown as AnyStateMachine;
}

/**
 * Puts a mutant in the place of the machine the app imports, so screens that call
 * `machine.provide(...)` run the mutant; returns the function that puts the original back.
 */
export function plantMutant(machine: AnyStateMachine, mutant: AnyStateMachine): () => void {
  const saved = Object.getOwnPropertyDescriptors(machine);
  for (const key of Object.keys(saved)) delete (machine as unknown as Config)[key];
  Object.defineProperties(machine, Object.getOwnPropertyDescriptors(mutant));
  return () => {
    for (const key of Object.keys(Object.getOwnPropertyDescriptors(machine))) delete (machine as unknown as Config)[key];
    Object.defineProperties(machine, saved);
  };
}

/** The outcome of one mutant, as `npm run mutants` reads it. */
export interface MutantResult {
  machine: string;
  mutant: string;
  /** not-yet: the change is on a transition no endpoint can drive yet (listed in the test file, with its issue) */
  outcome: 'killed' | 'survived' | 'equivalent' | 'not-yet';
  /** the first failure that killed it, or why it is not counted */
  by?: string;
}

/**
 * This process's share of a machine's mutants: `npm run mutants` runs shards (MUTANT_SHARD=k/n,
 * every n-th mutant) in several processes; MUTANT_FILTER keeps those whose description holds it,
 * MUTANT_SKIP leaves out those whose description holds it (either may list several texts, split by `||`).
 */
export function mutantsOfThisShard(machine: AnyStateMachine): Mutant[] {
  const [shard, shards] = (process.env.MUTANT_SHARD ?? '0/1').split('/').map(Number) as [number, number];
  const only = process.env.MUTANT_FILTER;
  // MUTANT_SKIP: mutants left out by description (a mutant that hangs the walk itself, never finishing)
  const skip = process.env.MUTANT_SKIP;
  const holds = (d: string, texts: string | undefined) => !!texts && texts.split('||').some((t) => d.includes(t));
  return mutantsOf(machine).filter((m, i) => i % shards === shard && (!only || holds(m.description, only)) && !holds(m.description, skip));
}

/**
 * Plants the mutant where the app and the server import the machine, runs `kill` (which answers the
 * first failure, or nothing when every check passed), and puts the original back.
 */
export async function tryMutant(machine: AnyStateMachine, mutant: Mutant, kill: () => Promise<string | undefined>): Promise<MutantResult> {
  const restore = plantMutant(machine, mutantMachine(machine, mutant));
  let by: string | undefined;
  try {
    by = await kill();
  } catch (err) {
    by = `the chart does not load or walk: ${(err as Error).message}`;
  } finally {
    restore();
  }
  return { machine: machine.id, mutant: mutant.description, outcome: by ? 'killed' : 'survived', by };
}

/** Appends a file's results to the report `npm run mutants` reads (MUTANTS_REPORT). */
export function saveMutantResults(results: MutantResult[]): void {
  const file = process.env.MUTANTS_REPORT;
  if (file) for (const r of results) appendFileSync(file, `${JSON.stringify(r)}\n`);
}
