import { assign, fromPromise, setup } from 'xstate';
import type { GoodsDetail } from '../src/api/goods';
import type { CheckoutBody, CreateOrderBody, Order, PayAnswer, PaymentStart, Quote, WechatJsapiParams } from '../src/api/orders';
import type { Envelope } from '../src/domain/envelope';
import { isOk } from '../src/domain/envelope';
import { choiceMade, requiredChoice } from '../src/domain/goods-choice';
import type { PayMethod } from '../src/domain/orders';

/** How often the order is asked for its result while the provider settles, and for how long before "checking". */
export const CHECKOUT_POLL_MS = 2_000;
export const CHECKOUT_RESULT_TIMEOUT_MS = 30_000;
export const CHECKOUT_RECHECK_MS = 10_000;
/** How long /payt shows before the browser leaves for Alipay's page. */
export const CHECKOUT_HANDOVER_MS = 600;

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
  goodsId?: number;
  phaseId?: number;
  teacherId?: number;
  /**
   * an existing order, as its page loaded it: paid from /orderdetail ('pay'), or its result after the
   * provider's page (/payt, /payf, /pays: 'result'); what it needs follows from its state, with no second read
   */
  order?: Order;
  resume?: 'pay' | 'result';
}

/** What the WeChat in-app bridge said after getBrandWCPayRequest (err_msg without its prefix). */
export type WechatBridgeOutcome = 'ok' | 'cancel' | 'fail';

export interface CheckoutContext {
  signedIn: boolean;
  methods: PayMethod[];
  goodsId?: number;
  phaseId?: number;
  teacherId?: number;
  resume: 'pay' | 'result';
  goods?: GoodsDetail;
  /** the server's price of the current choice (coupon, balance): the only numbers shown */
  quote?: Quote;
  couponId?: number;
  useBalance: boolean;
  agreed: boolean;
  method?: PayMethod;
  /** one per order attempt (the member's pay tap), reused by its retries: a double tap creates one order */
  createKey?: string;
  /** one per payment attempt, reused by its retries */
  payKey?: string;
  order?: Order;
  payment?: PaymentStart;
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
  | { type: 'checkout.retry' }
  | { type: 'payment.start' }
  | { type: 'payment.retry' }
  | { type: 'payment.check' };

const newKey = () => globalThis.crypto.randomUUID();
const firstMethod = (methods: PayMethod[]) => methods.find((m) => m !== 'balance') ?? methods[0];
type Env = Envelope<unknown>;

/**
 * Buying one goods item (issue 4, /agreement/payagreement and the pages after it): the member must be
 * logged in; the goods are loaded and, when needed, a phase or teacher is chosen; the server prices the
 * choice with a coupon and the balance; the member agrees to the purchase agreement and taps pay; the
 * order is created with one Idempotency-Key per attempt (reused on retry); it is paid by balance at
 * once, or by WeChat Pay through the in-app bridge, or by Alipay on its own page; then the order is
 * polled until the provider has settled it. Past the time-out the checkout keeps checking: it never
 * calls a payment failed while the provider may still settle it. An existing order (from /orderdetail,
 * or back from the provider's page) enters at loadingOrder.
 * Effects are provided: actors loadGoods, quote, createOrder, findUnpaidOrder, loadOrder, startPayment,
 * wechatPay (waits for the bridge, calls getBrandWCPayRequest); actions purchaseChanged, openAlipay (leaves the page).
 */
export const checkoutMachine = setup({
  types: {
    context: {} as CheckoutContext,
    events: {} as CheckoutEvent,
    input: {} as CheckoutInput,
  },
  actors: {
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
    loadOrder: fromPromise<Envelope<Order>, { orderNo: string }>(async () => {
      throw new Error('loadOrder is provided by the app');
    }),
    startPayment: fromPromise<Envelope<PayAnswer>, { orderNo: string; method: PayMethod; idempotencyKey: string }>(async () => {
      throw new Error('startPayment is provided by the app');
    }),
    wechatPay: fromPromise<WechatBridgeOutcome, { jsapi: WechatJsapiParams; orderNo: string }>(async () => {
      throw new Error('wechatPay is provided by the app');
    }),
  },
  actions: {
    keepGoods: assign((_, params: { goods: GoodsDetail }) => ({ goods: params.goods })),
    keepGoodsRefusal: assign((_, params: { envelope: Envelope<GoodsDetail> }) =>
      isOk(params.envelope) ? { errorCode: GOODS_OFF_SHELF, errorMessage: params.envelope.data.message } : { errorCode: params.envelope.code, errorMessage: null },
    ),
    chooseOption: assign(({ event }) =>
      event.type === 'option.choose' ? { phaseId: event.phaseId, teacherId: event.teacherId, couponId: undefined, errorCode: undefined } : {},
    ),
    chooseCoupon: assign({ couponId: ({ event }) => (event.type === 'coupon.choose' ? event.couponId : undefined), errorCode: undefined }),
    toggleBalance: assign({ useBalance: ({ context }) => !context.useBalance, errorCode: undefined }),
    toggleAgreement: assign({ agreed: ({ context }) => !context.agreed, errorCode: undefined }),
    chooseMethod: assign({ method: ({ context, event }) => (event.type === 'method.choose' ? event.method : context.method), errorCode: undefined }),
    keepQuote: assign((_, params: { quote: Quote }) => ({ quote: params.quote, couponId: params.quote.couponId ?? undefined })),
    keepCode: assign((_, params: { code: number }) => ({ errorCode: params.code })),
    newCreateKey: assign({ createKey: () => newKey(), errorCode: undefined, unpaidOrderNo: undefined }),
    newPayKey: assign({ payKey: () => newKey(), errorCode: undefined }),
    keepOrder: assign((_, params: { order: Order }) => ({ order: params.order })),
    keepPayment: assign((_, params: { answer: PayAnswer }) => ({ order: params.answer.order, payment: params.answer.payment ?? undefined })),
    keepUnpaidOrder: assign((_, params: { orderNo: string | null }) => ({ unpaidOrderNo: params.orderNo ?? undefined })),
    purchaseChanged: () => {},
    openAlipay: () => {},
  },
  guards: {
    resumingOrder: ({ context }) => context.goodsId === undefined,
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
    orderSettledPaid: (_, params: { order: Order }) => params.order.state === 'paid' || params.order.state === 'fully_paid',
    orderPaymentFailed: (_, params: { order: Order }) => params.order.state === 'payment_failed',
    orderAwaitingProvider: (_, params: { order: Order }) => params.order.state === 'paying',
    orderSettledPaidNow: ({ context }) => context.order?.state === 'paid' || context.order?.state === 'fully_paid',
    orderAwaitingProviderNow: ({ context }) => context.order?.state === 'paying',
    orderPayableNow: ({ context }) => context.order?.state === 'unpaid',
    orderPaymentFailedNow: ({ context }) => context.order?.state === 'payment_failed',
    resumingToPay: ({ context }) => context.resume === 'pay',
    paidByBalance: (_, params: { answer: PayAnswer }) => params.answer.payment === null,
    payingInWechat: (_, params: { answer: PayAnswer }) => params.answer.payment?.method === 'wechat',
    bridgeSaidCancel: (_, params: { outcome: WechatBridgeOutcome }) => params.outcome === 'cancel',
  },
}).createMachine({
  id: 'checkout',
  context: ({ input }) => ({
    signedIn: input.signedIn,
    methods: input.methods,
    goodsId: input.goodsId,
    phaseId: input.phaseId,
    teacherId: input.teacherId,
    resume: input.resume ?? 'result',
    order: input.order,
    useBalance: false,
    agreed: false,
    method: firstMethod(input.methods),
  }),
  initial: 'enteringCheckout',
  states: {
    enteringCheckout: {
      description: 'Deciding where the checkout starts: a visitor logs in first, an existing order goes by its state, new goods are loaded.',
      always: [{ guard: 'signedOut', target: 'loginRequired' }, { guard: 'resumingOrder', target: 'routingOrder' }, { target: 'loadingGoods' }],
    },
    /** a visitor (or an expired login): the screen sends them to /login/<this page> and back (spec §5) */
    loginRequired: { description: 'A visitor or a lapsed login: the app goes to the login page and back to this page after.', type: 'final' },
    loadingGoods: {
      description: 'The goods are loading: a placeholder shows.',
      invoke: {
        id: 'loadGoods',
        src: 'loadGoods',
        input: ({ context }) => ({ goodsId: context.goodsId! }),
        // the goods are public: a lapsed login reads them as a visitor would, and pricing asks to log in
        onDone: [
          { guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) }, target: 'goodsUnavailable', actions: { type: 'keepGoodsRefusal', params: ({ event }) => ({ envelope: event.output }) } },
          { guard: { type: 'goodsNotBuyable', params: ({ event }) => ({ goods: event.output.data }) }, target: 'goodsUnavailable', actions: [{ type: 'keepGoods', params: ({ event }) => ({ goods: event.output.data }) }, { type: 'keepGoodsRefusal', params: ({ event }) => ({ envelope: event.output }) }] },
          { guard: { type: 'choiceMissing', params: ({ event }) => ({ goods: event.output.data }) }, target: 'choosingOption', actions: { type: 'keepGoods', params: ({ event }) => ({ goods: event.output.data }) } },
          { target: 'pricing', actions: { type: 'keepGoods', params: ({ event }) => ({ goods: event.output.data }) } },
        ],
        onError: 'goodsUnreachable',
      },
    },
    goodsUnreachable: { description: 'The goods could not be loaded: "network unreachable" with a retry.', on: { 'checkout.retry': 'loadingGoods' } },
    /** unknown, off shelf, sold out ("the hand speed is not fast enough"): nothing to buy here */
    goodsUnavailable: { description: 'Nothing to buy here (unknown, off the shelf, sold out): the reason and a way to the cards.', type: 'final' },
    /** a training course needs its phase, a private class its teacher (spec §5) */
    choosingOption: { description: 'A course needs its phase, a private class its teacher: the member picks one before any price.', on: { 'option.choose': { target: 'pricing', actions: 'chooseOption' } } },
    pricing: {
      description: 'The server prices the member\'s choice (phase, coupon, balance): the pay button waits.',
      invoke: {
        id: 'quote',
        src: 'quote',
        input: ({ context }) => ({ goodsId: context.goodsId!, phaseId: context.phaseId, teacherId: context.teacherId, couponId: context.couponId, useBalance: context.useBalance }),
        onDone: [
          { guard: { type: 'loginExpired', params: ({ event }) => ({ envelope: event.output }) }, target: 'loginRequired' },
          { guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) }, target: 'pricingRefused', actions: { type: 'keepCode', params: ({ event }) => ({ code: event.output.code }) } },
          { guard: 'repricedAfterChange', target: 'reviewing.priceChanged', actions: { type: 'keepQuote', params: ({ event }) => ({ quote: event.output.data }) } },
          { target: 'reviewing', actions: { type: 'keepQuote', params: ({ event }) => ({ quote: event.output.data }) } },
        ],
        onError: 'pricingUnreachable',
      },
    },
    pricingUnreachable: { description: 'The price could not be asked: "network unreachable" with a retry.', on: { 'checkout.retry': 'pricing' } },
    /** the server refused this choice (a coupon not usable, new customers only, limit one, sold out) */
    pricingRefused: {
      description: 'The server refused this choice (a lapsed coupon, a phase that started): the reason shows and the member chooses again.',
      on: {
        'coupon.choose': { target: 'pricing', actions: 'chooseCoupon' },
        'option.choose': { target: 'pricing', actions: 'chooseOption' },
      },
    },
    /** the goods, the agreement, the coupon and balance, the server-priced summary, the method */
    reviewing: {
      description: 'The goods, the coupon and balance, the server\'s amount to pay, the way to pay, the purchase agreement and the pay button.',
      initial: 'editing',
      states: {
        editing: { description: 'The form as the member left it; nothing ordered yet.' },
        agreementMissing: { description: 'Pay was tapped without agreeing: "please read and agree to the purchase agreement"; nothing sent.' },
        /** the order was refused (stock, limit, coupon, balance): the code says why */
        orderRefused: { description: 'The order was refused (stock, limit, balance): the reason shows; nothing ordered.' },
        /** a second order while one is unpaid (40001): the screen links to it */
        unpaidOrderExists: { description: 'An unpaid order already exists: the reason and a link to that order.' },
        /** the order was refused because the price changed (40010): the new price is shown, the member pays again */
        priceChanged: { description: 'The price changed since it was shown: the new amount shows and the member pays again knowingly.' },
      },
      on: {
        'option.choose': { target: 'pricing', actions: 'chooseOption' },
        'coupon.choose': { target: 'pricing', actions: 'chooseCoupon' },
        'balance.toggle': { target: 'pricing', actions: 'toggleBalance' },
        'agreement.toggle': { target: '.editing', actions: 'toggleAgreement' },
        'method.choose': { target: '.editing', actions: 'chooseMethod' },
        'checkout.submit': [{ guard: 'notAgreed', target: '.agreementMissing' }, { target: 'creatingOrder', actions: 'newCreateKey' }],
      },
    },
    creatingOrder: {
      description: 'The order is being made ("creating the order…"); the pay button cannot be tapped again.',
      invoke: {
        id: 'createOrder',
        src: 'createOrder',
        input: ({ context }) => ({
          body: {
            goodsId: context.goodsId!,
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
          { guard: { type: 'unpaidOrderExists', params: ({ event }) => ({ envelope: event.output }) }, target: 'locatingUnpaidOrder', actions: { type: 'keepCode', params: ({ event }) => ({ code: event.output.code }) } },
          // the server's amount differs from the quote shown (a price, coupon or balance changed): price again and show it
          { guard: { type: 'priceChanged', params: ({ event }) => ({ envelope: event.output }) }, target: 'pricing', actions: { type: 'keepCode', params: ({ event }) => ({ code: event.output.code }) } },
          { guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) }, target: 'reviewing.orderRefused', actions: { type: 'keepCode', params: ({ event }) => ({ code: event.output.code }) } },
          { target: 'paying', actions: [{ type: 'keepOrder', params: ({ event }) => ({ order: event.output.data }) }, 'newPayKey'] },
        ],
        onError: 'orderUnreachable',
      },
    },
    /** the order was sent but no answer came: a retry sends the same key, so one order is made */
    orderUnreachable: { description: 'No answer to the order: "network unreachable" and the pay button says retry, which sends the same order again (one order at most).', on: { 'checkout.retry': 'creatingOrder' } },
    locatingUnpaidOrder: {
      description: 'Finding the unpaid order to link to.',
      invoke: {
        id: 'findUnpaidOrder',
        src: 'findUnpaidOrder',
        onDone: { target: 'reviewing.unpaidOrderExists', actions: { type: 'keepUnpaidOrder', params: ({ event }) => ({ orderNo: event.output }) } },
        onError: 'reviewing.unpaidOrderExists',
      },
    },
    /** an existing order read again (after a refused payment): where it stands now */
    loadingOrder: {
      description: 'The order is read again to see where it stands.',
      invoke: {
        id: 'loadOrder',
        src: 'loadOrder',
        input: ({ context }) => ({ orderNo: context.order!.orderNo }),
        onDone: [
          { guard: { type: 'loginExpired', params: ({ event }) => ({ envelope: event.output }) }, target: 'loginRequired' },
          { guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) }, target: 'orderMissing' },
          { target: 'routingOrder', actions: { type: 'keepOrder', params: ({ event }) => ({ order: event.output.data }) } },
        ],
        onError: 'orderLoadUnreachable',
      },
    },
    /** what an existing order needs follows from its state on the server */
    routingOrder: {
      description: 'Where an existing order goes by its state: paid, being paid, to pay, failed or closed.',
      always: [
        { guard: 'orderSettledPaidNow', target: 'paid' },
        { guard: 'orderAwaitingProviderNow', target: 'awaitingResult' },
        { guard: 'orderPayableNow', target: 'choosingMethod' },
        { guard: 'orderPaymentFailedNow', target: 'resumingFailedOrder' },
        { target: 'orderClosed' },
      ],
    },
    orderLoadUnreachable: { description: 'The order could not be read: "network unreachable" with a retry.', on: { 'checkout.retry': 'loadingOrder' } },
    /** not mine, or no such order */
    orderMissing: { description: 'No such order of this member: "this order could not be found".', type: 'final' },
    /** cancelled (by the member or its time limit), refunding or refunded: nothing to pay */
    orderClosed: { description: 'Cancelled or refunded: the order\'s detail shows it, nothing to pay.', type: 'final' },
    /** a failed payment: shown as failed after the provider's page, offered again from /orderdetail */
    resumingFailedOrder: {
      description: 'A failed payment: paid again from the order\'s page, shown as failed after the provider\'s page.',
      always: [{ guard: 'resumingToPay', target: 'choosingMethod' }, { target: 'failed' }],
    },
    /** an unpaid order from /orderdetail, or one whose payment failed: the member picks how to pay */
    choosingMethod: {
      description: 'The order\'s page: the ways to pay and the pay button with the amount.',
      on: {
        'method.choose': { target: 'choosingMethod', actions: 'chooseMethod' },
        'payment.start': { target: 'paying', actions: 'newPayKey' },
      },
    },
    paying: {
      description: 'A payment under way for the order.',
      initial: 'requestingPayment',
      states: {
        requestingPayment: {
          description: 'The payment is being started ("starting the payment…").',
          invoke: {
            id: 'startPayment',
            src: 'startPayment',
            input: ({ context }) => ({
              orderNo: context.order!.orderNo,
              // nothing left to pay after coupon and balance: the balance call settles it
              method: context.order!.amountToPayCents === 0 ? ('balance' as const) : context.method!,
              idempotencyKey: context.payKey!,
            }),
            onDone: [
              { guard: { type: 'loginExpired', params: ({ event }) => ({ envelope: event.output }) }, target: '#checkout.loginRequired' },
              { guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) }, target: '#checkout.paymentRefused', actions: { type: 'keepCode', params: ({ event }) => ({ code: event.output.code }) } },
              { guard: { type: 'paidByBalance', params: ({ event }) => ({ answer: event.output.data }) }, target: '#checkout.paid', actions: { type: 'keepPayment', params: ({ event }) => ({ answer: event.output.data }) } },
              { guard: { type: 'payingInWechat', params: ({ event }) => ({ answer: event.output.data }) }, target: 'inWechat', actions: { type: 'keepPayment', params: ({ event }) => ({ answer: event.output.data }) } },
              { target: 'handingToAlipay', actions: { type: 'keepPayment', params: ({ event }) => ({ answer: event.output.data }) } },
            ],
            onError: 'paymentUnreachable',
          },
        },
        /** no answer to the pay call: a retry sends the same key, so the member is charged once */
        paymentUnreachable: { description: 'No answer to the payment: "network unreachable" with a retry under the same key (charged once at most).', on: { 'payment.retry': 'requestingPayment' } },
        /** the in-app bridge: wait for its ready event, then getBrandWCPayRequest with the server's pay-sign */
        inWechat: {
          description: 'WeChat Pay\'s sheet is opening ("opening WeChat Pay…").',
          invoke: {
            id: 'wechatPay',
            src: 'wechatPay',
            input: ({ context }) => ({ jsapi: (context.payment as Extract<PaymentStart, { method: 'wechat' }>).jsapi, orderNo: context.order!.orderNo }),
            onDone: [
              { guard: { type: 'bridgeSaidCancel', params: ({ event }) => ({ outcome: event.output }) }, target: 'wechatCancelled' },
              // ok or fail: only the server's result (notification or query) decides
              { target: '#checkout.awaitingResult' },
            ],
            onError: 'bridgeUnavailable',
          },
        },
        /** the member closed WeChat Pay's sheet: the same prepaid payment can be opened again */
        wechatCancelled: { description: 'The member closed WeChat Pay\'s sheet: the order is kept and "continue paying" opens it again.', on: { 'payment.retry': 'inWechat' } },
        /** the bridge never became ready (not inside the messaging app) */
        bridgeUnavailable: { description: 'WeChat Pay cannot open outside the messaging app: the page says so, with a retry.', on: { 'payment.retry': 'inWechat' } },
        /** /payt: the member goes to Alipay's page and comes back to /payf?orderNo= */
        handingToAlipay: { description: '/payt: "going to Alipay…" with a link in case the browser does not go by itself.', after: { [CHECKOUT_HANDOVER_MS]: 'leftForAlipay' } },
        /** the browser leaves for Alipay's page; coming back is /payf?orderNo=, a new page and checkout */
        leftForAlipay: { description: 'The browser has left for Alipay\'s page; coming back lands on /payf.', type: 'final', entry: 'openAlipay' },
      },
    },
    /** the server refused to pay (expired, not payable, balance not enough): the code says why; the member reads the order again to choose anew */
    paymentRefused: { description: 'The server refused to pay (balance not enough, order expired): the reason and "choose how to pay again".', on: { 'payment.retry': 'loadingOrder' } },
    /** the provider settles the order (notification or query): ask until it is paid or failed */
    awaitingResult: {
      description: '/payf: "confirming the payment…" while the provider settles it.',
      initial: 'polling',
      after: { [CHECKOUT_RESULT_TIMEOUT_MS]: 'checking' },
      states: {
        polling: {
          description: 'Asking the server for the order\'s result.',
          invoke: {
            id: 'pollOrder',
            src: 'loadOrder',
            input: ({ context }) => ({ orderNo: context.order!.orderNo }),
            onDone: [
              { guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) }, target: 'waiting' },
              { guard: { type: 'orderSettledPaid', params: ({ event }) => ({ order: event.output.data }) }, target: '#checkout.paid', actions: { type: 'keepOrder', params: ({ event }) => ({ order: event.output.data }) } },
              { guard: { type: 'orderPaymentFailed', params: ({ event }) => ({ order: event.output.data }) }, target: '#checkout.failed', actions: { type: 'keepOrder', params: ({ event }) => ({ order: event.output.data }) } },
              { guard: { type: 'orderAwaitingProvider', params: ({ event }) => ({ order: event.output.data }) }, target: 'waiting' },
              { target: '#checkout.orderClosed', actions: { type: 'keepOrder', params: ({ event }) => ({ order: event.output.data }) } },
            ],
            onError: 'waiting',
          },
        },
        waiting: { description: 'Waiting a moment before asking again.', after: { [CHECKOUT_POLL_MS]: 'polling' } },
      },
    },
    /** past the time-out the provider may still settle: keep asking, slower; never call it failed */
    checking: {
      description: '/payf after the time-out: "the result is being confirmed", never called failed, with a refresh button.',
      initial: 'idle',
      states: {
        idle: {
          description: 'Waiting before the next check; the member can refresh now.',
          after: { [CHECKOUT_RECHECK_MS]: 'rechecking' },
          on: { 'payment.check': 'rechecking' },
        },
        rechecking: {
          description: 'Checking again; the refresh button waits.',
          invoke: {
            id: 'recheckOrder',
            src: 'loadOrder',
            input: ({ context }) => ({ orderNo: context.order!.orderNo }),
            onDone: [
              { guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) }, target: 'idle' },
              { guard: { type: 'orderSettledPaid', params: ({ event }) => ({ order: event.output.data }) }, target: '#checkout.paid', actions: { type: 'keepOrder', params: ({ event }) => ({ order: event.output.data }) } },
              { guard: { type: 'orderPaymentFailed', params: ({ event }) => ({ order: event.output.data }) }, target: '#checkout.failed', actions: { type: 'keepOrder', params: ({ event }) => ({ order: event.output.data }) } },
              { guard: { type: 'orderAwaitingProvider', params: ({ event }) => ({ order: event.output.data }) }, target: 'idle' },
              { target: '#checkout.orderClosed', actions: { type: 'keepOrder', params: ({ event }) => ({ order: event.output.data }) } },
            ],
            onError: 'idle',
          },
        },
      },
    },
    /** /payf: paid; what was bought is issued */
    paid: { description: '/payf: "payment successful", what was bought and links to the order, courses and cards.', type: 'final', entry: 'purchaseChanged' },
    /** /pays: the provider said the payment failed; the same order can be paid again */
    failed: { description: '/pays: "payment failed", nothing was charged, and "pay again".', on: { 'payment.retry': 'choosingMethod' } },
  },
});
