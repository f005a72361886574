import { describe, expect, it } from 'vitest';
import { cardMachine } from '../../machines/domain/card.machine';
import { canApplyCard, cardExpiryMoves, cardOperations, cardTimeMoves, nextCardStatus } from '../../machines/domain/card-transitions';
import { CARD_STATUSES } from '../../src/domain/booking-rules';
import { defineModelTest } from './support/define-model-test';
import { mutantMachine, mutantsOf, plantMutant } from './support/mutants';

defineModelTest({
  machine: cardMachine,
  inputs: {
    'a bought card': { receivedByTransfer: false, freezePlanned: false },
    'a card received by transfer': { receivedByTransfer: true, freezePlanned: false },
  },
  project: (c: { receivedByTransfer: boolean; freezePlanned: boolean }) => ({
    receivedByTransfer: c.receivedByTransfer,
    freezePlanned: c.freezePlanned,
  }),
});

describe('the server reads the card chart (spec §4 card status)', () => {
  it('activates an inactive card (by hand or by its first booking), and only that', () => {
    expect(nextCardStatus('inactive', 'card.activate')).toBe('in_use');
    for (const s of CARD_STATUSES.filter((x) => x !== 'inactive')) expect(canApplyCard(s, 'card.activate'), s).toBe(false);
  });

  it("keeps the chart's answers per chart: a planted chart is asked afresh, and the real one answers as before after it", () => {
    expect(nextCardStatus('inactive', 'card.activate')).toBe('in_use');
    const retargeted = mutantsOf(cardMachine).find((m) => m.description === 'inactive on card.activate: → frozen (instead of in_use)')!;
    const restore = plantMutant(cardMachine, mutantMachine(cardMachine, retargeted));
    try {
      expect(nextCardStatus('inactive', 'card.activate')).toBe('frozen');
    } finally {
      restore();
    }
    expect(nextCardStatus('inactive', 'card.activate')).toBe('in_use');
  });

  it('freezes a card in use and unfreezes a frozen one', () => {
    expect(nextCardStatus('in_use', 'card.freeze')).toBe('frozen');
    expect(nextCardStatus('frozen', 'card.unfreeze')).toBe('in_use');
    for (const s of ['inactive', 'expired', 'invalid', 'transferred', 'frozen'] as const)
      expect(canApplyCard(s, 'card.freeze'), s).toBe(false);
    expect(canApplyCard('in_use', 'card.unfreeze')).toBe(false);
  });

  it('plans a freeze from a later day: the job starts it, the member may call it off, no second one meanwhile (decision 024)', () => {
    expect(nextCardStatus('in_use', 'card.planFreeze')).toBe('in_use');
    expect(nextCardStatus('in_use', 'card.freezeStarts', { freezePlanned: true })).toBe('frozen');
    expect(canApplyCard('in_use', 'card.freezeStarts')).toBe(false);
    expect(nextCardStatus('in_use', 'card.unfreeze', { freezePlanned: true })).toBe('in_use');
    for (const e of ['card.freeze', 'card.planFreeze', 'card.expire'] as const)
      expect(canApplyCard('in_use', e, { freezePlanned: true }), e).toBe(false);
    expect(nextCardStatus('frozen', 'card.freezeEnds')).toBe('in_use');
  });

  it('transfers once only: a card received by transfer cannot be transferred again', () => {
    expect(nextCardStatus('in_use', 'card.transfer')).toBe('transferred');
    expect(nextCardStatus('inactive', 'card.transfer')).toBe('transferred');
    expect(canApplyCard('in_use', 'card.transfer', { receivedByTransfer: true })).toBe(false);
    expect(canApplyCard('transferred', 'card.transfer')).toBe(false);
    expect(canApplyCard('frozen', 'card.transfer')).toBe(false);
    // a planned freeze is called off first (decision 026)
    expect(canApplyCard('in_use', 'card.transfer', { freezePlanned: true })).toBe(false);
  });

  it('extends only when in use or expired (spec §5)', () => {
    expect(nextCardStatus('in_use', 'card.extend')).toBe('in_use');
    expect(nextCardStatus('expired', 'card.extend')).toBe('in_use');
    for (const s of ['inactive', 'frozen', 'invalid', 'transferred'] as const) expect(canApplyCard(s, 'card.extend'), s).toBe(false);
  });

  it('a refund ends a card; an ended card changes no more', () => {
    expect(nextCardStatus('in_use', 'card.refund')).toBe('invalid');
    expect(nextCardStatus('inactive', 'card.refund')).toBe('invalid');
    for (const s of ['invalid', 'transferred'] as const) expect(cardOperations(s), s).toEqual([]);
  });

  it('at its validity end a card in use expires; the job writes only that move (a frozen card waits)', () => {
    expect(cardExpiryMoves()).toEqual([{ from: 'in_use', to: 'expired', freezePlanned: false }]);
    expect(cardTimeMoves('card.freezeStarts')).toEqual([{ from: 'in_use', to: 'frozen', freezePlanned: true }]);
    expect(cardTimeMoves('card.freezeEnds')).toEqual([
      { from: 'frozen', to: 'in_use', freezePlanned: false },
      { from: 'frozen', to: 'in_use', freezePlanned: true },
    ]);
  });

  it('offers the operations the chart allows', () => {
    expect(cardOperations('inactive')).toEqual(['activate', 'transfer', 'refund', 'changeAdviser']);
    expect(cardOperations('in_use')).toEqual(['freeze', 'transfer', 'extend', 'refund', 'changeAdviser']);
    expect(cardOperations('in_use', { receivedByTransfer: true })).toEqual(['freeze', 'extend', 'refund', 'changeAdviser']);
    expect(cardOperations('frozen')).toEqual(['unfreeze', 'refund', 'changeAdviser']);
    expect(cardOperations('in_use', { freezePlanned: true })).toEqual(['unfreeze', 'extend', 'refund', 'changeAdviser']);
    expect(cardOperations('expired')).toEqual(['extend', 'changeAdviser']);
  });

  it('changes the adviser of a card that is not gone, in the status it has (decision 034)', () => {
    for (const s of ['inactive', 'in_use', 'frozen', 'expired'] as const) expect(nextCardStatus(s, 'card.changeAdviser'), s).toBe(s);
    for (const s of ['invalid', 'transferred'] as const) expect(canApplyCard(s, 'card.changeAdviser'), s).toBe(false);
  });
});
