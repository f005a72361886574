import { assign, fromPromise, setup } from 'xstate';
import type { MemberCardDetail } from '../src/api/cards';
import type { CardStatus } from '../src/domain/booking-rules';
import type { Envelope } from '../src/domain/envelope';
import { isOk } from '../src/domain/envelope';
import { canApplyCard } from './domain/card-transitions';
import { newIntentKey } from '../src/domain/intent-key';

export interface CardItemInput {
  cardId: number;
  /** the status the member sees (the card chart says which operation it allows) */
  status: CardStatus;
}

export interface CardItemContext extends CardItemInput {
  /** one per intent (the member's confirm), reused by its retries */
  idempotencyKey?: string;
  /** the server's refusal, e.g. 30001 the card's status forbids it */
  errorCode?: number;
}

export type CardItemEvent =
  | { type: 'card.activate' }
  | { type: 'confirm.accept' }
  | { type: 'confirm.dismiss' }
  | { type: 'network.retry' };

/**
 * One of my cards on its page (/mine/carddetail): activate it by hand (spec §4 operations), through a
 * confirm step, then submitting, then activated, or refused with the server's code (said, and the
 * card reloaded), or unreachable with retry. Whether the card offers it is the card chart's answer
 * (machines/domain/card.machine.ts). Effects are provided: actor activateCard; actions cardChanged
 * (the page reloads its data), sayActivated and sayRefused (the message the member reads).
 * Tags, as on the other card charts, say what the page shows: `busy` the activation is in flight (its
 * button says it is working), `unreachable` the retry in place of the button.
 */
export const cardItemMachine = setup({
  types: {
    context: {} as CardItemContext,
    events: {} as CardItemEvent,
    input: {} as CardItemInput,
    tags: {} as 'busy' | 'unreachable',
  },
  actors: {
    activateCard: fromPromise<Envelope<MemberCardDetail>, { cardId: number; idempotencyKey: string }>(async () => {
      throw new Error('activateCard is provided by the app');
    }),
  },
  actions: {
    newIntent: assign({ idempotencyKey: () => newIntentKey(), errorCode: undefined }),
    keepCode: assign({ errorCode: (_, params: { code: number }) => params.code }),
    keepStatus: assign({ status: (_, params: { status: CardStatus }) => params.status }),
    cardChanged: () => {},
    sayActivated: () => {},
    sayRefused: (_, _params: { code: number }) => {},
  },
  guards: {
    activatable: ({ context }) => canApplyCard(context.status, 'card.activate'),
    refused: (_, params: { envelope: Envelope<unknown> }) => !isOk(params.envelope),
  },
}).createMachine({
  id: 'cardItem',
  context: ({ input }) => ({ cardId: input.cardId, status: input.status }),
  initial: 'idle',
  states: {
    idle: {
      description:
        'A membership card in my cards: its name, status and validity; a card not yet activated offers "activate". After a refusal the reason is said and the card shows as the server has it now.',
      on: {
        'card.activate': { guard: 'activatable', target: 'activating' },
      },
    },
    activating: {
      description: 'The member is activating this card.',
      initial: 'confirming',
      states: {
        confirming: {
          description: 'A confirm asks whether to activate the card now (its validity starts today): the member accepts or says not now.',
          on: {
            'confirm.accept': { target: 'submitting', actions: 'newIntent' },
            'confirm.dismiss': '#cardItem.idle',
          },
        },
        submitting: {
          tags: ['busy'],
          description: 'The activation was sent: the confirm shows it is working.',
          invoke: {
            id: 'activateCard',
            src: 'activateCard',
            input: ({ context }) => ({ cardId: context.cardId, idempotencyKey: context.idempotencyKey! }),
            onDone: [
              // refused: the reason is said and, as the card may have changed elsewhere (activated on
              // another phone), the page reloads it
              {
                guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) },
                target: '#cardItem.idle',
                actions: [
                  { type: 'keepCode', params: ({ event }) => ({ code: event.output.code }) },
                  'cardChanged',
                  { type: 'sayRefused', params: ({ event }) => ({ code: event.output.code }) },
                ],
              },
              {
                target: '#cardItem.activated',
                actions: [{ type: 'keepStatus', params: ({ event }) => ({ status: event.output.data.status }) }, 'cardChanged'],
              },
            ],
            onError: 'unreachable',
          },
        },
        unreachable: {
          tags: ['unreachable'],
          description: 'The activation did not reach the server: the member can retry (the same request, so it activates once) or close.',
          on: { 'network.retry': 'submitting', 'confirm.dismiss': '#cardItem.idle' },
        },
      },
    },
    activated: {
      description: 'The card is active: "card activated" is said, and it shows its validity from today and no longer offers "activate".',
      entry: 'sayActivated',
    },
  },
});
