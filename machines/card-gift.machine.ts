import { assign, fromPromise, setup } from 'xstate';
import type { CardGift } from '../src/api/cards';
import type { Envelope } from '../src/domain/envelope';
import { isOk } from '../src/domain/envelope';
import { newIntentKey } from '../src/domain/intent-key';

export interface CardGiftInput {
  cardId: number;
  /** the server offers the gift now (the card page's offer) */
  offered: boolean;
}

export interface CardGiftContext extends CardGiftInput {
  /** the recipient's phone as typed */
  phone: string;
  /** asked without a phone */
  missing: boolean;
  /** one per intent (the member's confirm), reused by its retry */
  idempotencyKey?: string;
  /** the server's refusal, e.g. 30036 no such member, 30057 myself */
  errorCode?: number;
  /** to whom the card went (masked) */
  given?: CardGift;
}

export type CardGiftEvent =
  | { type: 'gift.open' }
  | { type: 'phone.change'; phone: string }
  | { type: 'gift.submit' }
  | { type: 'form.close' }
  | { type: 'network.retry' };

/**
 * Giving one of my cards as a gift on its page (/mine/carddetail; decision 040): when the
 * server offers it, the member types the friend's phone and confirms; without a phone the form says
 * so and sends nothing; the gift is sent under one Idempotency-Key per intent: given (the page says
 * to whom, masked, and that the card has left the member's cards), refused with the server's code
 * said in the form, or unreachable with a retry under the same key.
 * Effects are provided: actor giveCard.
 * Tags, as on the other card charts, say what the page shows: `editing` the form is open, `busy` a
 * request is in flight (its button says it is working), `unreachable` the retry.
 */
export const cardGiftMachine = setup({
  types: {
    context: {} as CardGiftContext,
    events: {} as CardGiftEvent,
    input: {} as CardGiftInput,

    tags: {} as 'editing' | 'busy' | 'unreachable',
  },
  actors: {
    giveCard: fromPromise<Envelope<CardGift>, { id: number; phone: string; idempotencyKey: string }>(async () => {
      throw new Error('giveCard is provided by the app');
    }),
  },
  actions: {
    freshForm: assign({ phone: '', missing: false, errorCode: undefined }),
    keepPhone: assign({ phone: (_, p: { phone: string }) => p.phone, missing: false }),
    sayMissing: assign({ missing: true, errorCode: undefined }),
    newIntent: assign({ idempotencyKey: () => newIntentKey(), errorCode: undefined, missing: false }),
    keepCode: assign({ errorCode: (_, p: { code: number }) => p.code }),
    keepGift: assign({ given: (_, p: { gift: CardGift }) => p.gift }),
  },
  guards: {
    offered: ({ context }) => context.offered,
    noPhone: ({ context }) => context.phone.trim() === '',
    refused: (_, params: { envelope: Envelope<unknown> }) => !isOk(params.envelope),
  },
}).createMachine({
  id: 'cardGift',
  context: ({ input }) => ({ ...input, phone: '', missing: false }),
  initial: 'idle',
  states: {
    idle: {
      description: 'The card page: "give as a gift" when the server offers it, else its reason (used, received as a gift, its type).',
      on: { 'gift.open': { guard: 'offered', target: 'asking', actions: 'freshForm' } },
    },
    asking: {
      tags: ['editing'],
      description:
        'The form: the friend\'s phone and "confirm"; confirming without a phone says so and sends nothing; a refusal from the server is said in the form; "cancel" closes it.',
      on: {
        'phone.change': { target: 'asking', actions: { type: 'keepPhone', params: ({ event }) => ({ phone: event.phone }) } },
        'gift.submit': [
          { guard: 'noPhone', target: 'asking', actions: 'sayMissing' },
          { target: 'giving', actions: 'newIntent' },
        ],
        'form.close': 'idle',
      },
    },
    giving: {
      tags: ['editing', 'busy'],
      description: 'The gift was sent: the form says it is working and cannot be sent again.',
      invoke: {
        id: 'giveCard',
        src: 'giveCard',
        input: ({ context }) => ({ id: context.cardId, phone: context.phone.trim(), idempotencyKey: context.idempotencyKey! }),
        onDone: [
          {
            guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) },
            target: 'asking',
            actions: { type: 'keepCode', params: ({ event }) => ({ code: event.output.code }) },
          },
          { target: 'given', actions: { type: 'keepGift', params: ({ event }) => ({ gift: event.output.data }) } },
        ],
        onError: 'unreachable',
      },
    },
    given: {
      description: "Given: the page says to whom (masked) and that the card has left the member's cards, with a way back to them.",
      type: 'final',
    },
    unreachable: {
      tags: ['unreachable'],
      description: 'The gift did not reach the server: the member can retry it (with the same request, so it is given once) or close.',
      on: { 'network.retry': 'giving', 'form.close': 'idle' },
    },
  },
});
