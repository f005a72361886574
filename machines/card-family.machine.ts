import { assign, fromPromise, setup } from 'xstate';
import type { CardFamily } from '../src/api/cards';
import type { Envelope } from '../src/domain/envelope';
import { isOk } from '../src/domain/envelope';
import { newIntentKey } from '../src/domain/intent-key';

export interface CardFamilyInput {
  cardId: number;
  /** the server offers family sharing on this card now (a family main card that has not ended) */
  offered: boolean;
}

/** What failed to reach the server, for retry. */
export type FamilyFailed = 'load' | 'add' | 'remove';

export interface CardFamilyContext extends CardFamilyInput {
  /** the card's places and sub-card holders, as the server last answered */
  family?: CardFamily;
  /** the new sub-card holder's phone as typed */
  phone: string;
  /** asked to add without a phone */
  missing: boolean;
  /** the sub card being removed */
  subId?: number;
  failed?: FamilyFailed;
  /** one per intent (an add or a remove), reused by its retry */
  idempotencyKey?: string;
  /** the server's refusal, e.g. 30051 no place left, 30054 bookings ahead */
  errorCode?: number;
}

export type CardFamilyEvent =
  | { type: 'family.open' }
  | { type: 'phone.change'; phone: string }
  | { type: 'family.add' }
  | { type: 'family.remove'; subId: number }
  | { type: 'form.close' }
  | { type: 'network.retry' };

/**
 * Managing a family main card's sub cards on its page (/mine/carddetail; decision 040):
 * when the server offers it, the sharing is read (the places and the sub-card holders, masked); the
 * holder adds a member by phone (without a phone the form says so and sends nothing) or removes one;
 * each is sent under one Idempotency-Key per intent: done (the list as the server answers it, the
 * card reloaded so its timeline shows it), refused with the server's code said in the form, or
 * unreachable with a retry of what failed (the change under the same key).
 * Effects are provided: actors loadFamily, addSub and removeSub; actions cardChanged.
 * Tags, as on the other card charts, say what the page shows: `editing` the form is open, `busy` a
 * request is in flight (its button says it is working), `loading` the form's data is being read (the
 * page says so instead of the form), `unreachable` the retry.
 */
export const cardFamilyMachine = setup({
  types: {
    context: {} as CardFamilyContext,
    events: {} as CardFamilyEvent,
    input: {} as CardFamilyInput,

    tags: {} as 'editing' | 'busy' | 'loading' | 'unreachable',
  },
  actors: {
    loadFamily: fromPromise<CardFamily, { id: number }>(async () => {
      throw new Error('loadFamily is provided by the app');
    }),
    addSub: fromPromise<Envelope<CardFamily>, { id: number; phone: string; idempotencyKey: string }>(async () => {
      throw new Error('addSub is provided by the app');
    }),
    removeSub: fromPromise<Envelope<CardFamily>, { id: number; subId: number; idempotencyKey: string }>(async () => {
      throw new Error('removeSub is provided by the app');
    }),
  },
  actions: {
    freshForm: assign({ phone: '', missing: false, errorCode: undefined, failed: undefined, subId: undefined }),
    keepFamily: assign({ family: (_, p: { family: CardFamily }) => p.family }),
    keepPhone: assign({ phone: (_, p: { phone: string }) => p.phone, missing: false }),
    sayMissing: assign({ missing: true, errorCode: undefined }),
    newIntent: assign({ idempotencyKey: () => newIntentKey(), errorCode: undefined, missing: false }),
    keepSubId: assign({ subId: (_, p: { subId: number }) => p.subId }),
    failedAt: assign({ failed: (_, p: { what: FamilyFailed }) => p.what }),
    keepCode: assign({ errorCode: (_, p: { code: number }) => p.code }),
    cardChanged: () => {},
  },
  guards: {
    offered: ({ context }) => context.offered,
    noPhone: ({ context }) => context.phone.trim() === '',
    failedAt: ({ context }, p: { what: FamilyFailed }) => context.failed === p.what,
    refused: (_, params: { envelope: Envelope<unknown> }) => !isOk(params.envelope),
  },
}).createMachine({
  id: 'cardFamily',
  context: ({ input }) => ({ ...input, phone: '', missing: false }),
  initial: 'idle',
  states: {
    idle: {
      description:
        'The card page: "family sub cards" when the server offers it (a family main card), else its reason; the timeline shows each holder added or removed.',
      on: { 'family.open': { guard: 'offered', target: 'loading', actions: 'freshForm' } },
    },
    loading: {
      tags: ['busy', 'loading'],
      description: "The card's sharing is being read: the page says it is loading.",
      invoke: {
        id: 'loadFamily',
        src: 'loadFamily',
        input: ({ context }) => ({ id: context.cardId }),
        onDone: { target: 'managing', actions: { type: 'keepFamily', params: ({ event }) => ({ family: event.output }) } },
        onError: { target: 'unreachable', actions: { type: 'failedAt', params: { what: 'load' } } },
      },
    },
    managing: {
      tags: ['editing'],
      description:
        'The sub-card holders (masked) with "remove" each, the places used, and a phone to add one while a place is free; adding without a phone says so and sends nothing; a refusal is said; "close" closes it.',
      on: {
        'phone.change': { target: 'managing', actions: { type: 'keepPhone', params: ({ event }) => ({ phone: event.phone }) } },
        'family.add': [
          { guard: 'noPhone', target: 'managing', actions: 'sayMissing' },
          { target: 'adding', actions: 'newIntent' },
        ],
        'family.remove': {
          target: 'removing',
          actions: ['newIntent', { type: 'keepSubId', params: ({ event }) => ({ subId: event.subId }) }],
        },
        'form.close': 'idle',
      },
    },
    adding: {
      tags: ['editing', 'busy'],
      description: 'The add was sent: the form says it is working and nothing else can be sent.',
      invoke: {
        id: 'addSub',
        src: 'addSub',
        input: ({ context }) => ({ id: context.cardId, phone: context.phone.trim(), idempotencyKey: context.idempotencyKey! }),
        onDone: [
          {
            guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) },
            target: 'managing',
            actions: { type: 'keepCode', params: ({ event }) => ({ code: event.output.code }) },
          },
          { target: 'managing', actions: [{ type: 'keepFamily', params: ({ event }) => ({ family: event.output.data }) }, 'cardChanged'] },
        ],
        onError: { target: 'unreachable', actions: { type: 'failedAt', params: { what: 'add' } } },
      },
    },
    removing: {
      tags: ['editing', 'busy'],
      description: 'The removal was sent: the holder being removed says it is working and nothing else can be sent.',
      invoke: {
        id: 'removeSub',
        src: 'removeSub',
        input: ({ context }) => ({ id: context.cardId, subId: context.subId!, idempotencyKey: context.idempotencyKey! }),
        onDone: [
          {
            guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) },
            target: 'managing',
            actions: { type: 'keepCode', params: ({ event }) => ({ code: event.output.code }) },
          },
          { target: 'managing', actions: [{ type: 'keepFamily', params: ({ event }) => ({ family: event.output.data }) }, 'cardChanged'] },
        ],
        onError: { target: 'unreachable', actions: { type: 'failedAt', params: { what: 'remove' } } },
      },
    },
    unreachable: {
      tags: ['unreachable'],
      description:
        'A read or a change did not reach the server: the member can retry it (a change with the same request, so it is made once) or close.',
      on: {
        'network.retry': [
          { guard: { type: 'failedAt', params: { what: 'load' } }, target: 'loading' },
          { guard: { type: 'failedAt', params: { what: 'add' } }, target: 'adding' },
          { target: 'removing' },
        ],
        'form.close': 'idle',
      },
    },
  },
});
