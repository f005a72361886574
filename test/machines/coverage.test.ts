import { assign, fromPromise, setup } from 'xstate';
import { describe, expect, it } from 'vitest';
import { machineDefinition } from './support/coverage';
import { assertFullCoverage, modelSuite } from './support/model';

/** A door whose `unlock` guard can never pass, and a state nothing leads to. */
const door = setup({
  types: { context: {} as { opened: number }, events: {} as { type: 'door.open' } | { type: 'door.close' } | { type: 'door.unlock' } },
  actors: { ring: fromPromise(async () => 'ding') },
  guards: { never: () => false },
}).createMachine({
  id: 'door',
  context: { opened: 0 },
  initial: 'closed',
  states: {
    closed: {
      on: {
        'door.open': { target: 'open', actions: assign({ opened: ({ context }) => context.opened + 1 }) },
        'door.unlock': { guard: 'never', target: 'unlocked' },
      },
    },
    open: {
      invoke: { id: 'ring', src: 'ring', onDone: 'closed', onError: 'closed' },
      after: { 5000: 'closed' },
      on: { 'door.close': 'closed' },
    },
    unlocked: {},
  },
});

describe('coverage is measured against the definition', () => {
  it('lists every state node and every transition: event branches, after, invoke done and error', () => {
    const def = machineDefinition(door);
    expect(def.states).toEqual(['door.closed', 'door.open', 'door.unlocked']);
    expect(def.transitions.map((t) => t.label)).toEqual([
      'door.closed --door.open--> door.open',
      'door.closed --door.unlock [never]--> door.unlocked',
      'door.open --door.close--> door.closed',
      'door.open --done ring--> door.closed',
      'door.open --error ring--> door.closed',
      'door.open --after 5000ms--> door.closed',
    ]);
  });

  it('reports below 100% (and the check fails) for a machine with an unreachable transition and state', async () => {
    const suite = modelSuite({
      machine: door,
      inputs: { door: undefined },
      cases: { 'xstate.done.actor.ring': [{ output: 'ding' }], 'xstate.error.actor.ring': [{ error: new Error('x') }] },
      project: (c: { opened: number }) => Math.min(c.opened, 1),
    });
    for (const p of suite.paths) await suite.run(p);
    await suite.coverRemaining();
    const report = suite.report();
    expect(report.line).toBe('machine door: states 2/3, transitions 5/6');
    expect(report.complete).toBe(false);
    expect(report.states.missing).toEqual(['door.unlocked']);
    expect(report.transitions.missing).toEqual(['door.closed --door.unlock [never]--> door.unlocked']);
    expect(() => assertFullCoverage(report)).toThrow(/below 100%[\s\S]*door\.unlock/);
  });

  it('a path whose real run differs from the model fails', async () => {
    const suite = modelSuite({ machine: door, inputs: { door: undefined }, project: (c: { opened: number }) => Math.min(c.opened, 1) });
    const path = suite.paths.find((p) => p.steps.some((s) => s.event.type === 'door.open'))!;
    const broken = { ...path, steps: path.steps.map((s) => (s.event.type === 'door.open' ? { ...s, event: { type: 'door.close' } } : s)) };
    await expect(suite.run(broken)).rejects.toThrow(/expected/);
  });
});
