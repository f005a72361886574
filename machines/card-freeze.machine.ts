import { assign, fromPromise, setup } from 'xstate';
import type { MemberCardDetail } from '../src/api/cards';
import type { CardStatus } from '../src/domain/booking-rules';
import type { Envelope } from '../src/domain/envelope';
import { isOk } from '../src/domain/envelope';
import { freezeDatesRefusal } from '../src/domain/card-rules';
import { newIntentKey } from '../src/domain/intent-key';
import { canApplyCard } from './domain/card-transitions';

export interface CardFreezeInput {
  cardId: number;
  /** today in Shanghai ("YYYY-MM-DD"): the first day a freeze may start, and the form's first day */
  today: string;
  /** the card as the page shows it: the card chart says which of freeze and unfreeze it offers */
  status: CardStatus;
  /** a freeze from a later day is stored (the card is still in use) */
  freezePlanned: boolean;
  /** the card's validity end (ISO instant), null for a card without one: a freeze starts before it */
  validUntil: string | null;
}

export interface CardFreezeContext extends CardFreezeInput {
  /** the dates in the form: the first and the last frozen day */
  from: string;
  until: string;
  /** one per intent (the member's submit or confirm), reused by its retries */
  idempotencyKey?: string;
  /** the server's refusal, e.g. 30005 a class booked during the freeze */
  errorCode?: number;
}

export type CardFreezeEvent =
  | { type: 'freeze.open' }
  | { type: 'dates.change'; from: string; until: string }
  | { type: 'freeze.submit' }
  | { type: 'form.close' }
  | { type: 'unfreeze.ask' }
  | { type: 'confirm.accept' }
  | { type: 'confirm.dismiss' }
  | { type: 'network.retry' };

/**
 * Freezing one of my cards and unfreezing it on its page (/mine/carddetail; spec §4 freeze and
 * unfreeze, §5 "freeze end not before start"; decision 024). Freeze: a form with the first and the
 * last frozen day (Shanghai dates), sent only once they keep the server's freeze rule (card-rules.ts), under one
 * Idempotency-Key per intent; frozen (or planned) and the card reloaded, or refused with the
 * server's code said in the form (the dates can be changed), or unreachable with retry. Unfreeze (or
 * calling off a planned freeze): a confirm, then the same. Which of the two the card offers is the
 * card chart's answer (machines/domain/card.machine.ts) for its status and plan, kept from the
 * server's answers. Effects are provided: actors freezeCard and unfreezeCard; actions cardChanged (the
 * page reloads its data), sayFrozen, sayUnfrozen and sayRefused (what the member reads).
 * Tags, as on the other card charts, say what the page shows: `editing` the form is open, `busy` a
 * request is in flight (its button says it is working), `unreachable` the retry.
 */
export const cardFreezeMachine = setup({
  types: {
    context: {} as CardFreezeContext,
    events: {} as CardFreezeEvent,
    input: {} as CardFreezeInput,
    tags: {} as 'editing' | 'busy' | 'unreachable',
  },
  actors: {
    freezeCard: fromPromise<Envelope<MemberCardDetail>, { id: number; from: string; until: string; idempotencyKey: string }>(async () => {
      throw new Error('freezeCard is provided by the app');
    }),
    unfreezeCard: fromPromise<Envelope<MemberCardDetail>, { id: number; idempotencyKey: string }>(async () => {
      throw new Error('unfreezeCard is provided by the app');
    }),
  },
  actions: {
    newIntent: assign({ idempotencyKey: () => newIntentKey(), errorCode: undefined }),
    freshForm: assign(({ context }) => ({ from: context.today, until: context.today, errorCode: undefined })),
    setDates: assign({
      from: (_, p: { from: string; until: string }) => p.from,
      until: (_, p: { from: string; until: string }) => p.until,
      errorCode: undefined,
    }),
    keepCode: assign({ errorCode: (_, params: { code: number }) => params.code }),
    keepCard: assign({
      status: (_, p: { card: MemberCardDetail }) => p.card.status,
      freezePlanned: (_, p: { card: MemberCardDetail }) => p.card.status === 'in_use' && p.card.frozenFrom !== null,
    }),
    cardChanged: () => {},
    sayFrozen: (_, _params: { planned: boolean }) => {},
    sayUnfrozen: (_, _params: { calledOff: boolean }) => {},
    sayRefused: (_, _params: { code: number }) => {},
  },
  guards: {
    freezable: ({ context }) => canApplyCard(context.status, 'card.freeze', { freezePlanned: context.freezePlanned }),
    unfreezable: ({ context }) => canApplyCard(context.status, 'card.unfreeze', { freezePlanned: context.freezePlanned }),
    // the server's own rule (start, order, longest freeze, validity), so the form never sends dates it refuses
    datesAllowed: ({ context }) =>
      freezeDatesRefusal(
        { from: context.from, until: context.until },
        context.today,
        context.validUntil === null ? null : new Date(context.validUntil),
      ) === null,
    refused: (_, params: { envelope: Envelope<unknown> }) => !isOk(params.envelope),
  },
}).createMachine({
  id: 'cardFreeze',
  context: ({ input }) => ({ ...input, from: input.today, until: input.today }),
  initial: 'idle',
  states: {
    idle: {
      description:
        'The card page: a card in use without a freeze offers "freeze"; a frozen card offers "unfreeze" and one with a freeze planned "call off the freeze", with its dates; otherwise the reason the server gives is shown instead. After a change the card shows as the server has it now.',
      on: {
        'freeze.open': { guard: 'freezable', target: 'editing', actions: 'freshForm' },
        'unfreeze.ask': { guard: 'unfreezable', target: 'confirmingUnfreeze' },
      },
    },
    editing: {
      tags: ['editing'],
      description:
        'The freeze form is open: the first and the last frozen day (the pickers offer only the days the freeze rule allows: from today to the card\'s last valid day, at most the longest freeze), how the end date moves, and "freeze" (not offered while the dates break the rule, whose message is said at the date); a refusal from the server is said in the form and the dates can be changed; "cancel" closes it.',
      on: {
        'dates.change': {
          target: 'editing',
          actions: { type: 'setDates', params: ({ event }) => ({ from: event.from, until: event.until }) },
        },
        'freeze.submit': { guard: 'datesAllowed', target: 'freezing', actions: 'newIntent' },
        'form.close': 'idle',
      },
    },
    freezing: {
      tags: ['editing', 'busy'],
      description: 'The freeze was sent: the form says it is working and cannot be sent again.',
      invoke: {
        id: 'freezeCard',
        src: 'freezeCard',
        input: ({ context }) => ({ id: context.cardId, from: context.from, until: context.until, idempotencyKey: context.idempotencyKey! }),
        onDone: [
          {
            guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) },
            target: 'editing',
            actions: { type: 'keepCode', params: ({ event }) => ({ code: event.output.code }) },
          },
          {
            target: 'idle',
            actions: [
              { type: 'keepCard', params: ({ event }) => ({ card: event.output.data }) },
              'cardChanged',
              { type: 'sayFrozen', params: ({ event }) => ({ planned: event.output.data.status === 'in_use' }) },
            ],
          },
        ],
        onError: 'freezeUnreachable',
      },
    },
    freezeUnreachable: {
      tags: ['unreachable'],
      description: 'The freeze did not reach the server: the member can retry (the same request, so the card is frozen once) or close.',
      on: { 'network.retry': 'freezing', 'confirm.dismiss': 'idle' },
    },
    confirmingUnfreeze: {
      description:
        'A confirm asks whether to unfreeze the card now (the days not frozen come off its end date), or to call off the planned freeze: the member accepts or says not now.',
      on: {
        'confirm.accept': { target: 'unfreezing', actions: 'newIntent' },
        'confirm.dismiss': 'idle',
      },
    },
    unfreezing: {
      tags: ['busy'],
      description: 'The unfreeze was sent: its button says it is working and cannot be tapped again.',
      invoke: {
        id: 'unfreezeCard',
        src: 'unfreezeCard',
        input: ({ context }) => ({ id: context.cardId, idempotencyKey: context.idempotencyKey! }),
        onDone: [
          // refused (unfrozen on another phone, or its freeze ended): the reason is said and the card
          // reloaded (the page then starts this flow again from the card as it is now)
          {
            guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) },
            target: 'idle',
            actions: [
              { type: 'keepCode', params: ({ event }) => ({ code: event.output.code }) },
              'cardChanged',
              { type: 'sayRefused', params: ({ event }) => ({ code: event.output.code }) },
            ],
          },
          {
            target: 'idle',
            actions: [
              { type: 'sayUnfrozen', params: ({ context }) => ({ calledOff: context.status === 'in_use' }) },
              { type: 'keepCard', params: ({ event }) => ({ card: event.output.data }) },
              'cardChanged',
            ],
          },
        ],
        onError: 'unfreezeUnreachable',
      },
    },
    unfreezeUnreachable: {
      tags: ['unreachable'],
      description: 'The unfreeze did not reach the server: the member can retry (the same request) or close.',
      on: { 'network.retry': 'unfreezing', 'confirm.dismiss': 'idle' },
    },
  },
});
