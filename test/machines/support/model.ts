import { TestModel, type AdjacencyMap } from '@xstate/graph';
import {
  __unsafe_getAllOwnEventDescriptors,
  createActor,
  fromPromise,
  SimulatedClock,
  type AnyEventObject,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type StateValue,
} from 'xstate';
import { CoverageTracker, type CoverageReport } from './coverage';

/** How a model-based test walks one machine. */
export interface ModelOptions {
  machine: AnyStateMachine;
  /** inputs to start from, by name (a machine whose `always` branches read its input needs each) */
  inputs: Record<string, unknown>;
  /** payload cases per event type, e.g. invoke outcomes `xstate.done.actor.login: [{ output }]`; other types are sent bare */
  cases?: Record<string, ReadonlyArray<Record<string, unknown>>>;
  /** whether to offer an event in a snapshot: prunes the walk (coverage is still measured against the whole definition) */
  offer?: (event: AnyEventObject, snapshot: AnyMachineSnapshot) => boolean;
  /** the small part of the context kept in the state key and compared after every step */
  project(context: never): unknown;
  /** action implementations for the runs (e.g. to record a hand-over) */
  actions?: Record<string, (...args: never[]) => void>;
}

export interface Step {
  event: AnyEventObject;
  state: AnyMachineSnapshot;
}

export interface ModelPath {
  /** names the end state and the events that lead there */
  name: string;
  input: unknown;
  steps: Step[];
}

/** Leaf state paths of a value: `{ a: { b: 'c', d: 'e' } }` → `a.b.c + a.d.e`. */
export function statePaths(value: StateValue): string {
  const out: string[] = [];
  const walk = (v: StateValue, prefix: string) => {
    if (typeof v === 'string') out.push(prefix + v);
    else
      for (const [k, child] of Object.entries(v)) {
        if (child === undefined) out.push(prefix + k);
        else walk(child as StateValue, `${prefix}${k}.`);
      }
  };
  walk(value, '');
  return out.join(' + ');
}

export function eventName(e: AnyEventObject): string {
  const { type, ...payload } = e;
  const short = type
    .replace(/^xstate\.after\.(\d+)\..*$/, 'after $1ms')
    .replace(/^xstate\.done\.actor\./, 'done ')
    .replace(/^xstate\.error\.actor\./, 'error ');
  if (type.startsWith('xstate.error.actor.')) return short;
  if ('output' in payload) {
    const o = payload.output as { code?: unknown } | undefined;
    return o && typeof o === 'object' && 'code' in o ? `${short} (code ${String(o.code)})` : `${short} (${JSON.stringify(o)})`;
  }
  const rest = Object.keys(payload).length ? JSON.stringify(payload) : '';
  return short + (rest ? ` ${rest}` : '');
}

interface Deferred {
  resolve(v: unknown): void;
  reject(e: unknown): void;
}

const flush = () => new Promise<void>((r) => setTimeout(r, 0));

/**
 * A model-based suite for one machine (DESIGN.md §3): paths from @xstate/graph's TestModel, each run
 * against the real machine with test actors (deferred promises settled by the path's
 * `xstate.done.actor.*` / `xstate.error.actor.*` events) and a SimulatedClock for `after`; the state
 * value and the projected context are asserted after every step; coverage is measured against the
 * machine's definition.
 */
export function modelSuite(opts: ModelOptions) {
  const { machine } = opts;
  const tracker = new CoverageTracker(machine);
  const project = opts.project as (c: unknown) => unknown;
  const serialize = (s: AnyMachineSnapshot) => JSON.stringify([s.status, s.value, project(s.context)]);

  const eventsFor = (s: AnyMachineSnapshot): AnyEventObject[] => {
    if (s.status !== 'active') return [];
    const types = __unsafe_getAllOwnEventDescriptors(s) as string[];
    const events = types.flatMap((type) => (opts.cases?.[type] ?? [{}]).map((c) => ({ type, ...c })));
    return opts.offer ? events.filter((e) => opts.offer!(e, s)) : events;
  };

  const graphs = Object.entries(opts.inputs).map(([label, input]) => {
    const model = new TestModel(machine, { input, events: eventsFor, serializeState: serialize } as never);
    // the paths to run drop those that are prefixes of longer ones; the map to every state keeps them all
    const paths = model.getShortestPaths();
    const pathTo = new Map<string, Step[]>();
    for (const p of model.getShortestPaths({ allowDuplicatePaths: true }))
      pathTo.set(serialize(p.state as AnyMachineSnapshot), p.steps as Step[]);
    const adjacency = model.getAdjacencyMap() as AdjacencyMap<AnyMachineSnapshot, AnyEventObject>;
    return { label, input, paths, pathTo, adjacency };
  });

  const describePath = (label: string, steps: Step[]) => {
    const end = steps[steps.length - 1]!.state;
    const events = steps.filter((s) => s.event.type !== 'xstate.init').map((s) => eventName(s.event));
    return `${label}: ${statePaths(end.value)}${end.status === 'done' ? ' (done)' : ''} ⇐ ${events.join(' → ') || 'start'}`;
  };

  /** Runs one path against the real machine with test actors; throws on the first step that differs. */
  async function run(input: unknown, steps: Step[]): Promise<void> {
    const pending = new Map<string, Deferred>();
    const actors = Object.fromEntries(
      Object.keys(machine.implementations.actors).map((src) => [
        src,
        fromPromise(({ self }) => new Promise((resolve, reject) => pending.set(self.id, { resolve, reject }))),
      ]),
    );
    const clock = new SimulatedClock();
    const actor = createActor(machine.provide({ actors, ...(opts.actions ? { actions: opts.actions } : {}) } as never), {
      input,
      clock,
      inspect(ev) {
        if (ev.type === '@xstate.microstep') {
          const m = ev as unknown as { _transitions: never[]; snapshot: AnyMachineSnapshot };
          tracker.visitTransitions(m._transitions);
          tracker.visitSnapshot(m.snapshot as never);
        }
      },
    });
    actor.start();
    try {
      for (const [i, step] of steps.entries()) {
        const e = step.event;
        const done = /^xstate\.(done|error)\.actor\.(.+)$/.exec(e.type);
        const after = /^xstate\.after\.(\d+)\./.exec(e.type);
        if (e.type === 'xstate.init') {
          /* the actor has started */
        } else if (done) {
          const d = pending.get(done[2]!);
          if (!d) throw new Error(`step ${i}: ${e.type} but no actor "${done[2]}" is running`);
          pending.delete(done[2]!);
          if (done[1] === 'done') d.resolve(e.output);
          else d.reject(e.error);
        } else if (after) {
          clock.increment(Number(after[1]));
        } else {
          actor.send(e);
        }
        await flush();
        const snap = actor.getSnapshot() as AnyMachineSnapshot;
        tracker.visitSnapshot(snap as never);
        const got = { state: statePaths(snap.value), status: snap.status, context: project(snap.context) };
        const want = { state: statePaths(step.state.value), status: step.state.status, context: project(step.state.context) };
        if (JSON.stringify(got) !== JSON.stringify(want)) {
          throw new Error(`step ${i} (${eventName(e)}): expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
        }
      }
    } finally {
      actor.stop();
    }
  }

  const shortest: ModelPath[] = graphs.flatMap((g) =>
    g.paths.map((p) => ({ name: describePath(g.label, p.steps as Step[]), input: g.input, steps: p.steps as Step[] })),
  );

  return {
    /** one path to every reachable state (as the projection keys it), per input */
    paths: shortest,
    run: (p: ModelPath) => run(p.input, p.steps),
    /**
     * The transition cover: for every edge of the walked graph that fires a transition no path has
     * fired yet, runs the shortest path to its source plus that edge. Returns the names of the runs.
     */
    async coverRemaining(): Promise<string[]> {
      const ran: string[] = [];
      for (const g of graphs) {
        for (const [key, entry] of Object.entries(g.adjacency)) {
          const base = g.pathTo.get(key);
          if (!base) continue;
          for (const next of Object.values(entry.transitions) as Array<{ event: AnyEventObject; state: AnyMachineSnapshot }>) {
            const fires = machine.getTransitionData(entry.state as never, next.event);
            if (!fires.some((t) => tracker.isNew(t))) continue;
            const steps = [...base, { event: next.event, state: next.state }];
            await run(g.input, steps);
            ran.push(describePath(g.label, steps));
          }
        }
      }
      return ran;
    },
    report: (): CoverageReport => tracker.report(),
    tracker,
  };
}

/** Prints the one coverage line of DESIGN.md §3 and fails below 100%, naming what was missed. */
export function assertFullCoverage(report: CoverageReport): void {
  if (report.complete) return;
  const missing = [...report.states.missing.map((s) => `state ${s}`), ...report.transitions.missing.map((t) => `transition ${t}`)];
  throw new Error(`${report.line}: below 100%, never exercised:\n  ${missing.join('\n  ')}`);
}
