import { TestModel } from '@xstate/graph';
import { afterAll, describe, expect, it } from 'vitest';
import { createActor, type AnyEventObject, type AnyMachineSnapshot, type AnyStateMachine } from 'xstate';
import { CoverageTracker, firedTransitions, machineDefinition, type CoverageReport } from '../../machines/support/coverage';
import { eventName, statePaths, type Step } from '../../machines/support/model';
import { mutantsOfThisShard, saveMutantResults, tryMutant, type MutantResult } from '../../machines/support/mutants';
import { WALK_LIMIT } from '../../screens/support/screen-paths';
import type { TestServer } from './harness';

/**
 * Domain lifecycle charts against the real server (decision 016). A domain chart
 * (machines/domain) is the rule the server applies to a stored record (an order's `state`, a
 * card's `status`). The paths come from the chart; each event is done as the API call or job that
 * causes it; after each step the record is read back through the API and the database and must be
 * in the state the chart says, with what that state promises (a card issued to a paid order's
 * member, the stock back for a cancelled one). At the end of each path every drivable event the chart
 * refuses there is tried too: the server must refuse it and change nothing. A chart and a server that
 * disagree either way fail.
 *
 * Events with no endpoint yet are listed in `notYetDriven` with the issue that builds them; the
 * coverage check then leaves out exactly those transitions, and names them.
 *
 * With MUTANTS=1 the file checks its checks as the screen paths do (`npm run mutants`): the server
 * reads the chart through the same object, so a planted mutant changes what the server decides.
 */
export interface ServerPathSpec<W> {
  machine: AnyStateMachine;
  /** the record, for test names: `an order` */
  record: string;
  /** the chart's input, when it takes one (facts its guards read) */
  input?: unknown;
  /** several inputs by name instead: worlds whose first state depends on it (a full class queues) or that meet other events (`offer`) */
  inputs?: Record<string, unknown>;
  /**
   * the state a named input's record starts in, when not the chart's initial state: a record the
   * chart's transitions never create (a refund migration 0018 wrote as held). Its walk starts there.
   */
  startIn?: Record<string, string>;
  /**
   * prunes a named input's walk: false for an event its record cannot meet in that state (a refund
   * the provider refused has nothing at the provider to pay out later). The walks of all the inputs
   * together must still take every transition; a pruned event is not tried as a refusal either.
   */
  offer?: (event: AnyEventObject, snapshot: AnyMachineSnapshot, input: string) => boolean;
  /** a fresh record in the chart's initial state (or its input's `startIn` state) for `input`, and whatever the steps need */
  start(s: TestServer, input: unknown): Promise<W>;
  /** how each event happens: the API call or job (given the state the record is in) */
  events: Record<string, (w: W, from: string) => Promise<void>>;
  /** events of the chart that no endpoint causes yet, each with the issue that builds it */
  notYetDriven?: Record<string, string>;
  /** the record's state as the server stores it and shows it, read back (`booked.promoted` for a child state) */
  read(w: W): Promise<{ stored: string; shown: string }>;
  /**
   * what each state promises besides its name, read from the API and the database: one check per
   * state node (`booked`, `booked.promoted`); a compound state's check holds in all its children
   */
  states: Record<string, (w: W) => void | Promise<void>>;
  /** mutants that behave as the chart does, with the reason */
  equivalent?: Record<string, string>;
}

/** Throws unless the API accepted the call (a step a path relies on, not a check of its own). */
export function accepted(r: { body: { code: number } }, what: string): void {
  if (r.body.code !== 200) throw new Error(`${what}: ${JSON.stringify(r.body)}`);
}

interface ServerPath {
  name: string;
  /** the named input (world) it walks, '' for a chart with one input */
  inputName: string;
  input: unknown;
  steps: Step[];
}

function pathsOf<W>(
  machine: AnyStateMachine,
  spec: ServerPathSpec<W>,
): { paths: ServerPath[]; coverage: CoverageReport; skipped: string[] } {
  const pending = new Set(Object.keys(spec.notYetDriven ?? {}));
  const events =
    (inputName: string) =>
    (s: AnyMachineSnapshot): AnyEventObject[] =>
      s.status === 'active'
        ? Object.keys(spec.events)
            .filter((type) => !pending.has(type) && s.can({ type }) && (spec.offer?.({ type }, s, inputName) ?? true))
            .map((type) => ({ type }))
        : [];
  const inputs = Object.entries(spec.inputs ?? { '': spec.input });
  const tracker = new CoverageTracker(machine);
  const walk = (inputName: string, input: unknown, steps: Step[]): ServerPath => {
    steps.forEach((step, i) => {
      tracker.visitSnapshot(step.state as never);
      if (i > 0) tracker.visitTransitions(firedTransitions(machine, steps[i - 1]!.state, step.event) as never);
    });
    const evs = steps.filter((st) => st.event.type !== 'xstate.init').map((st) => eventName(st.event));
    return {
      name: `${inputName ? `${inputName}: ` : ''}${statePaths(steps.at(-1)!.state.value)} ⇐ ${evs.join(' → ') || 'start'}`,
      inputName,
      input,
      steps,
    };
  };
  const paths: ServerPath[] = [];
  for (const [inputName, input] of inputs) {
    const startIn = spec.startIn?.[inputName];
    const fromState =
      startIn === undefined
        ? undefined
        : machine.resolveState({ value: startIn, context: createActor(machine, { input }).getSnapshot().context });
    const model = new TestModel(machine, { events: events(inputName), input, fromState, limit: WALK_LIMIT } as never);
    paths.push(...model.getShortestPaths().map((p) => walk(inputName, input, p.steps as Step[])));
    // the transitions taken on the way in (`always` from a state that only decides)
    const actor = createActor(machine, {
      input,
      inspect(ev) {
        if (ev.type === '@xstate.microstep') tracker.visitTransitions((ev as unknown as { _transitions: never[] })._transitions);
      },
    });
    actor.start();
    actor.stop();
    // then one path for each transition the shortest paths did not take
    const pathTo = new Map<string, Step[]>();
    // keyed by value and context: a chart whose actions change its facts (a card's freeze planned) has one node per both
    const key = (st: AnyMachineSnapshot) => JSON.stringify([st.value, st.context]);
    for (const p of model.getShortestPaths({ allowDuplicatePaths: true })) pathTo.set(key(p.state), p.steps as Step[]);
    for (const entry of Object.values(model.getAdjacencyMap()) as Array<{
      state: AnyMachineSnapshot;
      transitions: Record<string, { event: AnyEventObject; state: AnyMachineSnapshot }>;
    }>) {
      const base = pathTo.get(key(entry.state));
      if (!base) continue;
      for (const next of Object.values(entry.transitions)) {
        if (!(firedTransitions(machine, entry.state, next.event) as never[]).some((t) => tracker.isNew(t))) continue;
        paths.push(walk(inputName, input, [...base, { event: next.event, state: next.state } as Step]));
      }
    }
  }
  // transitions the model did not take because their events have no endpoint yet
  const report = tracker.report();

  // ...and those from states only such events reach
  const reached = new Set([...reachedStates(machine, paths)].map((n) => `${machine.id}.${n}`));
  const skipped = report.transitions.missing.filter(
    (t) => [...pending].some((e) => t.includes(`--${e}-->`) || t.includes(`--${e} [`)) || !reached.has(t.slice(0, t.indexOf(' --'))),
  );
  return { paths, coverage: report, skipped };
}

async function runPath<W>(s: TestServer, spec: ServerPathSpec<W>, path: ServerPath): Promise<void> {
  const w = await spec.start(s, path.input);
  const check = async (state: string, where: string) => {
    const { stored, shown } = await spec.read(w);
    expect({ stored, shown }, `${where}: the record is ${state}`).toEqual({ stored: state, shown: state });
    // the state's check, after those of the states it is in (`booked`, then `booked.promoted`)
    const parts = state.split('.');
    for (let i = 1; i <= parts.length; i++) await spec.states[parts.slice(0, i).join('.')]?.(w);
  };
  let from = statePaths(path.steps[0]!.state.value);
  for (const [i, step] of path.steps.entries()) {
    const to = statePaths(step.state.value);
    const where = `step ${i} (${eventName(step.event)}) → ${to}`;
    try {
      if (step.event.type !== 'xstate.init') await spec.events[step.event.type]!(w, from);
      await check(to, where);
    } catch (err) {
      throw new Error(`${path.name}\n  ${where}\n  ${(err as Error).message}`, { cause: err });
    }
    from = to;
  }
  // what the chart refuses in the last state, the server refuses and changes nothing
  const last = path.steps.at(-1)!.state;
  const pending = new Set(Object.keys(spec.notYetDriven ?? {}));
  for (const type of Object.keys(spec.events)) {
    if (pending.has(type) || (last.status === 'active' && last.can({ type }))) continue;
    // an event this world's record cannot meet here means another thing in it (a part paid, where there are no parts)
    if (last.status === 'active' && spec.offer?.({ type }, last, path.inputName) === false) continue;
    try {
      await spec.events[type]!(w, from).catch(() => {});
      await check(from, `${type} refused in ${from}`);
    } catch (err) {
      throw new Error(`${path.name}\n  then ${type}, which the chart refuses in ${from}\n  ${(err as Error).message}`, { cause: err });
    }
  }
}

/**
 * What the paths left out that an endpoint could reach: the transitions no path took, less those not
 * yet driven, and the states no path reached, less those only transitions not yet driven lead to. A
 * state nothing leads to any more (a mutant that retargets its only way in) is left out too.
 */
function notCovered(machine: AnyStateMachine, coverage: CoverageReport, skipped: string[]): string[] {
  const transitions = coverage.transitions.missing.filter((t) => !skipped.includes(t));
  const labels = machineDefinition(machine).transitions.map((t) => t.label);
  const states = coverage.states.missing.filter((state) => {
    const into = labels.filter((l) =>
      l
        .slice(l.indexOf('--> ') + 4)
        .split(', ')
        .includes(state),
    );
    return !(into.length > 0 && into.every((l) => skipped.includes(l)));
  });
  return [...transitions, ...states.map((st) => `state ${st} (nothing an endpoint causes leads there)`)];
}

/** The state nodes the paths enter: each step's states with their ancestors, and the initial state every path starts from. */
function reachedStates(machine: AnyStateMachine, paths: ServerPath[]): Set<string> {
  const out = new Set<string>([String((machine.config as { initial?: unknown }).initial)]);
  for (const p of paths) {
    for (const st of p.steps) {
      for (const leaf of statePaths(st.state.value).split(' + ')) {
        const parts = leaf.split('.');
        for (let i = 1; i <= parts.length; i++) out.add(parts.slice(0, i).join('.'));
      }
    }
  }
  return out;
}

/** Every state node's path (`booked`, `booked.direct`): each has a check. */
function stateNames(machine: AnyStateMachine): string[] {
  type Node = { states: Record<string, Node> };
  const walk = (node: Node, prefix: string): string[] =>
    Object.entries(node.states).flatMap(([k, child]) => [prefix + k, ...walk(child, `${prefix}${k}.`)]);
  return walk(machine.root as unknown as Node, '');
}

/**
 * Registers a domain chart's server paths: a check for every state, one test per shortest path (with
 * the refused events at its end), and the coverage of the chart less the transitions not yet driven.
 */
export function defineServerPaths<W>(s: TestServer, spec: ServerPathSpec<W>): void {
  const { machine } = spec;
  if (process.env.MUTANTS) return defineMutants(s, spec);
  const { paths, coverage, skipped } = pathsOf(machine, spec);
  describe(`chart ${machine.id}: ${spec.record} on the server (server paths)`, () => {
    // a state no endpoint reaches yet has its check too: what it promises that nothing can make yet
    it('has a check for every state', () => {
      expect(stateNames(machine).filter((n) => !spec.states[n])).toEqual([]);
      expect(
        Object.keys(spec.states).filter((n) => !stateNames(machine).includes(n)),
        'checks for states the chart does not have',
      ).toEqual([]);
    });
    for (const p of paths) it(p.name, () => runPath(s, spec, p));
    it('reaches every state and takes every transition an endpoint causes', () => {
      expect(notCovered(machine, coverage, skipped), 'transitions no path took, states no path reached').toEqual([]);
    });
    afterAll(() => console.log(`${coverage.line} (server paths: ${paths.length}; not yet driven: ${skipped.length})`));
  });
}

function defineMutants<W>(s: TestServer, spec: ServerPathSpec<W>): void {
  const { machine } = spec;
  const results: MutantResult[] = [];
  const pending = Object.keys(spec.notYetDriven ?? {});
  // a change to a transition out of a state no endpoint reaches yet cannot be seen yet
  const reached = reachedStates(machine, pathsOf(machine, spec).paths);
  const unreachable = stateNames(machine).filter((n) => !reached.has(n));
  describe(`mutants of ${machine.id}`, () => {
    if (mutantsOfThisShard(machine).length === 0) it('has no mutants in this shard', () => {});
    for (const mutant of mutantsOfThisShard(machine)) {
      it(mutant.description, { timeout: 300_000 }, async () => {
        const why = spec.equivalent?.[mutant.description];
        const notYet =
          (pending.some((e) => mutant.description.includes(` on ${e}:`)) ? 'an event no endpoint causes yet' : undefined) ??
          (unreachable.some((n) => mutant.description.startsWith(`${n} `)) ? 'from a state no endpoint reaches yet' : undefined);
        if (why || notYet) {
          results.push({ machine: machine.id, mutant: mutant.description, outcome: why ? 'equivalent' : 'not-yet', by: why ?? notYet });
          return;
        }
        const result = await tryMutant(machine, mutant, async () => {
          const { paths, coverage, skipped } = pathsOf(machine, spec);
          // the coverage check fails without running anything: asked first, it saves the paths' time
          const missing = notCovered(machine, coverage, skipped);
          if (missing.length) return `coverage: never taken or reached ${missing.join(', ')}`;
          for (const p of paths) {
            try {
              await runPath(s, spec, p);
            } catch (err) {
              return (err as Error).message;
            }
          }
          return undefined;
        });
        results.push(result);
      });
    }
    afterAll(() => saveMutantResults(results));
  });
}
