import { describe, expect, it } from 'vitest';
import { setup, type AnyStateMachine } from 'xstate';
import { charts } from '../../machines/catalogue';

/**
 * Every event a chart reacts to is named `noun.verb` (or `area.happening`): `booking.cancel`,
 * `confirm.accept`, `date.change`. The names are read from the charts themselves: every `on` key of
 * every state. XState's own `xstate.*` events are not ours; no name is exempt, not even the one most
 * charts share (`network.retry`: what did not reach the server is sent again). NOT_YET lists the
 * charts still to rename: the list only shrinks, and a chart whose events are all dotted must leave it.
 */
const NOT_YET = new Set<string>([]);

/** Every event name a state of the chart has an `on` transition for, in order of first sight. */
export function eventsOf(machine: AnyStateMachine): string[] {
  type Node = { config: { on?: Record<string, unknown> }; states: Record<string, Node> };
  const out = new Set<string>();
  const walk = (n: Node) => {
    for (const e of Object.keys(n.config.on ?? {})) out.add(e);
    for (const c of Object.values(n.states)) walk(c);
  };
  walk(machine.root as unknown as Node);
  return [...out];
}

const undotted = (machine: AnyStateMachine) =>
  eventsOf(machine).filter((e) => !e.startsWith('xstate.') && !/^[a-z][A-Za-z0-9]*(\.[a-z][A-Za-z0-9]*)+$/.test(e));

describe('every event name is dotted (noun.verb)', () => {
  it.each(charts.map((c) => [c.file, c] as const))('%s', (file, { machine }) => {
    const bad = undotted(machine);
    if (NOT_YET.has(file)) expect(bad.length, `${file} names every event with a dot: take it off NOT_YET`).toBeGreaterThan(0);
    else expect(bad, `events of ${file} without a dot`).toEqual([]);
  });

  it('reads the events from the charts (a chart with an undotted event fails)', () => {
    const probe = setup({}).createMachine({
      id: 'probe',
      initial: 'a',
      states: { a: { on: { 'form.save': 'b', save: 'b' } }, b: { on: { retry: 'a' } } },
    });
    expect(eventsOf(probe)).toEqual(['form.save', 'save', 'retry']);
    expect(undotted(probe)).toEqual(['save', 'retry']);
  });

  it('NOT_YET names only charts that exist', () => {
    expect([...NOT_YET].filter((f) => !charts.some((c) => c.file === f))).toEqual([]);
  });
});
