import { assign, fromPromise, setup } from 'xstate';
import type { CardRefundQuote, MyCardRefund } from '../src/api/card-refunds';
import type { Envelope } from '../src/domain/envelope';
import { isOk } from '../src/domain/envelope';
import { newIntentKey } from '../src/domain/intent-key';

export interface CardRefundInput {
  cardId: number;
}

export interface CardRefundContext extends CardRefundInput {
  /** my latest request on the card as the server last said it (null: none) */
  request?: MyCardRefund | null;
  /** what the refund policy gives back now (the server's quote) */
  quote?: CardRefundQuote;
  /** why the server refuses a refund of the card now (the quote's refusal: 30043 bookings ahead, …) */
  quoteCode?: number;
  /** the refund policy agreed to (spec §5) */
  agreed: boolean;
  /** one per intent (the member's submit or cancel), reused by its retries */
  idempotencyKey?: string;
  /** the server's refusal of the request or of its cancel */
  errorCode?: number;
}

export type CardRefundEvent =
  | { type: 'policy.toggle' }
  | { type: 'refund.submit' }
  | { type: 'refund.cancel' }
  | { type: 'refund.again' }
  | { type: 'refund.refresh' }
  | { type: 'confirm.accept' }
  | { type: 'confirm.dismiss' }
  | { type: 'network.retry' }
  | { type: 'form.close' };

const isState = (c: CardRefundContext, state: MyCardRefund['state'], orderState?: MyCardRefund['orderState']) =>
  c.request?.state === state && (orderState === undefined || c.request.orderState === orderState);

/**
 * Asking for one of my cards to be refunded, and following the request (/mine/refund?id=; spec §4
 * refund, §5 "refund requires agreeing to the refund policy"; decisions 030, 031). My latest request
 * on the card is read first: without one (or after a cancelled one) the server's quote is read and the
 * refund policy shown with the amount it gives back; the member agrees and asks, under one
 * Idempotency-Key per intent. The request waits for staff (the member may cancel it); approved, the
 * money goes back (the order refunding → refund done, or refund failed with the provider's words);
 * rejected, with the staff's reason, the member may ask again. A refusal of the quote is said instead
 * of the policy's form. Effects are provided: actors loadRequest (my latest request, or throws),
 * quoteRefund, requestRefund and cancelRefund.
 * Tags say what the page shows: `loading` it says so, `busy` a request is in flight (its button says
 * it is working), `unreachable` a retry, `quote` the policy and the amount with "ask for the refund",
 * `pending` the request waiting for staff, `refresh` "look again".
 * `end` a state where the flow is over though the chart still answers there (rejected or failed, ask again or look again): the screen
 * offers the next thing to do (decision 103).
 */
export const refundRequestMachine = setup({
  types: {
    context: {} as CardRefundContext,
    events: {} as CardRefundEvent,
    input: {} as CardRefundInput,
    tags: {} as 'loading' | 'busy' | 'unreachable' | 'quote' | 'pending' | 'refresh' | 'end',
  },
  actors: {
    loadRequest: fromPromise<MyCardRefund | null, { cardId: number }>(async () => {
      throw new Error('loadRequest is provided by the app');
    }),
    quoteRefund: fromPromise<Envelope<CardRefundQuote>, { cardId: number }>(async () => {
      throw new Error('quoteRefund is provided by the app');
    }),
    requestRefund: fromPromise<Envelope<MyCardRefund>, { cardId: number; idempotencyKey: string }>(async () => {
      throw new Error('requestRefund is provided by the app');
    }),
    cancelRefund: fromPromise<Envelope<MyCardRefund>, { id: number; idempotencyKey: string }>(async () => {
      throw new Error('cancelRefund is provided by the app');
    }),
  },
  actions: {
    keepRequest: assign({ request: (_, p: { request: MyCardRefund | null }) => p.request }),
    keepQuote: assign({ quote: (_, p: { quote: CardRefundQuote }) => p.quote, quoteCode: undefined, agreed: false }),
    keepQuoteCode: assign({ quoteCode: (_, p: { code: number }) => p.code, quote: undefined }),
    toggle: assign({ agreed: ({ context }) => !context.agreed, errorCode: undefined }),
    newIntent: assign({ idempotencyKey: () => newIntentKey(), errorCode: undefined }),
    keepCode: assign({ errorCode: (_, p: { code: number }) => p.code }),
    forget: assign({ errorCode: undefined }),
  },
  guards: {
    agreed: ({ context }) => context.agreed,
    refused: (_, p: { envelope: Envelope<unknown> }) => !isOk(p.envelope),
    waiting: ({ context }) => isState(context, 'pending'),
    refundDone: ({ context }) => isState(context, 'approved', 'refunded'),
    refundFailed: ({ context }) => isState(context, 'approved', 'refund_failed'),
    approved: ({ context }) => isState(context, 'approved'),
    rejected: ({ context }) => isState(context, 'rejected'),
  },
}).createMachine({
  id: 'refundRequest',
  context: ({ input }) => ({ ...input, agreed: false }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading', 'busy'],
      description: 'My latest refund request on the card is being read: the page says it is loading.',
      invoke: {
        id: 'loadRequest',
        src: 'loadRequest',
        input: ({ context }) => ({ cardId: context.cardId }),
        onDone: { target: 'routing', actions: { type: 'keepRequest', params: ({ event }) => ({ request: event.output }) } },
        onError: 'readUnreachable',
      },
    },
    routing: {
      description:
        'Where the request is decides the page: waiting, money on its way, done, failed, rejected; none (or cancelled) reads the quote.',
      always: [
        { guard: 'waiting', target: 'waiting' },
        { guard: 'refundDone', target: 'done' },
        { guard: 'refundFailed', target: 'failed' },
        { guard: 'approved', target: 'running' },
        { guard: 'rejected', target: 'rejected' },
        { target: 'quoting' },
      ],
    },
    quoting: {
      tags: ['loading', 'busy'],
      description: 'What the refund policy gives back for the card now is being asked of the server: the page says it is loading.',
      invoke: {
        id: 'quoteRefund',
        src: 'quoteRefund',
        input: ({ context }) => ({ cardId: context.cardId }),
        onDone: [
          {
            guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) },
            target: 'unavailable',
            actions: { type: 'keepQuoteCode', params: ({ event }) => ({ code: event.output.code }) },
          },
          { target: 'policy', actions: { type: 'keepQuote', params: ({ event }) => ({ quote: event.output.data }) } },
        ],
        onError: 'readUnreachable',
      },
    },
    policy: {
      tags: ['quote'],
      description:
        'The refund policy and the amount it gives back (what was paid, the part left, the fee); "ask for the refund" is offered once the member agrees to the policy; a refusal from the server is said here.',
      on: {
        'policy.toggle': { target: 'policy', actions: 'toggle' },
        'refund.submit': { guard: 'agreed', target: 'confirmingRefund' },
      },
    },
    confirmingRefund: {
      tags: ['quote'],
      description:
        'A refund cannot be taken back once staff approve it: a confirm names the card and the amount the quote gives back (by the way it was paid); the member asks for it, or says not now and is back at the policy.',
      on: {
        'confirm.accept': { target: 'submitting', actions: 'newIntent' },
        'confirm.dismiss': 'policy',
      },
    },
    submitting: {
      tags: ['quote', 'busy'],
      description: 'The request was sent: the page says it is working and it cannot be sent again.',
      invoke: {
        id: 'requestRefund',
        src: 'requestRefund',
        input: ({ context }) => ({ cardId: context.cardId, idempotencyKey: context.idempotencyKey! }),
        onDone: [
          {
            guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) },
            target: 'policy',
            actions: { type: 'keepCode', params: ({ event }) => ({ code: event.output.code }) },
          },
          { target: 'waiting', actions: { type: 'keepRequest', params: ({ event }) => ({ request: event.output.data }) } },
        ],
        onError: 'submitUnreachable',
      },
    },
    submitUnreachable: {
      tags: ['quote', 'unreachable'],
      description: 'The request did not reach the server: retry (the same request, so it is made once), or close to the policy.',
      on: { 'network.retry': 'submitting', 'form.close': 'policy' },
    },
    waiting: {
      tags: ['pending', 'refresh'],
      description: 'The request waits for staff: the amount quoted; the member may cancel it, or look again.',
      on: {
        'refund.cancel': { target: 'cancelling', actions: 'newIntent' },
        'refund.refresh': { target: 'loading', actions: 'forget' },
      },
    },
    cancelling: {
      tags: ['pending', 'busy'],
      description: 'The cancel was sent: the page says it is working and it cannot be sent again.',
      invoke: {
        id: 'cancelRefund',
        src: 'cancelRefund',
        input: ({ context }) => ({ id: context.request!.id, idempotencyKey: context.idempotencyKey! }),
        onDone: [
          // staff decided first (30044): the request is read again and the refusal said
          {
            guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) },
            target: 'loading',
            actions: { type: 'keepCode', params: ({ event }) => ({ code: event.output.code }) },
          },
          { target: 'quoting', actions: { type: 'keepRequest', params: ({ event }) => ({ request: event.output.data }) } },
        ],
        onError: 'cancelUnreachable',
      },
    },
    cancelUnreachable: {
      tags: ['pending', 'unreachable'],
      description: 'The cancel did not reach the server: retry (the same request), or close to the waiting request.',
      on: { 'network.retry': 'cancelling', 'form.close': 'waiting' },
    },
    running: {
      tags: ['refresh'],
      description:
        'Approved: the amount is on its way back to whoever paid, the way they paid (the order refunding); the member may look again.',
      on: { 'refund.refresh': { target: 'loading', actions: 'forget' } },
    },
    failed: {
      tags: ['refresh', 'end'],
      description:
        'Approved, but the money did not go back (the order refund failed): the provider’s words, and that the club will handle it; the member may look again.',
      on: { 'refund.refresh': { target: 'loading', actions: 'forget' } },
    },
    done: { description: 'The money is back (refund done): the amount given back; the card is no longer valid.', type: 'final' },
    rejected: {
      tags: ['end'],
      description: 'Staff rejected the request with the reason shown; the member may ask again.',
      on: { 'refund.again': { target: 'quoting', actions: 'forget' } },
    },
    unavailable: { description: 'The card cannot be refunded now: the server’s reason is said; nothing can be asked.', type: 'final' },
    readUnreachable: {
      tags: ['unreachable'],
      description: 'The request or the quote could not be read: retry reads again.',
      on: { 'network.retry': 'loading' },
    },
  },
});
