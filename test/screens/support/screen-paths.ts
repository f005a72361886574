import { TestModel, type AdjacencyMap } from '@xstate/graph';
import { act, cleanup, screen } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import {
  __unsafe_getAllOwnEventDescriptors,
  createActor,
  SimulatedClock,
  type AnyEventObject,
  type AnyMachineSnapshot,
  type AnyStateMachine,
} from 'xstate';
import { CoverageTracker, firedTransitions, type CoverageReport } from '../../machines/support/coverage';
import { assertFullCoverage, eventName, statePaths, type Step } from '../../machines/support/model';
import { mutantsOfThisShard, saveMutantResults, tryMutant, type MutantResult } from '../../machines/support/mutants';
import { setActorTimers } from '../../../src/app/app-clock';
import type { OpenScreen, ScreenHarness, SentRequest } from './screen-harness';

/**
 * Path tests with an independent oracle (decision 016). The paths come from the chart
 * (@xstate/graph's TestModel); each step is done to the real screen (a tap, typing, the server's
 * answer to a request the screen sent) and each state is checked on the system under test: what
 * the screen shows and allows, which request it sent, what the server stored. The checks are
 * written from the spec per state, never read from the machine, so a wrong chart fails them.
 *
 * With MUTANTS=1 the same file checks the checks: every single-change mutant of the chart
 * (test/machines/support/mutants.ts) is planted where the app imports the machine, its own paths
 * are generated and run, and each mutant is killed when a path or the coverage check fails.
 * `npm run mutants` prints the result.
 */

/** How a request the screen sent ends, chosen by the path's `xstate.done.actor.*` case. */
export type Answer<W> =
  /** forwarded to the real server; its answer must be the case's `output` code (after `arrange`, if given) */
  | { server: true; arrange?: (w: World<W>) => Promise<void> }
  /** an answer the real server gives only in conditions a path cannot make cheaply (a provider failure) */
  | { status: number; body: unknown };

export interface InvokeRequest {
  method: string;
  path: RegExp;
  /**
   * Pages send this request too (a route's loader reading the same order), or several invokes do:
   * a request is then held for an invoke only while the chart has that invoke running, it has no
   * request held already and no route is loading; the others go to the server.
   */
  shared?: true;
}

/** What a path's steps and checks see. */
export type World<W> = W & {
  h: ScreenHarness;
  ui: OpenScreen;
  /** every API request the screen sent during the path, in order, with the code it was answered with */
  sent: Sent[];
  /** the requests held unanswered (until the path's `done`/`error` step answers the latest), by invoke id */
  held: Map<string, Sent[]>;
  /** answers the latest held request of an invoke from a member event (a 401 that expires the session) */
  release(invoke: string, how: 'forward' | 'fail'): Promise<Sent>;
  /** ms the path's `after` steps have moved the clock (the screen's timers and the server's) */
  time(): number;
};

export interface Sent extends SentRequest {
  /** the envelope code it was answered with, `network` when it failed, undefined while held */
  answer?: number | 'network';
  /** the invoke it belongs to, when the spec declares it */
  invoke?: string;
  /** when it was answered, on the path's clock (`World.time()`) */
  at?: number;
}

export interface ScreenPathSpec<W> {
  machine: AnyStateMachine;
  /** the screen, for test names: `/mine/changepassword` */
  screen: string;
  /**
   * Payload cases per event type. For `xstate.done.actor.<id>`: `{ output, answer }` (without an
   * answer, the real server answers); for `xstate.error.actor.<id>`: the request fails on the network.
   * An invoke that sends no request (the messaging app's payment sheet) is settled by the case's
   * `perform(w)`: what the outside party does (the member pays in the sheet, the bridge never comes).
   */
  cases: Record<string, ReadonlyArray<Record<string, unknown>>>;
  /** the machine's inputs to start from, by name (the name is passed to `start`); one unnamed start without */
  inputs?: Record<string, unknown>;
  /** prunes the walk (test-data choice, e.g. type each field once) */
  offer?: (event: AnyEventObject, snapshot: AnyMachineSnapshot) => boolean;
  /** the part of the context that makes two states different for the walk */
  project(context: never): unknown;
  /** the request each invoke's actor sends */
  requests: Record<string, InvokeRequest>;
  /** per path: the member and the server as the path needs them, and the screen opened */
  start(h: ScreenHarness, input: string): Promise<W & { ui: OpenScreen }>;
  /** how the member causes each event on the screen */
  events: Record<string, (w: World<W>, event: AnyEventObject) => Promise<void>>;
  /**
   * What is true in each state, on the screen and the server: one check per atomic state (its path,
   * `editing.clean`), and optional ones for compound states (`editing`) that hold in all their children.
   */
  states: Record<string, (w: World<W>, leaves: string[]) => void | Promise<void>>;
  /**
   * effects the spec ties to an event whatever state follows (a retry sends the request again; typing
   * leaves the code button as it was): given how many requests had been sent before the event and
   * what `seen` read from the screen just before it
   */
  effects?: Record<string, (w: World<W>, event: AnyEventObject, sentBefore: number, seenBefore: unknown) => void | Promise<void>>;
  /** what effects compare with: read from the screen before each event (e.g. the feedback line) */
  seen?: (w: World<W>) => unknown;
  /** mutants that behave exactly as the chart does, each with the reason (`npm run mutants` counts them apart) */
  equivalent?: Record<string, string>;
}

interface ScreenPath {
  name: string;
  /** the name of the input it starts from */
  input: string;
  steps: Step[];
}

/**
 * How long a check may take to come true while the screen settles (an in-process answer takes a
 * few ms, but a loaded clean-clone run on PostgreSQL, with Chromium beside it on two cores, once
 * took over 1.5 s to answer or render). A passing check returns at once, so only a failure waits
 * this long. Mutant runs wait less: a check still false after 400 ms kills the mutant.
 */
const CHECK_WITHIN_MS = process.env.MUTANTS ? 400 : 6000;
/**
 * The most steps a walk may take: a chart whose walk does not end (a countdown that never stops)
 * fails with "Traversal limit exceeded" instead of filling the memory.
 */
export const WALK_LIMIT = 50_000;
/**
 * The most requests a screen may send in one step. A chart that reads again for ever (a mutant that
 * routes a loaded record back to loading) would otherwise answer itself in a loop that keeps React's
 * act() busy, so no check and no test time-out could end it: past the limit the requests go
 * unanswered, the loop stops, and the step fails.
 */
const REQUESTS_PER_STEP = 100;

const sleep = (ms: number) => act(() => new Promise<void>((r) => setTimeout(r, ms)));
const letItRender = async () => {
  for (let i = 0; i < 3; i++) await sleep(0);
};

/**
 * The atomic states of a machine a member can be in (`editing.clean`, `saving`, `done`); a state
 * that only decides where to go (`always` and nothing else) is never at rest, so it has no check.
 */
export function atomicStates(machine: AnyStateMachine): string[] {
  const out: string[] = [];
  type Node = { states: Record<string, Node>; path: string[]; config: Record<string, unknown> };
  const transient = (n: Node) => n.config.always !== undefined && !n.config.on && !n.config.invoke && !n.config.after;
  const walk = (node: Node) => {
    const children = Object.values(node.states);
    if (children.length === 0 && node.path.length > 0 && !transient(node)) out.push(node.path.join('.'));
    for (const c of children) walk(c);
  };
  walk(machine.root as never);
  return out;
}

/**
 * The shortest path to every state of the walk, then one more path for each transition they did not
 * fire; with `shortestOnly`, the shortest paths alone (and no coverage).
 */
function pathsOf<W>(
  machine: AnyStateMachine,
  spec: ScreenPathSpec<W>,
  shortestOnly = false,
): { paths: ScreenPath[]; coverage: CoverageReport } {
  const project = spec.project as (c: unknown) => unknown;
  const serialize = (s: AnyMachineSnapshot) => JSON.stringify([s.status, s.value, project(s.context)]);
  const events = (s: AnyMachineSnapshot): AnyEventObject[] => {
    if (s.status !== 'active') return [];
    const types = __unsafe_getAllOwnEventDescriptors(s) as string[];
    const all = types.flatMap((type) => (spec.cases[type] ?? [{}]).map((c) => ({ type, ...c })));
    return spec.offer ? all.filter((e) => spec.offer!(e, s)) : all;
  };
  const tracker = new CoverageTracker(machine);
  const name = (input: string, steps: Step[]) => {
    const end = steps[steps.length - 1]!.state;
    const evs: string[] = [];
    let repeats = 1;
    for (const ev of steps.filter((s) => s.event.type !== 'xstate.init').map((s) => eventName(s.event))) {
      // a countdown's sixty seconds read as one step ×60
      if (evs.at(-1)?.replace(/ ×\d+$/, '') === ev) evs[evs.length - 1] = `${ev} ×${++repeats}`;
      else {
        evs.push(ev);
        repeats = 1;
      }
    }
    return `${input ? `${input}: ` : ''}${statePaths(end.value)}${end.status === 'done' ? ' (done)' : ''} ⇐ ${evs.join(' → ') || 'start'}`;
  };
  const walk = (steps: Step[]) => {
    steps.forEach((step, i) => {
      tracker.visitSnapshot(step.state as never);
      if (i > 0) tracker.visitTransitions(firedTransitions(machine, steps[i - 1]!.state, step.event) as never);
    });
  };
  const graphs = Object.entries(spec.inputs ?? { '': undefined }).map(([input, value]) => ({
    input,
    model: new TestModel(machine, { input: value, events, serializeState: serialize, limit: WALK_LIMIT } as never),
  }));
  const paths: ScreenPath[] = graphs.flatMap(({ input, model }) =>
    model.getShortestPaths().map((p) => ({ name: name(input, p.steps as Step[]), input, steps: p.steps as Step[] })),
  );
  if (shortestOnly) return { paths, coverage: undefined as never };
  for (const p of paths) walk(p.steps);
  // the transitions taken on the way in (`always` from a state that only decides)
  for (const value of Object.values(spec.inputs ?? { '': undefined })) {
    const actor = createActor(machine, {
      input: value,
      inspect(ev) {
        if (ev.type === '@xstate.microstep') tracker.visitTransitions((ev as unknown as { _transitions: never[] })._transitions);
      },
    });
    actor.start();
    actor.stop();
  }

  for (const { input, model } of graphs) {
    const pathTo = new Map<string, Step[]>();
    for (const p of model.getShortestPaths({ allowDuplicatePaths: true }))
      pathTo.set(serialize(p.state as AnyMachineSnapshot), p.steps as Step[]);
    const adjacency = model.getAdjacencyMap() as AdjacencyMap<AnyMachineSnapshot, AnyEventObject>;
    for (const [key, entry] of Object.entries(adjacency)) {
      const base = pathTo.get(key);
      if (!base) continue;
      for (const next of Object.values(entry.transitions) as Array<{ event: AnyEventObject; state: AnyMachineSnapshot }>) {
        const fires = firedTransitions(machine, entry.state, next.event) as never[];
        if (!fires.some((t) => tracker.isNew(t))) continue;
        const steps = [...base, { event: next.event, state: next.state }];
        walk(steps);
        paths.push({ name: name(input, steps), input, steps });
      }
    }
  }
  return { paths, coverage: tracker.report() };
}

/** The checks that hold in a state value: each atomic state's, and its ancestors' where given. */
type Check<W> = (w: World<W>, leaves: string[]) => void | Promise<void>;
function checksFor<W>(spec: ScreenPathSpec<W>, value: AnyMachineSnapshot['value']): Array<[string, Check<W>]> {
  const out: Array<[string, Check<W>]> = [];
  for (const leaf of statePaths(value).split(' + ')) {
    const parts = leaf.split('.');
    for (let i = 1; i <= parts.length; i++) {
      const key = parts.slice(0, i).join('.');
      const check = spec.states[key];
      if (check && !out.some(([k]) => k === key)) out.push([key, check]);
    }
    if (!spec.states[leaf]) throw new Error(`state ${leaf} has no check in the path test`);
  }
  return out;
}

/** Retries a check while the screen settles (a request answered, a re-render); throws its last failure. */
async function eventually(check: () => void | Promise<void>): Promise<void> {
  const until = Date.now() + CHECK_WITHIN_MS;
  for (;;) {
    try {
      await check();
      return;
    } catch (err) {
      if (Date.now() > until) throw err;
      await sleep(10);
    }
  }
}

function networkFailure(): never {
  throw new TypeError('Failed to fetch');
}

/** Runs one path against the real screen and server; throws at the first step whose checks fail. */
async function runPath<W>(
  h: ScreenHarness,
  spec: ScreenPathSpec<W>,
  path: ScreenPath,
  atEnd?: (w: World<W>) => Promise<void>,
): Promise<void> {
  const sent: Sent[] = [];
  const held = new Map<string, Sent[]>();
  const releases = new Map<Sent, (how: 'forward' | Response | 'fail') => void>();
  const codeOf = async (res: Response) =>
    (
      (await res
        .clone()
        .json()
        .catch(() => ({}))) as { code?: number }
    ).code ?? res.status;
  h.jar.clear();
  const timers = new SimulatedClock();
  setActorTimers(timers);
  let now = 0;
  /** the invokes the chart has running in the state the current step leads to */
  let running = new Set<string>(Object.keys(path.steps[0]?.state.children ?? {}));
  let sentThisStep = 0;
  let runaway: string | undefined;
  h.intercept(async (request, forward) => {
    if (++sentThisStep > REQUESTS_PER_STEP) {
      runaway ??= `the screen sent more than ${REQUESTS_PER_STEP} requests in one step (${request.method} ${request.path} again and again)`;
      return new Promise<Response>(() => {});
    }
    const req: Sent = { ...request };
    sent.push(req);
    const matching = Object.entries(spec.requests).filter(([, r]) => r.method === req.method && r.path.test(req.path.split('?')[0]!));
    // a shared request sent while a route loads is the route loader's: the server answers it
    const invoke = matching.some(([, r]) => r.shared)
      ? h.routeLoading()
        ? undefined
        : matching.find(([id]) => running.has(id) && !(held.get(id) ?? []).some((q) => releases.has(q)))
      : matching[0];
    if (!invoke) {
      const res = await forward();
      req.at = now;
      req.answer = await codeOf(res);
      return res;
    }
    req.invoke = invoke[0];
    held.set(invoke[0], [...(held.get(invoke[0]) ?? []), req]);
    const how = await new Promise<'forward' | Response | 'fail'>((resolve) => releases.set(req, resolve));
    req.at = now;
    if (how === 'fail') {
      req.answer = 'network';
      return networkFailure();
    }
    const res = how === 'forward' ? await forward() : how;
    req.answer = await codeOf(res);
    return res;
  });
  /** answers the latest held request of an invoke; resolves once it is answered */
  const release = async (id: string, how: 'forward' | 'fail' | Response): Promise<Sent> => {
    const r = spec.requests[id];
    if (!r) throw new Error(`no request is declared for invoke ${id}`);
    const req = held.get(id)?.at(-1);
    if (!req) throw new Error(`the screen sent no ${r.method} ${r.path} for it to answer`);
    held.set(id, held.get(id)!.slice(0, -1));
    releases.get(req)!(how);
    releases.delete(req);
    await eventually(() => {
      if (req.answer === undefined) throw new Error('the request has not been answered');
    });
    return req;
  };
  try {
    const started = await spec.start(h, path.input);
    const w = {
      ...started,
      h,
      sent,
      held,
      release: (id: string, how: 'forward' | 'fail') => release(id, how),
      time: () => now,
    } as World<W>;
    for (const [i, step] of path.steps.entries()) {
      const e = step.event;
      const where = `step ${i} (${eventName(e)}) → ${statePaths(step.state.value)}`;
      const sentBefore = sent.length;
      const seenBefore = spec.seen?.(w);
      running = new Set(Object.keys(step.state.children ?? {}));
      sentThisStep = 0;
      try {
        const settle = /^xstate\.(done|error)\.actor\.(.+)$/.exec(e.type);
        const after = /^xstate\.after\.(\d+)\./.exec(e.type);
        if (e.type === 'xstate.init') {
          /* the screen is open */
        } else if (settle) {
          const id = settle[2]!;
          const answer = (e as { answer?: Answer<W> }).answer;
          const perform = (e as { perform?: (w: World<W>) => Promise<void> }).perform;
          if (perform) await perform(w);
          else if (settle[1] === 'error') await release(id, 'fail');
          else if (answer && 'status' in answer) {
            await release(
              id,
              new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'content-type': 'application/json' } }),
            );
          } else {
            await answer?.arrange?.(w);
            const req = await release(id, 'forward');
            const output = (e as { output?: unknown }).output;
            const want = output && typeof output === 'object' && 'code' in output ? output.code : undefined;
            if (want !== undefined && req.answer !== want)
              throw new Error(`the server answered ${String(req.answer)}; the path expects ${String(want)}`);
          }
        } else if (after) {
          // time passes for the screen's actors and for the server alike
          now += Number(after[1]);
          h.server.clock.advance(Number(after[1]));
          await act(async () => timers.increment(Number(after[1])));
        } else {
          const perform = spec.events[e.type];
          if (!perform) throw new Error(`no way to cause ${e.type} on the screen`);
          await perform(w, e);
        }
        // let what the step set off render (a dialog, a reload) before the checks: a check that
        // something is absent must not pass only because it has not appeared yet
        await letItRender();
        if (runaway) throw new Error(runaway);
        const leaves = statePaths(step.state.value).split(' + ');
        for (const [key, check] of checksFor(spec, step.state.value)) {
          try {
            await eventually(() => check(w, leaves));
          } catch (err) {
            if (runaway) throw new Error(runaway, { cause: err });
            throw new Error(`in state ${key}: ${(err as Error).message}`, { cause: err });
          }
        }
        const effect = spec.effects?.[e.type];
        if (effect) await eventually(() => effect(w, e, sentBefore, seenBefore));
      } catch (err) {
        throw new Error(`${path.name}\n  ${where}\n  ${(err as Error).message}`, { cause: err });
      }
    }
    if (atEnd) await atEnd(w);
  } finally {
    // a held request that the path never answered fails quietly, as a closed page's would
    for (const fail of releases.values()) fail('fail');
    h.intercept(undefined);
    cleanup();
    setActorTimers(undefined);
  }
}

/** The requests of one invoke the screen sent, from the `since`-th request of the path on. */
export function sentBy<W>(w: World<W>, invoke: string, since = 0): Sent[] {
  return w.sent.slice(since).filter((r) => r.invoke === invoke);
}

/**
 * The effects of DESIGN.md §4's one key per intent, for the events that send an invoke's request:
 * the event that starts an intent (a confirm, a tap) sends a key never sent before; a retry sends
 * the request again with the key of the one it repeats, so the server does it once. A retry event
 * that also retries another invoke (`alsoRetries`, e.g. loading) may send that one instead.
 */
export function oneKeyPerIntent<W>(
  invoke: string,
  events: { intent: string; retry: string; alsoRetries?: string },
): NonNullable<ScreenPathSpec<W>['effects']> {
  return {
    [events.intent]: (w, _e, before) => {
      const [tap] = sentBy(w, invoke, before);
      expect(tap?.key, 'the request carries an Idempotency-Key').toBeDefined();
      expect(
        sentBy(w, invoke)
          .slice(0, -1)
          .map((r) => r.key),
        'a new intent, a new key',
      ).not.toContain(tap!.key);
    },
    [events.retry]: (w, _e, before) => {
      const [again] = sentBy(w, invoke, before);
      if (!again && events.alsoRetries && sentBy(w, events.alsoRetries, before).length > 0) return;
      expect(again, 'a retry sends the request again').toBeDefined();
      expect(again!.key, 'a retry is the same intent: the same key').toBe(sentBy(w, invoke).at(-2)?.key);
    },
  };
}

/**
 * How the member goes through an operation's confirm step on the screen: accept in the dialog
 * (`confirmText`), "not now" in it or "close" after a failure (after a refusal the screen closes
 * the step itself), and retry after a failure.
 */
export function confirmStepEvents<W>(confirmText: string): ScreenPathSpec<W>['events'] {
  const button = (name: string) => screen.queryByRole('button', { name });
  return {
    'confirm.accept': async (w) => w.ui.user.click(await screen.findByRole('button', { name: confirmText })),
    'confirm.dismiss': async (w) => {
      const close = button('再想想') ?? button('关闭');
      if (close) await w.ui.user.click(close);
    },
    'network.retry': async (w) => w.ui.user.click(button('重试')!),
  };
}

/**
 * The effects of an operation confirmed in a dialog (spec: each change to money, a card or a booking
 * is confirmed first): a tap on it (`ask` events) opens the confirm and sends nothing; "not now" in
 * the confirm or "close" after a failure (`confirm.dismiss`) ends the step and sends nothing.
 * `confirmText` names the dialog's confirm button.
 */
export function askFirst<W>(invoke: string, opts: { ask: string[]; confirmText: string }): NonNullable<ScreenPathSpec<W>['effects']> {
  const open = () => screen.queryByRole('button', { name: opts.confirmText });
  const tap = (w: World<W>, _e: AnyEventObject, before: number) => {
    expect(sentBy(w, invoke, before)).toEqual([]);
    expect(open(), 'the confirm is open').not.toBe(null);
  };
  return {
    ...Object.fromEntries(opts.ask.map((type) => [type, tap])),
    'confirm.dismiss': (w, _e, before) => {
      expect(sentBy(w, invoke, before)).toEqual([]);
      expect(open()).toBe(null);
      expect(screen.queryByRole('alert')?.textContent ?? '', 'nothing left to retry').not.toContain('网络无法连接');
    },
  };
}

/**
 * Registers a machine's screen path tests: that every atomic state has its check, one test per
 * shortest path and per transition the shortest paths missed, and the coverage of the chart.
 * Under MUTANTS=1, registers one test per mutant instead (see the file comment).
 */
export function defineScreenPaths<W>(h: ScreenHarness, spec: ScreenPathSpec<W>): void {
  const { machine } = spec;
  if (collected) {
    collected.push({ h, spec: spec as ScreenPathSpec<unknown> });
    return;
  }
  if (process.env.MUTANTS) return defineMutants(h, spec);
  const { paths, coverage } = pathsOf(machine, spec);
  describe(`machine ${machine.id} on ${spec.screen} (screen paths)`, () => {
    it('has a check for every state', () => {
      const states = atomicStates(machine);
      expect(
        states.filter((s) => !spec.states[s]),
        'states without a check',
      ).toEqual([]);
      const known = new Set(machine.root ? allNodePaths(machine) : []);
      expect(
        Object.keys(spec.states).filter((k) => !known.has(k)),
        'checks for states the chart does not have',
      ).toEqual([]);
    });
    for (const p of paths) it(p.name, () => runPath(h, spec, p));
    it('reaches every state and fires every transition of the chart', () => assertFullCoverage(coverage));
    afterAll(() => console.log(`${coverage.line} (screen paths: ${paths.length})`));
  });
}

function allNodePaths(machine: AnyStateMachine): string[] {
  const out: string[] = [];
  const walk = (node: { states: Record<string, unknown>; path: string[] }) => {
    if (node.path.length) out.push(node.path.join('.'));
    for (const c of Object.values(node.states) as (typeof node)[]) walk(c);
  };
  walk(machine.root as never);
  return out;
}

/** A path's steps as the chart has them: events, state values and whole contexts. */
function stepKeys(steps: Step[]): string[] {
  const safe = (v: unknown) => {
    try {
      return JSON.stringify(v);
    } catch {
      return '(unserializable)';
    }
  };
  const keys: string[] = [];
  let acc = '';
  for (const { event, state } of steps) {
    acc += `|${safe(event)}>${safe([state.status, state.value, state.context])}`;
    keys.push(acc);
  }
  return keys;
}

function defineMutants<W>(h: ScreenHarness, spec: ScreenPathSpec<W>): void {
  const { machine } = spec;
  const results: MutantResult[] = [];
  // a mutant's path that the chart has too (same events, same states) behaves as the chart does,
  // and the chart passes it: only the paths that differ are run
  const known = new Set(pathsOf(machine, spec).paths.flatMap((p) => stepKeys(p.steps)));
  describe(`mutants of ${machine.id}`, () => {
    if (mutantsOfThisShard(machine).length === 0) it('has no mutants in this shard', () => {});
    for (const mutant of mutantsOfThisShard(machine)) {
      it(mutant.description, { timeout: 300_000 }, async () => {
        const why = spec.equivalent?.[mutant.description];
        if (why) {
          results.push({ machine: machine.id, mutant: mutant.description, outcome: 'equivalent', by: why });
          return;
        }
        const result = await tryMutant(machine, mutant, async () => {
          const { paths, coverage } = pathsOf(machine, spec);
          // the coverage check fails without running anything: asked first, it saves the paths' time
          if (!coverage.complete) return `coverage: ${coverage.line}`;
          // the short paths first: most mutants die on the first step that differs
          const differing = paths.filter((q) => !known.has(stepKeys(q.steps).at(-1)!)).sort((a, b) => a.steps.length - b.steps.length);
          for (const p of differing) {
            try {
              await runPath(h, spec, p);
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

/** A path test's spec with the harness its file started, as `collectScreenPaths` hands it over. */
export interface CollectedPaths {
  h: ScreenHarness;
  spec: ScreenPathSpec<unknown>;
}

let collected: CollectedPaths[] | undefined;

/**
 * Loads path test files for their specs instead of their tests: while `load` runs,
 * `defineScreenPaths` registers nothing and hands its spec here. Another test (the end-state test)
 * then drives a screen to one state with the path test's own steps, answers and checks.
 */
export async function collectScreenPaths(load: () => Promise<unknown>): Promise<CollectedPaths[]> {
  collected = [];
  try {
    await load();
    return collected;
  } finally {
    collected = undefined;
  }
}

/** each spec's paths, walked once for all the states a file drives it to */
const walks = new WeakMap<ScreenPathSpec<unknown>, ScreenPath[]>();

/**
 * Drives the screen along the shortest path of the spec's walk that ends in `state` (an atomic
 * state's path, `editing.refused`), checking each state on the way as the path test does, then runs
 * `atEnd` on the screen before it is closed.
 */
export async function runPathTo<W>(
  h: ScreenHarness,
  spec: ScreenPathSpec<W>,
  state: string,
  atEnd: (w: World<W>) => Promise<void>,
): Promise<void> {
  // a path's steps up to the first that is in the state (the walk may reach it only on its way on)
  const upTo = (p: ScreenPath): ScreenPath | undefined => {
    const i = p.steps.findIndex((s) => statePaths(s.state.value).split(' + ').includes(state));
    return i < 0 ? undefined : { ...p, name: `${p.name} (up to ${state})`, steps: p.steps.slice(0, i + 1) };
  };
  let walked = walks.get(spec as ScreenPathSpec<unknown>);
  if (!walked) walks.set(spec as ScreenPathSpec<unknown>, (walked = pathsOf(spec.machine, spec, true).paths));
  const found = walked.flatMap((p) => upTo(p) ?? []).sort((a, b) => a.steps.length - b.steps.length)[0];
  if (!found) throw new Error(`the walk of ${spec.machine.id} never reaches ${state}`);
  await runPath(h, spec, found, atEnd);
}
