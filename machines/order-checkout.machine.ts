import { assign, fromPromise, setup } from 'xstate';
import type { GoodsDetail } from '../src/api/catalog-goods';
import type { CheckoutBody, CreateOrderBody, Order, Quote } from '../src/api/orders';
import type { Envelope } from '../src/domain/envelope';
import { isOk } from '../src/domain/envelope';
import { choiceMade, requiredChoice } from '../src/domain/goods-choice';
import { defaultPayMethod, type PayMethod } from '../src/domain/orders';
import { paymentOrderMachine } from './payment-order.machine';
import { newIntentKey } from '../src/domain/intent-key';

/** Catalogue codes the chart branches on (src/domain/errors.ts; plain numbers so the chart loads without Lingui). */
const LOGIN_EXPIRED = 401;
const UNPAID_ORDER_EXISTS = 40001;
const PRICE_CHANGED = 40010;
const GOODS_OFF_SHELF = 50002;

export interface CheckoutInput {
  signedIn: boolean;
  /** the methods this server offers (GET /pay/methods), in the order to show them */
  methods: PayMethod[];
  /** a new purchase: /agreement/payagreement?id=&phaseId=&teacherId= */
  goodsId: number;
  phaseId?: number;
  teacherId?: number;
}

export interface CheckoutContext {
  signedIn: boolean;
  methods: PayMethod[];
  goodsId: number;
  phaseId?: number;
  teacherId?: number;
  goods?: GoodsDetail;
  /** the server's price of the current choice (coupon, balance): the only numbers shown */
  quote?: Quote;
  couponId?: number;
  useBalance: boolean;
  agreed: boolean;
  method?: PayMethod;
  /** one per order attempt (the member's pay tap), reused by its retries: a double tap creates one order */
  createKey?: string;
  /** the order made: paid by the pay-order chart */
  order?: Order;
  /** the refusal's catalogue code (spec §8), shown translated */
  errorCode?: number;
  /** the goods' own reason when it cannot be bought (off shelf, sold out) */
  errorMessage?: string | null;
  /** the unpaid order that blocks a new one (40001), when found */
  unpaidOrderNo?: string;
}

export type CheckoutEvent =
  | { type: 'option.choose'; phaseId?: number; teacherId?: number }
  | { type: 'coupon.choose'; couponId?: number }
  | { type: 'balance.toggle' }
  | { type: 'agreement.toggle' }
  | { type: 'method.choose'; method: PayMethod }
  | { type: 'checkout.submit' }
  | { type: 'checkout.retry' };

type Env = Envelope<unknown>;

/**
 * Buying one goods item (/agreement/payagreement): the member must be logged in; the goods
 * are loaded and, when needed, a phase or teacher is chosen; the server prices the choice with a
 * coupon and the balance; the member agrees to the purchase agreement, chooses how to pay and taps
 * pay; the order is created with one Idempotency-Key per attempt (reused on retry). The order made is
 * then paid by the pay-order chart (payment-order.machine.ts), invoked as `pay`, with the way chosen here.
 * Effects are provided: actors loadGoods, quote, createOrder, findUnpaidOrder and payOrder (with its own).
 * Tags say what the page shows: `loginPage` the login page instead, `retryPage` only a retry, `busy` a
 * request in flight (the pay button says it is working), `editing` the form can be changed, `refused`
 * the server's reason beside it.
 */
export const orderCheckoutMachine = setup({
  types: {
    context: {} as CheckoutContext,
    events: {} as CheckoutEvent,
    input: {} as CheckoutInput,
    tags: {} as 'loginPage' | 'retryPage' | 'busy' | 'editing' | 'refused',
  },
  actors: {
    payOrder: paymentOrderMachine,
    loadGoods: fromPromise<Envelope<GoodsDetail>, { goodsId: number }>(async () => {
      throw new Error('loadGoods is provided by the app');
    }),
    quote: fromPromise<Envelope<Quote>, CheckoutBody>(async () => {
      throw new Error('quote is provided by the app');
    }),
    createOrder: fromPromise<Envelope<Order>, { body: CreateOrderBody; idempotencyKey: string }>(async () => {
      throw new Error('createOrder is provided by the app');
    }),
    findUnpaidOrder: fromPromise<string | null, void>(async () => {
      throw new Error('findUnpaidOrder is provided by the app');
    }),
  },
  actions: {
    keepGoods: assign((_, params: { goods: GoodsDetail }) => ({ goods: params.goods })),
    keepGoodsRefusal: assign((_, params: { envelope: Envelope<GoodsDetail> }) =>
      isOk(params.envelope)
        ? { errorCode: GOODS_OFF_SHELF, errorMessage: params.envelope.data.message }
        : { errorCode: params.envelope.code, errorMessage: null },
    ),
    chooseOption: assign(({ event }) =>
      event.type === 'option.choose'
        ? { phaseId: event.phaseId, teacherId: event.teacherId, couponId: undefined, errorCode: undefined }
        : {},
    ),
    chooseCoupon: assign({ couponId: ({ event }) => (event.type === 'coupon.choose' ? event.couponId : undefined), errorCode: undefined }),
    toggleBalance: assign({ useBalance: ({ context }) => !context.useBalance, errorCode: undefined }),
    toggleAgreement: assign({ agreed: ({ context }) => !context.agreed, errorCode: undefined }),
    chooseMethod: assign({
      method: ({ context, event }) => (event.type === 'method.choose' ? event.method : context.method),
      errorCode: undefined,
    }),
    keepQuote: assign((_, params: { quote: Quote }) => ({ quote: params.quote, couponId: params.quote.couponId ?? undefined })),
    keepCode: assign((_, params: { code: number }) => ({ errorCode: params.code })),
    newCreateKey: assign({ createKey: () => newIntentKey(), errorCode: undefined, unpaidOrderNo: undefined }),
    keepOrder: assign((_, params: { order: Order }) => ({ order: params.order })),
    keepUnpaidOrder: assign((_, params: { orderNo: string | null }) => ({ unpaidOrderNo: params.orderNo ?? undefined })),
  },
  guards: {
    signedOut: ({ context }) => !context.signedIn,
    loginExpired: (_, params: { envelope: Env }) => params.envelope.code === LOGIN_EXPIRED,
    refused: (_, params: { envelope: Env }) => !isOk(params.envelope),
    goodsNotBuyable: (_, params: { goods: GoodsDetail }) => !params.goods.isUable,
    choiceMissing: ({ context }, params: { goods: GoodsDetail }) =>
      requiredChoice(params.goods) !== null && !choiceMade(params.goods, { phaseId: context.phaseId, teacherId: context.teacherId }),
    notAgreed: ({ context }) => !context.agreed,
    unpaidOrderExists: (_, params: { envelope: Env }) => params.envelope.code === UNPAID_ORDER_EXISTS,
    priceChanged: (_, params: { envelope: Env }) => params.envelope.code === PRICE_CHANGED,
    repricedAfterChange: ({ context }) => context.errorCode === PRICE_CHANGED,
  },
}).createMachine({
  id: 'orderCheckout',
  context: ({ input }) => ({
    signedIn: input.signedIn,
    methods: input.methods,
    goodsId: input.goodsId,
    phaseId: input.phaseId,
    teacherId: input.teacherId,
    useBalance: false,
    agreed: false,
    method: defaultPayMethod(input.methods),
  }),
  initial: 'enteringCheckout',
  states: {
    enteringCheckout: {
      description: "Deciding where the checkout starts: a visitor logs in first, a member's goods are loaded.",
      always: [{ guard: 'signedOut', target: 'loginRequired' }, { target: 'loadingGoods' }],
    },
    /** a visitor (or an expired login): the screen sends them to /login/<this page> and back (spec §5) */
    loginRequired: {
      tags: ['loginPage'],
      description: 'A visitor or a lapsed login: the app goes to the login page and back to this page after.',
      type: 'final',
    },
    loadingGoods: {
      description: 'The goods are loading: a placeholder shows.',
      invoke: {
        id: 'loadGoods',
        src: 'loadGoods',
        input: ({ context }) => ({ goodsId: context.goodsId }),
        // the goods are public: a lapsed login reads them as a visitor would, and pricing asks to log in
        onDone: [
          {
            guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) },
            target: 'goodsUnavailable',
            actions: { type: 'keepGoodsRefusal', params: ({ event }) => ({ envelope: event.output }) },
          },
          {
            guard: { type: 'goodsNotBuyable', params: ({ event }) => ({ goods: event.output.data }) },
            target: 'goodsUnavailable',
            actions: [
              { type: 'keepGoods', params: ({ event }) => ({ goods: event.output.data }) },
              { type: 'keepGoodsRefusal', params: ({ event }) => ({ envelope: event.output }) },
            ],
          },
          {
            guard: { type: 'choiceMissing', params: ({ event }) => ({ goods: event.output.data }) },
            target: 'choosingOption',
            actions: { type: 'keepGoods', params: ({ event }) => ({ goods: event.output.data }) },
          },
          { target: 'pricing', actions: { type: 'keepGoods', params: ({ event }) => ({ goods: event.output.data }) } },
        ],
        onError: 'goodsUnreachable',
      },
    },
    goodsUnreachable: {
      tags: ['retryPage'],
      description: 'The goods could not be loaded: "network unreachable" with a retry.',
      on: { 'checkout.retry': 'loadingGoods' },
    },
    /** unknown, off shelf, sold out ("the hand speed is not fast enough"): nothing to buy here */
    goodsUnavailable: {
      description: 'Nothing to buy here (unknown, off the shelf, sold out): the reason and a way to the cards.',
      type: 'final',
    },
    /** a training course needs its phase, a private class its teacher (spec §5) */
    choosingOption: {
      description: 'A course needs its phase, a private class its teacher: the member picks one before any price.',
      on: { 'option.choose': { target: 'pricing', actions: 'chooseOption' } },
    },
    pricing: {
      tags: ['busy'],
      description: "The server prices the member's choice (phase, coupon, balance): the pay button waits.",
      invoke: {
        id: 'quote',
        src: 'quote',
        input: ({ context }) => ({
          goodsId: context.goodsId,
          phaseId: context.phaseId,
          teacherId: context.teacherId,
          couponId: context.couponId,
          useBalance: context.useBalance,
        }),
        onDone: [
          { guard: { type: 'loginExpired', params: ({ event }) => ({ envelope: event.output }) }, target: 'loginRequired' },
          {
            guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) },
            target: 'pricingRefused',
            actions: { type: 'keepCode', params: ({ event }) => ({ code: event.output.code }) },
          },
          {
            guard: 'repricedAfterChange',
            target: 'reviewing.priceChanged',
            actions: { type: 'keepQuote', params: ({ event }) => ({ quote: event.output.data }) },
          },
          { target: 'reviewing', actions: { type: 'keepQuote', params: ({ event }) => ({ quote: event.output.data }) } },
        ],
        onError: 'pricingUnreachable',
      },
    },
    pricingUnreachable: {
      tags: ['retryPage'],
      description: 'The price could not be asked: "network unreachable" with a retry.',
      on: { 'checkout.retry': 'pricing' },
    },
    /** the server refused this choice (a coupon not usable, new customers only, limit one, sold out) */
    pricingRefused: {
      tags: ['editing', 'refused'],
      description: 'The server refused this choice (a lapsed coupon, a phase that started): the reason shows and the member chooses again.',
      on: {
        'coupon.choose': { target: 'pricing', actions: 'chooseCoupon' },
        'option.choose': { target: 'pricing', actions: 'chooseOption' },
      },
    },
    /** the goods, the agreement, the coupon and balance, the server-priced summary, the method */
    reviewing: {
      tags: ['editing'],
      description:
        "The goods, the coupon and balance, the server's amount to pay, the way to pay, the purchase agreement and the pay button.",
      initial: 'editing',
      states: {
        editing: { description: 'The form as the member left it; nothing ordered yet.' },
        agreementMissing: {
          description: 'Pay was tapped without agreeing: "please read and agree to the purchase agreement"; nothing sent.',
        },
        /** the order was refused (stock, limit, coupon, balance): the code says why */
        orderRefused: {
          tags: ['refused'],
          description: 'The order was refused (stock, limit, balance): the reason shows; nothing ordered.',
        },
        /** a second order while one is unpaid (40001): the screen links to it */
        unpaidOrderExists: { tags: ['refused'], description: 'An unpaid order already exists: the reason and a link to that order.' },
        /** the order was refused because the price changed (40010): the new price is shown, the member pays again */
        priceChanged: {
          tags: ['refused'],
          description: 'The price changed since it was shown: the new amount shows and the member pays again knowingly.',
        },
      },
      on: {
        'option.choose': { target: 'pricing', actions: 'chooseOption' },
        'coupon.choose': { target: 'pricing', actions: 'chooseCoupon' },
        'balance.toggle': { target: 'pricing', actions: 'toggleBalance' },
        'agreement.toggle': { target: '.editing', actions: 'toggleAgreement' },
        'method.choose': { target: '.editing', actions: 'chooseMethod' },
        'checkout.submit': [
          { guard: 'notAgreed', target: '.agreementMissing' },
          { target: 'creatingOrder', actions: 'newCreateKey' },
        ],
      },
    },
    creatingOrder: {
      tags: ['busy'],
      description: 'The order is being made ("creating the order…"); the pay button cannot be tapped again.',
      invoke: {
        id: 'createOrder',
        src: 'createOrder',
        input: ({ context }) => ({
          body: {
            goodsId: context.goodsId,
            phaseId: context.phaseId,
            teacherId: context.teacherId,
            couponId: context.couponId,
            useBalance: context.useBalance,
            expectedAmountToPayCents: context.quote?.amountToPayCents,
            // the server checks it too (and keeps when): the submit guard let us here only once agreed
            agreementAccepted: context.agreed,
          },
          idempotencyKey: context.createKey!,
        }),
        onDone: [
          { guard: { type: 'loginExpired', params: ({ event }) => ({ envelope: event.output }) }, target: 'loginRequired' },
          {
            guard: { type: 'unpaidOrderExists', params: ({ event }) => ({ envelope: event.output }) },
            target: 'locatingUnpaidOrder',
            actions: { type: 'keepCode', params: ({ event }) => ({ code: event.output.code }) },
          },
          // the server's amount differs from the quote shown (a price, coupon or balance changed): price again and show it
          {
            guard: { type: 'priceChanged', params: ({ event }) => ({ envelope: event.output }) },
            target: 'pricing',
            actions: { type: 'keepCode', params: ({ event }) => ({ code: event.output.code }) },
          },
          {
            guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) },
            target: 'reviewing.orderRefused',
            actions: { type: 'keepCode', params: ({ event }) => ({ code: event.output.code }) },
          },
          { target: 'paying', actions: [{ type: 'keepOrder', params: ({ event }) => ({ order: event.output.data }) }] },
        ],
        onError: 'orderUnreachable',
      },
    },
    /** the order was sent but no answer came: a retry sends the same key, so one order is made */
    orderUnreachable: {
      description:
        'No answer to the order: "network unreachable" and the pay button says retry, which sends the same order again (one order at most).',
      on: { 'checkout.retry': 'creatingOrder' },
    },
    locatingUnpaidOrder: {
      tags: ['busy'],
      description: 'Finding the unpaid order to link to.',
      invoke: {
        id: 'findUnpaidOrder',
        src: 'findUnpaidOrder',
        onDone: {
          target: 'reviewing.unpaidOrderExists',
          actions: { type: 'keepUnpaidOrder', params: ({ event }) => ({ orderNo: event.output }) },
        },
        onError: 'reviewing.unpaidOrderExists',
      },
    },
    /** the order is made: it is paid through the pay-order chart (payment-order.machine.ts), with the way chosen on the form */
    paying: {
      tags: ['busy'],
      description:
        'The order is made and its payment under way: the pay-order chart takes it from here (starting the payment, WeChat Pay or Alipay, the result).',
      invoke: {
        id: 'pay',
        src: 'payOrder',
        input: ({ context }) => ({ methods: context.methods, order: context.order!, resume: 'start' as const, method: context.method }),
      },
    },
  },
});
