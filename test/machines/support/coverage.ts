import {
  createActor,
  type AnyEventObject,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyStateNode,
  type AnyTransitionDefinition,
} from 'xstate';

/** One transition of a machine's definition: an event's guarded branch, an `always` branch, an `after` delay, an invoke's done or error. */
export interface TransitionItem {
  key: string;
  /** for reports: `login.active.sender.coolingDown --after 1000ms [cooldownLeft]--> coolingDown` */
  label: string;
}

/** Everything a model-based test must reach: every state node and every transition, read from the definition. */
export interface MachineDefinition {
  id: string;
  states: string[];
  transitions: TransitionItem[];
}

function allNodes(node: AnyStateNode): AnyStateNode[] {
  return [node, ...Object.values(node.states).flatMap((child) => allNodes(child as AnyStateNode))];
}

function eventLabel(eventType: string): string {
  if (eventType === '') return 'always';
  const after = /^xstate\.after\.(\d+)\./.exec(eventType);
  if (after) return `after ${after[1]}ms`;
  const done = /^xstate\.done\.actor\.(.+)$/.exec(eventType);
  if (done) return `done ${done[1]}`;
  const error = /^xstate\.error\.actor\.(.+)$/.exec(eventType);
  if (error) return `error ${error[1]}`;
  return eventType;
}

function guardLabel(t: AnyTransitionDefinition): string {
  const g = t.guard as undefined | string | { type?: string } | ((...a: unknown[]) => unknown);
  if (!g) return '';
  if (typeof g === 'string') return ` [${g}]`;
  if (typeof g === 'function') return ` [${g.name || 'guard'}]`;
  return ` [${g.type ?? 'guard'}]`;
}

/** The stable key of a transition: its source state, its event and its place among that event's branches. */
export function transitionKey(t: AnyTransitionDefinition): string {
  const source = t.source as AnyStateNode;
  if (source.always?.includes(t)) return `${source.id}|always|${source.always.indexOf(t)}`;
  const list = source.transitions.get(t.eventType) ?? [];
  // a provided machine has its own node objects, but each transition sits in its own source's list
  const i = list.indexOf(t);
  if (i < 0) throw new Error(`transition ${t.eventType} is not among ${source.id}'s transitions`);
  return `${source.id}|${t.eventType}|${i}`;
}

/**
 * Reads the coverage goal from the machine itself (DESIGN.md §3): every state node below the root,
 * and every transition of every state node (each event's guarded branches, `always` branches,
 * `after` delays, invoke onDone/onError).
 */
export function machineDefinition(machine: AnyStateMachine): MachineDefinition {
  const nodes = allNodes(machine.root as AnyStateNode);
  const states = nodes.filter((n) => n !== machine.root).map((n) => n.id);
  const transitions: TransitionItem[] = [];
  for (const node of nodes) {
    for (const [eventType, list] of node.transitions) {
      list.forEach((t, i) => {
        const targets = (t.target ?? []).map((x: AnyStateNode) => x.id).join(', ') || '(stays)';
        transitions.push({
          key: `${node.id}|${eventType}|${i}`,
          label: `${node.id} --${eventLabel(eventType)}${guardLabel(t)}--> ${targets}`,
        });
      });
    }
    (node.always ?? []).forEach((t, i) => {
      const targets = (t.target ?? []).map((x: AnyStateNode) => x.id).join(', ') || '(stays)';
      transitions.push({ key: `${node.id}|always|${i}`, label: `${node.id} --always${guardLabel(t)}--> ${targets}` });
    });
  }
  return { id: machine.id, states, transitions };
}

export interface CoverageReport {
  id: string;
  states: { covered: number; total: number; missing: string[] };
  transitions: { covered: number; total: number; missing: string[] };
  /** 100% of both */
  complete: boolean;
  /** `machine <id>: states a/b, transitions c/d` */
  line: string;
}

/** Collects what runs of a machine exercised, and compares it with the definition. */
export class CoverageTracker {
  readonly definition: MachineDefinition;
  private readonly states = new Set<string>();
  private readonly transitions = new Set<string>();

  constructor(machine: AnyStateMachine) {
    this.definition = machineDefinition(machine);
  }

  /** Marks the active state nodes of a snapshot (internal `_nodes`: every active node, parallel regions included). */
  visitSnapshot(snapshot: { _nodes?: AnyStateNode[] }): void {
    for (const n of snapshot._nodes ?? []) this.states.add(n.id);
  }

  /** Marks fired transitions (from the `@xstate.microstep` inspection event) and their sources' ancestry as visited. */
  visitTransitions(list: readonly AnyTransitionDefinition[]): void {
    for (const t of list) {
      this.transitions.add(transitionKey(t));
      for (let n: AnyStateNode | undefined = t.source as AnyStateNode; n; n = n.parent) this.states.add(n.id);
    }
  }

  /** Whether running this transition would add coverage. */
  isNew(t: AnyTransitionDefinition): boolean {
    return !this.transitions.has(transitionKey(t));
  }

  report(): CoverageReport {
    const missingStates = this.definition.states.filter((s) => !this.states.has(s));
    const missingTransitions = this.definition.transitions.filter((t) => !this.transitions.has(t.key)).map((t) => t.label);
    const s = {
      covered: this.definition.states.length - missingStates.length,
      total: this.definition.states.length,
      missing: missingStates,
    };
    const t = {
      covered: this.definition.transitions.length - missingTransitions.length,
      total: this.definition.transitions.length,
      missing: missingTransitions,
    };
    return {
      id: this.definition.id,
      states: s,
      transitions: t,
      complete: s.covered === s.total && t.covered === t.total,
      line: `machine ${this.definition.id}: states ${s.covered}/${s.total}, transitions ${t.covered}/${t.total}`,
    };
  }
}

/**
 * The transitions an event really takes from a snapshot: the chart run one step (inspection's
 * microsteps), so that of two parallel regions' transitions that conflict only the one that wins
 * counts, and a transition that can never win is never counted as covered. (`getTransitionData`
 * lists both.) The snapshot's invoked actors are stopped at once.
 */
export function firedTransitions(machine: AnyStateMachine, from: AnyMachineSnapshot, event: AnyEventObject): AnyTransitionDefinition[] {
  const fired: Array<{ t: AnyTransitionDefinition; after: AnyMachineSnapshot }> = [];
  try {
    const actor = createActor(machine, {
      snapshot: from as never,
      inspect(ev) {
        if (ev.type !== '@xstate.microstep') return;
        const step = ev as unknown as { _transitions: AnyTransitionDefinition[]; snapshot: AnyMachineSnapshot };
        for (const t of step._transitions) fired.push({ t, after: step.snapshot });
      },
    });
    actor.start();
    actor.send(event);
    actor.stop();
    // the microstep lists every enabled transition, before conflicts are resolved: a transition whose
    // target was not entered lost to another
    return fired
      .filter(({ t, after }) => {
        const nodes = new Set((after as unknown as { _nodes: AnyStateNode[] })._nodes);
        return (t.target ?? []).every((n: AnyStateNode) => nodes.has(n) || after.status === 'done');
      })
      .map(({ t }) => t);
  } catch {
    return machine.getTransitionData(from as never, event) as AnyTransitionDefinition[];
  }
}
