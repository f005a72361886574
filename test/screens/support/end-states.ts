import type { AnyStateMachine } from 'xstate';
import { atomicStates } from './screen-paths';

/**
 * The end states of an app chart, read from the chart (decision 103): the states where the flow a
 * person started is over, and where the screen must offer the next thing to do.
 * - a final state (`type: 'final'`);
 * - a state with no transition out of it at all (nothing the person or the server can still do
 *   moves the chart on: "cancelled", "located", the last page of a list);
 * - a state tagged `end` (itself or a state it is in): the flow is over but the chart still answers something there, a retry of
 *   what failed or "invite again" (a payment that failed, an invitation that expired).
 * A state that only decides where to go (`always` and nothing else) is never at rest and is none.
 */
export function endStatesOf(machine: AnyStateMachine): string[] {
  type Node = {
    type: string;
    path: string[];
    tags: string[];
    parent?: Node;
    transitions: Map<string, Array<{ target?: unknown[] }>>;
    always?: unknown[];
  };
  const byPath = new Map<string, Node>();
  const index = (n: Node & { states: Record<string, Node & { states: never }> }) => {
    byPath.set(n.path.join('.'), n);
    for (const c of Object.values(n.states)) index(c as never);
  };
  index(machine.root as never);
  const leaves = (n: Node) => {
    for (let x: Node | undefined = n; x; x = x.parent) {
      if (x.always?.length) return true;
      for (const ts of x.transitions.values()) if (ts.length) return true;
    }
    return false;
  };
  // as `snapshot.hasTag` reads them: a compound state's tag is its children's too
  const tagged = (n: Node) => {
    for (let x: Node | undefined = n; x; x = x.parent) if (x.tags.includes('end')) return true;
    return false;
  };
  return atomicStates(machine).filter((path) => {
    const n = byPath.get(path)!;
    return n.type === 'final' || tagged(n) || !leaves(n);
  });
}
