import { getNextSnapshot, type AnyStateMachine } from 'xstate';

/**
 * What a domain chart says about the values its record stores (decision 017): the stored
 * state names, the states with a tag (the "open" lists the services filter by), and the states an
 * event may leave. Read once from the chart, so no list of state names is copied by hand.
 *
 * A chart's top-level states are its stored values, except a state that only decides where to go
 * (`always` and nothing else) and a state tagged `noRecord` (the record does not exist yet, e.g. a
 * photo not uploaded). A chart state name in camelCase is stored in snake_case (`queueCancelled` is
 * `queue_cancelled`).
 */
interface StateNodeLike {
  key: string;
  tags: string[];
  always?: unknown[];
  on: Record<string, unknown>;
  transitions: Map<string, unknown>;
  type: string;
}

const topStates = (machine: AnyStateMachine): StateNodeLike[] =>
  Object.values((machine.root as unknown as { states: Record<string, StateNodeLike> }).states);

const transient = (n: StateNodeLike): boolean => (n.always?.length ?? 0) > 0 && n.transitions.size === 0;

/** `queueCancelled` → `queue_cancelled`: how a chart state's name is stored. */
export const storedName = (chartState: string): string => chartState.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The values the record's state column may hold, in the chart's order. */
export function storedStates<S extends string = string>(machine: AnyStateMachine): S[] {
  return topStates(machine)
    .filter((n) => !transient(n) && !n.tags.includes('noRecord'))
    .map((n) => storedName(n.key) as S);
}

/** The stored values of the chart's states carrying `tag`. */
export function storedStatesTagged<S extends string = string>(machine: AnyStateMachine, tag: string): S[] {
  return topStates(machine)
    .filter((n) => n.tags.includes(tag))
    .map((n) => storedName(n.key) as S);
}

/**
 * The CHECK constraint's SQL for a state column holding exactly `states` (`"state" in ('a', 'b')`).
 * State names are the chart's own identifiers, so they are checked rather than escaped.
 */
export function stateCheckSql(column: string, states: readonly string[]): string {
  for (const s of states) if (!/^[a-z_]+$/.test(s)) throw new Error(`state name ${s} is not a plain identifier`);
  return `"${column}" in (${states.map((s) => `'${s}'`).join(', ')})`;
}

/**
 * Where a flat chart (top-level states; a context only of facts its guards read) goes from `state` on
 * `event`; null when the chart refuses it. The one next-state function of the domain transition
 * modules: the chart's value is checked to be a state name here, so no module casts a snapshot's value.
 */
export function nextFlatState<S extends string>(machine: AnyStateMachine, state: S, event: string, context?: object): S | null {
  const snapshot = machine.resolveState({ value: state, context });
  if (!snapshot.can({ type: event })) return null;
  const next: unknown = getNextSnapshot(machine, snapshot, { type: event }).value;
  if (typeof next !== 'string') throw new Error(`${machine.id}: ${state} on ${event} left the top level (${JSON.stringify(next)})`);
  return next as S;
}
