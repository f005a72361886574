import { describe, expect, it } from 'vitest';
import { setup } from 'xstate';
import { cardFactsOf, cardOperations } from '../../machines/domain/card-transitions';
import { stateCheckSql, storedStates, storedStatesTagged } from '../../machines/domain/chart-states';

/** What a domain chart says its record stores (decision 017). */
describe('stored states read from a chart', () => {
  const chart = setup({
    types: { events: {} as { type: 'go' }, context: {} as { full: boolean } },
    guards: { full: ({ context }) => context.full },
  }).createMachine({
    id: 'thing',
    context: { full: false },
    initial: 'nothing',
    states: {
      nothing: { tags: ['noRecord'], on: { go: 'requested' } },
      requested: { always: [{ guard: 'full', target: 'waitingInLine' }, { target: 'inUse' }] },
      inUse: { tags: ['open'] },
      waitingInLine: { tags: ['open'] },
      done: { type: 'final' },
    },
  });

  it('leaves out a state with no record and a state that only decides; stores camelCase as snake_case', () => {
    expect(storedStates(chart)).toEqual(['in_use', 'waiting_in_line', 'done']);
  });

  it('lists the states with a tag', () => {
    expect(storedStatesTagged(chart, 'open')).toEqual(['in_use', 'waiting_in_line']);
    expect(storedStatesTagged(chart, 'none')).toEqual([]);
  });

  it('writes the CHECK of a column, and refuses a name that is not a plain identifier', () => {
    expect(stateCheckSql('state', ['open', 'in_use'])).toBe(`"state" in ('open', 'in_use')`);
    expect(() => stateCheckSql('state', ["x'); drop table t; --"])).toThrow(/plain identifier/);
  });
});

describe('the card chart reads the stored transfer fact', () => {
  it('a card that names the card it came from was received by transfer: it is not transferable again', () => {
    expect(cardFactsOf({ transferredFromCardId: null })).toEqual({ receivedByTransfer: false, freezePlanned: false });
    expect(cardFactsOf({ transferredFromCardId: 7 })).toEqual({ receivedByTransfer: true, freezePlanned: false });
    // freeze dates on a card in use are a plan; on a frozen card they are the freeze itself
    expect(cardFactsOf({ transferredFromCardId: null, status: 'in_use', frozenFrom: '2026-12-01' }).freezePlanned).toBe(true);
    expect(cardFactsOf({ transferredFromCardId: null, status: 'frozen', frozenFrom: '2026-12-01' }).freezePlanned).toBe(false);
    expect(cardOperations('in_use', cardFactsOf({ transferredFromCardId: null }))).toContain('transfer');
    expect(cardOperations('in_use', cardFactsOf({ transferredFromCardId: 7 }))).not.toContain('transfer');
  });
});
