import { assign, fromPromise, setup } from 'xstate';
import type { MemberCardDetail } from '../src/api/cards';
import type { CardStatus } from '../src/domain/booking-rules';
import { lastValidDay, addDays } from '../src/domain/time';
import type { Envelope } from '../src/domain/envelope';
import { isOk } from '../src/domain/envelope';
import { newIntentKey } from '../src/domain/intent-key';
import { extensionDateRefusal } from '../src/domain/card-rules';
import { canApplyCard } from './domain/card-transitions';

export interface CardExtendInput {
  cardId: number;
  /** the card as the page shows it: the card chart says whether it may be extended (in use or expired) */
  status: CardStatus;
  /** the card's last valid day now (Shanghai, "YYYY-MM-DD") */
  currentEnd: string;
  /** how many days one extension of its type may add (the form's first proposal, and its bound) */
  maxDays: number;
  /** today in Shanghai ("YYYY-MM-DD"): an expired card is extended to today at the earliest */
  today: string;
}

export interface CardExtendContext extends CardExtendInput {
  /** the new last valid day in the form */
  until: string;
  /** one per intent (the member's submit), reused by its retries */
  idempotencyKey?: string;
  /** the server's refusal, e.g. 30023 more days than the card type allows */
  errorCode?: number;
}

export type CardExtendEvent =
  | { type: 'extend.open' }
  | { type: 'date.change'; until: string }
  | { type: 'extend.submit' }
  | { type: 'form.close' }
  | { type: 'network.retry' };

/**
 * Extending one of my cards on its page (/mine/carddetail; spec §4 extend "only when in use or
 * expired", §5 "extension date later than end"; decision 024): a form with the new last valid day
 * (the most the card type allows, by default), sent only once it keeps the type's rule (card-rules.ts), under one
 * Idempotency-Key per intent; extended (an expired card is in use again) and the card reloaded, or
 * refused with the server's code said in the form, or unreachable with retry. Whether the card offers
 * it is the card chart's answer, with the card type's rule as the server says it (its offers).
 * Effects are provided: actor extendCard; actions cardChanged and sayExtended.
 * Tags, as on the other card charts, say what the page shows: `editing` the form is open, `busy` a
 * request is in flight (its button says it is working), `unreachable` the retry.
 */
export const cardExtendMachine = setup({
  types: {
    context: {} as CardExtendContext,
    events: {} as CardExtendEvent,
    input: {} as CardExtendInput,

    tags: {} as 'editing' | 'busy' | 'unreachable',
  },
  actors: {
    extendCard: fromPromise<Envelope<MemberCardDetail>, { id: number; until: string; idempotencyKey: string }>(async () => {
      throw new Error('extendCard is provided by the app');
    }),
  },
  actions: {
    newIntent: assign({ idempotencyKey: () => newIntentKey(), errorCode: undefined }),
    freshForm: assign(({ context }) => ({ until: addDays(context.currentEnd, context.maxDays), errorCode: undefined })),
    setDate: assign({ until: (_, p: { until: string }) => p.until, errorCode: undefined }),
    keepCode: assign({ errorCode: (_, params: { code: number }) => params.code }),
    keepCard: assign({
      status: (_, p: { card: MemberCardDetail }) => p.card.status,
      currentEnd: ({ context }, p: { card: MemberCardDetail }) =>
        p.card.validUntil ? lastValidDay(new Date(p.card.validUntil)) : context.currentEnd,
    }),
    cardChanged: () => {},
    sayExtended: () => {},
  },
  guards: {
    extendable: ({ context }) => canApplyCard(context.status, 'card.extend'),
    // the server's own rule for the day (later than the end, not past, within the type's days)
    dateAllowed: ({ context }) => extensionDateRefusal(context.currentEnd, context.maxDays, context.until, context.today) === null,
    refused: (_, params: { envelope: Envelope<unknown> }) => !isOk(params.envelope),
  },
}).createMachine({
  id: 'cardExtend',
  context: ({ input }) => ({ ...input, until: addDays(input.currentEnd, input.maxDays) }),
  initial: 'idle',
  states: {
    idle: {
      description:
        'The card page: a card in use or expired whose type may still be extended offers "extend", with the times used and the days each may add; otherwise the reason the server gives is shown. After an extension the card shows its new end date and extension count.',
      on: { 'extend.open': { guard: 'extendable', target: 'editing', actions: 'freshForm' } },
    },
    editing: {
      tags: ['editing'],
      description:
        'The extension form is open: the new last valid day (the most the card type allows, by default), the current end, and "extend" (not offered while the day breaks the type\'s rule: later than the current end, at most its days after it; the picker offers only those days and the rule\'s message is said at the date); a refusal from the server is said in the form and the day can be changed; "cancel" closes it.',
      on: {
        'date.change': { target: 'editing', actions: { type: 'setDate', params: ({ event }) => ({ until: event.until }) } },
        'extend.submit': { guard: 'dateAllowed', target: 'extending', actions: 'newIntent' },
        'form.close': 'idle',
      },
    },
    extending: {
      tags: ['editing', 'busy'],
      description: 'The extension was sent: the form says it is working and cannot be sent again.',
      invoke: {
        id: 'extendCard',
        src: 'extendCard',
        input: ({ context }) => ({ id: context.cardId, until: context.until, idempotencyKey: context.idempotencyKey! }),
        onDone: [
          {
            guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) },
            target: 'editing',
            actions: { type: 'keepCode', params: ({ event }) => ({ code: event.output.code }) },
          },
          {
            target: 'idle',
            actions: [{ type: 'keepCard', params: ({ event }) => ({ card: event.output.data }) }, 'cardChanged', 'sayExtended'],
          },
        ],
        onError: 'unreachable',
      },
    },
    unreachable: {
      tags: ['unreachable'],
      description:
        'The extension did not reach the server: the member can retry (the same request, so the card is extended once) or close.',
      on: { 'network.retry': 'extending', 'form.close': 'idle' },
    },
  },
});
