import { createActor, fromPromise } from 'xstate';
import { describe, expect, it } from 'vitest';
import { cardItemMachine, type CardItemContext } from '../../machines/card-item.machine';
import { defineModelTest } from './support/define-model-test';

const activated = { code: 200, status: true, data: { id: 5, status: 'in_use' } };
const forbidden = { code: 30001, status: false, data: null };

defineModelTest({
  machine: cardItemMachine,
  inputs: {
    'an inactive card': { cardId: 5, status: 'inactive' },
    'a card in use (nothing to activate)': { cardId: 5, status: 'in_use' },
  },
  cases: {
    'xstate.done.actor.activateCard': [{ output: activated }, { output: forbidden }],
    'xstate.error.actor.activateCard': [{ error: new Error('network') }],
  },
  project: (c: CardItemContext) => ({ status: c.status, keyed: !!c.idempotencyKey, errorCode: c.errorCode ?? null }),
});

describe('card-item machine: the card chart decides the offer (spec §4 activate)', () => {
  it('only an inactive card can be activated', () => {
    for (const status of ['in_use', 'frozen', 'expired', 'invalid', 'transferred'] as const) {
      const a = createActor(cardItemMachine, { input: { cardId: 1, status } }).start();
      a.send({ type: 'card.activate' });
      expect(a.getSnapshot().value, status).toBe('idle');
    }
    const inactive = createActor(cardItemMachine, { input: { cardId: 1, status: 'inactive' } }).start();
    inactive.send({ type: 'card.activate' });
    expect(inactive.getSnapshot().value).toEqual({ activating: 'confirming' });
  });

  it('retries with the same idempotency key and tells the page once it is activated', async () => {
    const keys: string[] = [];
    let fail = true;
    let changed = 0;
    const actor = createActor(
      cardItemMachine.provide({
        actors: {
          activateCard: fromPromise(async ({ input }) => {
            keys.push(input.idempotencyKey);
            if (fail) throw new Error('network');
            return activated as never;
          }),
        },
        actions: { cardChanged: () => void changed++ },
      }),
      { input: { cardId: 5, status: 'inactive' } },
    ).start();
    actor.send({ type: 'card.activate' });
    actor.send({ type: 'confirm.accept' });
    await new Promise((r) => setTimeout(r, 0));
    expect(actor.getSnapshot().value).toEqual({ activating: 'unreachable' });
    fail = false;
    actor.send({ type: 'retry' });
    await new Promise((r) => setTimeout(r, 0));
    expect(actor.getSnapshot().value).toBe('activated');
    expect(actor.getSnapshot().context.status).toBe('in_use');
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    expect(changed).toBe(1);
  });
});
