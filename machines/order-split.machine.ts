import { assign, fromPromise, setup } from 'xstate';
import type { OrderDetail, OrderPart, SplitBody } from '../src/api/orders';
import type { Envelope } from '../src/domain/envelope';
import { isOk } from '../src/domain/envelope';
import { newIntentKey } from '../src/domain/intent-key';
import { equalSplit, MIN_SPLIT_PARTS, parseYuan, splitProblems, yuanText } from '../src/domain/split';
import { LIVE_PART_STATES } from './domain/payment-part-transitions';

export interface SplitOrderInput {
  orderNo: string;
}

export interface SplitOrderContext extends SplitOrderInput {
  /** the order as the server last answered it, with its parts and the actions it offers */
  order?: OrderDetail;
  /** each part's amount in yuan as the form shows it (typed, or proposed: equal parts) */
  texts: string[];
  /** one per intent (the member's split, or undo confirmed), reused by its retries */
  idempotencyKey?: string;
  /** the server's refusal (spec §8: 40014 cancelled, 40015 already split, 40002 being paid …) and the field it named */
  errorCode?: number;
  errorField?: string;
}

export type SplitOrderEvent =
  | { type: 'count.change'; count: number }
  | { type: 'part.change'; index: number; text: string }
  | { type: 'split.submit' }
  | { type: 'unsplit.ask' }
  | { type: 'confirm.accept' }
  | { type: 'confirm.dismiss' }
  | { type: 'network.retry' };

/** The shares that make up a split order now (the balance deduction and dropped or given-back parts are not). */
export const liveShares = (parts: readonly OrderPart[]): OrderPart[] =>
  parts.filter((p) => p.kind === 'share' && LIVE_PART_STATES.includes(p.state));

/** The form's amounts as cents (null: not an amount) against the order's amount to pay. */
const problemsOf = (c: SplitOrderContext) => splitProblems(c.order?.amountToPayCents ?? 0, c.texts.map(parseYuan));
const proposal = (order: OrderDetail, count: number) => equalSplit(order.amountToPayCents, count).map(yuanText);

/**
 * Splitting one of my unpaid orders to pay it in parts (/orderdetail/splittopay; spec §4 "orders can
 * be split (max 10)", §5 "split amount below payment amount and order total", §8, §9; decision 021):
 * the order is read; one the server offers to split opens the form (2 parts, equal, the odd cents on
 * the first; 2 to 10 parts, each amount editable in yuan), checked as the server checks it and sent
 * once per intent under an Idempotency-Key; a split order shows its parts, each paid on its own (the
 * order's pay page for that part) or by a friend, and can be undone after a confirm (paid parts go
 * back to their payers). A refusal says the server's reason and reads the order again; a lost answer
 * offers a retry under the same key.
 * Effects are provided: actors loadOrder, splitOrder, unsplitOrder; action tellUnsplit (a toast).
 * Tags say what the page shows: `loading` the placeholder, `editing` the form, `parts` the split
 * order's parts, `busy` a request in flight (its button says it is working), `unreachable` a retry.
 */
export const orderSplitMachine = setup({
  types: {
    context: {} as SplitOrderContext,
    events: {} as SplitOrderEvent,
    input: {} as SplitOrderInput,
    tags: {} as 'loading' | 'busy' | 'unreachable' | 'editing' | 'parts',
  },
  actors: {
    loadOrder: fromPromise<Envelope<OrderDetail>, { orderNo: string }>(async () => {
      throw new Error('loadOrder is provided by the app');
    }),
    splitOrder: fromPromise<Envelope<OrderDetail>, SplitBody & { idempotencyKey: string }>(async () => {
      throw new Error('splitOrder is provided by the app');
    }),
    unsplitOrder: fromPromise<Envelope<OrderDetail>, { orderNo: string; idempotencyKey: string }>(async () => {
      throw new Error('unsplitOrder is provided by the app');
    }),
  },
  actions: {
    keepOrder: assign({ order: (_, p: { order: OrderDetail }) => p.order }),
    freshParts: assign({ texts: ({ context }) => proposal(context.order!, MIN_SPLIT_PARTS) }),
    setCount: assign({ texts: ({ context }, p: { count: number }) => proposal(context.order!, p.count) }),
    setPart: assign({
      texts: ({ context }, p: { index: number; text: string }) => context.texts.map((t, i) => (i === p.index ? p.text : t)),
    }),
    newIntent: assign({ idempotencyKey: () => newIntentKey(), errorCode: undefined, errorField: undefined }),
    keepRefusal: assign((_, p: { envelope: Envelope<unknown> }) => ({ errorCode: p.envelope.code, errorField: p.envelope.field })),
    tellUnsplit: () => {},
  },
  guards: {
    refused: (_, p: { envelope: Envelope<unknown> }) => !isOk(p.envelope),
    isSplit: (_, p: { order: OrderDetail }) => liveShares(p.order.parts).length > 1,
    offersSplit: (_, p: { order: OrderDetail }) => p.order.actions.includes('split'),
    partsValid: ({ context }) => problemsOf(context).length === 0,
    offersUnsplit: ({ context }) => context.order?.actions.includes('unsplit') === true,
  },
}).createMachine({
  id: 'orderSplit',
  context: ({ input }) => ({ orderNo: input.orderNo, texts: [] }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading', 'busy'],
      description: 'The order is being read: the page shows a placeholder.',
      invoke: {
        id: 'loadOrder',
        src: 'loadOrder',
        input: ({ context }) => ({ orderNo: context.orderNo }),
        onDone: [
          { guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) }, target: 'missing' },
          {
            guard: { type: 'isSplit', params: ({ event }) => ({ order: event.output.data }) },
            target: 'split',
            actions: { type: 'keepOrder', params: ({ event }) => ({ order: event.output.data }) },
          },
          {
            guard: { type: 'offersSplit', params: ({ event }) => ({ order: event.output.data }) },
            target: 'editing',
            actions: [{ type: 'keepOrder', params: ({ event }) => ({ order: event.output.data }) }, 'freshParts'],
          },
          { target: 'notSplittable', actions: { type: 'keepOrder', params: ({ event }) => ({ order: event.output.data }) } },
        ],
        onError: 'loadUnreachable',
      },
    },
    loadUnreachable: {
      tags: ['unreachable'],
      description: 'The order could not be read: "network unreachable" with a retry.',
      on: { 'network.retry': 'loading' },
    },
    missing: {
      description: 'No such order of this member: "this order could not be found", with a way to the purchase history.',
      type: 'final',
    },
    notSplittable: {
      description:
        'The order cannot be split now (paid, cancelled, being paid, or nothing left to divide): its state, and the way back to the order.',
      type: 'final',
    },
    editing: {
      tags: ['editing'],
      description:
        'The form: the amount left to pay, how many parts (2 to 10; a new count proposes equal parts, the odd cents on the first), each part\'s amount in yuan; a wrong part is named, and the total against the amount to pay; "split" is offered only when every rule holds.',
      on: {
        'count.change': { target: 'editing', actions: { type: 'setCount', params: ({ event }) => ({ count: event.count }) } },
        'part.change': {
          target: 'editing',
          actions: { type: 'setPart', params: ({ event }) => ({ index: event.index, text: event.text }) },
        },
        'split.submit': { guard: 'partsValid', target: 'splitting', actions: 'newIntent' },
      },
    },
    splitting: {
      tags: ['editing', 'busy'],
      description: 'The split was sent: the button says it is splitting and cannot be tapped again; the form waits.',
      invoke: {
        id: 'splitOrder',
        src: 'splitOrder',
        input: ({ context }) => ({
          orderNo: context.orderNo,
          parts: context.texts.map((t) => parseYuan(t)!),
          idempotencyKey: context.idempotencyKey!,
        }),
        onDone: [
          {
            guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) },
            target: 'refused',
            actions: { type: 'keepRefusal', params: ({ event }) => ({ envelope: event.output }) },
          },
          { target: 'split', actions: { type: 'keepOrder', params: ({ event }) => ({ order: event.output.data }) } },
        ],
        onError: 'splitUnreachable',
      },
    },
    splitUnreachable: {
      tags: ['editing', 'unreachable'],
      description: 'The split did not reach the server: retry (the same request, so the order is split once) or close to the form.',
      on: { 'network.retry': 'splitting', 'confirm.dismiss': 'editing' },
    },
    refused: {
      description:
        'The server refused (the order was split, paid or cancelled on another phone, or a part is wrong): its reason; closing it reads the order again.',
      on: { 'confirm.dismiss': 'loading' },
    },
    split: {
      tags: ['parts'],
      description:
        'The order is split: each part with its amount and state (paid, and how, or to pay); a part to pay offers "pay" (the order\'s pay page for that part) and "ask a friend"; while the order can be paid, "undo the split".',
      on: { 'unsplit.ask': { guard: 'offersUnsplit', target: 'confirmingUnsplit' } },
    },
    confirmingUnsplit: {
      tags: ['parts'],
      description: 'A confirm asks whether to undo the split, saying that parts already paid go back to their payers; nothing is sent yet.',
      on: { 'confirm.accept': { target: 'unsplitting', actions: 'newIntent' }, 'confirm.dismiss': 'split' },
    },
    unsplitting: {
      tags: ['parts', 'busy'],
      description: 'The undo was sent: the parts stay shown and "undo" says it is working.',
      invoke: {
        id: 'unsplitOrder',
        src: 'unsplitOrder',
        input: ({ context }) => ({ orderNo: context.orderNo, idempotencyKey: context.idempotencyKey! }),
        onDone: [
          {
            guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) },
            target: 'refused',
            actions: { type: 'keepRefusal', params: ({ event }) => ({ envelope: event.output }) },
          },
          {
            target: 'editing',
            actions: [{ type: 'keepOrder', params: ({ event }) => ({ order: event.output.data }) }, 'freshParts', 'tellUnsplit'],
          },
        ],
        onError: 'unsplitUnreachable',
      },
    },
    unsplitUnreachable: {
      tags: ['parts', 'unreachable'],
      description: 'The undo did not reach the server: retry (the same request, so it is undone once) or close to the parts.',
      on: { 'network.retry': 'unsplitting', 'confirm.dismiss': 'split' },
    },
  },
});
