import { assign, fromPromise, setup } from 'xstate';
import type { Order, OrderPart, PayAnswer, PaymentStart, WechatJsapiParams } from '../src/api/orders';
import type { Envelope } from '../src/domain/envelope';
import { isOk } from '../src/domain/envelope';
import { defaultPayMethod, type PayMethod } from '../src/domain/orders';
import { newIntentKey } from '../src/domain/intent-key';

/** How often the order is asked for its result while the provider settles, and for how long before "checking". */
export const PAY_POLL_MS = 2_000;
export const PAY_RESULT_TIMEOUT_MS = 30_000;
export const PAY_RECHECK_MS = 10_000;
/** How long /payt shows before the browser leaves for Alipay's page. */
export const PAY_HANDOVER_MS = 600;

/** Catalogue codes the chart branches on (src/domain/errors.ts; plain numbers so the chart loads without Lingui). */
const LOGIN_EXPIRED = 401;

export interface PayOrderInput {
  /** the methods this server offers (GET /pay/methods), in the order to show them */
  methods: PayMethod[];
  /** the order as its page loaded it, or as the checkout made it */
  order: Order;
  /**
   * 'start': the checkout has just made the order, the member chose how to pay on its form;
   * 'pay': paid from /orderdetail; 'result': its result after the provider's page (/payt, /payf, /pays).
   * What it needs follows from the order's state, with no second read.
   */
  resume: 'start' | 'pay' | 'result';
  /** the way chosen on the checkout's form */
  method?: PayMethod;
  /** the part of a split order to pay (its seq, /orderdetail?partSeq=); absent: the whole order */
  partSeq?: number;
}

/** An order as the pay pages read it: its detail carries its parts (a split order's), a pay answer does not. */
export type PayableOrder = Order & { parts?: OrderPart[] };

/** The part of a split order this payment is for (absent: the whole order). */
const partOf = (order: PayableOrder, partSeq: number | undefined) =>
  partSeq === undefined ? undefined : order.parts?.find((p) => p.seq === partSeq);

/** Paid: the whole order, or the part being paid of a split one (the order stays unpaid until the last part). */
const settledPaid = (order: PayableOrder, partSeq: number | undefined) =>
  order.state === 'paid' || order.state === 'fully_paid' || partOf(order, partSeq)?.state === 'paid';

/** A provider trade of the member's is open: the whole order's (paying), or the part's own (its other parts pay meanwhile, decision 058). */
const awaitingProvider = (order: PayableOrder, partSeq: number | undefined) => {
  const part = partOf(order, partSeq);
  return part ? part.holder === 'memberTrade' : order.state === 'paying';
};

/** The provider said no: the whole order's payment failed, or the part's own latest trade did. */
const paymentFailed = (order: PayableOrder, partSeq: number | undefined) => {
  const part = partOf(order, partSeq);
  return part ? part.payFailed : order.state === 'payment_failed';
};

/** To pay now: the whole order unpaid, or the part offers paying with nothing holding it (the server's offers). */
const payableNow = (order: PayableOrder, partSeq: number | undefined) => {
  const part = partOf(order, partSeq);
  return part ? part.holder === null && part.actions.includes('pay') : order.state === 'unpaid';
};

/** What the WeChat in-app bridge said after getBrandWCPayRequest (err_msg without its prefix). */
export type WechatBridgeOutcome = 'ok' | 'cancel' | 'fail';

export interface PayOrderContext {
  methods: PayMethod[];
  resume: 'start' | 'pay' | 'result';
  order: PayableOrder;
  method?: PayMethod;
  partSeq?: number;
  /** one per payment attempt (the member's pay tap), reused by its retries: a double tap pays once */
  payKey?: string;
  payment?: PaymentStart;
  /** the refusal's catalogue code (spec §8), shown translated */
  errorCode?: number;
}

export type PayOrderEvent =
  | { type: 'method.choose'; method: PayMethod }
  | { type: 'payment.start' }
  | { type: 'payment.retry' }
  | { type: 'payment.check' }
  | { type: 'order.retry' };

type Env = Envelope<unknown>;

/**
 * Paying one of my orders (/orderdetail, /payt, /payf, /pays, and the checkout's own order): it is
 * paid by balance at once, or by WeChat Pay through the in-app bridge, or by Alipay on its own page,
 * with one Idempotency-Key per payment attempt (reused on retry); then the order is polled until the
 * provider has settled it. Past the time-out it keeps checking: it never calls a payment failed while
 * the provider may still settle it. An order from its page goes by its state (to pay, being paid,
 * paid, failed, closed); the checkout's new order starts paying at once with the way chosen on the form.
 * A part of a split order (`partSeq`) is paid the same way, on its own: its own trade, its own failure
 * and its own paid state decide (the order stays waiting until its last part; other parts may be paid
 * by others meanwhile, decision 058).
 * Effects are provided: actors loadOrder, startPayment, wechatPay (waits for the bridge, calls
 * getBrandWCPayRequest); actions purchaseChanged, openAlipay (leaves the page).
 * Tags name the page a state belongs on (checkout-paths.ts payOrderPath): `loginPage`, `handoverPage`
 * (/payt), `resultPage` (/payf), `failurePage` (/pays), `orderPage` (the order's detail).
 * `end` a state where the flow is over though the chart still answers there (the payment failed, pay again): the screen
 * offers the next thing to do (decision 103).
 */
export const paymentOrderMachine = setup({
  types: {
    context: {} as PayOrderContext,
    events: {} as PayOrderEvent,
    input: {} as PayOrderInput,
    tags: {} as 'loginPage' | 'handoverPage' | 'resultPage' | 'failurePage' | 'orderPage' | 'end',
  },
  actors: {
    loadOrder: fromPromise<Envelope<Order>, { orderNo: string }>(async () => {
      throw new Error('loadOrder is provided by the app');
    }),
    startPayment: fromPromise<Envelope<PayAnswer>, { orderNo: string; method: PayMethod; idempotencyKey: string; partSeq?: number }>(
      async () => {
        throw new Error('startPayment is provided by the app');
      },
    ),
    wechatPay: fromPromise<WechatBridgeOutcome, { jsapi: WechatJsapiParams; orderNo: string; partSeq?: number }>(async () => {
      throw new Error('wechatPay is provided by the app');
    }),
  },
  actions: {
    chooseMethod: assign({
      method: ({ context, event }) => (event.type === 'method.choose' ? event.method : context.method),
      errorCode: undefined,
    }),
    keepCode: assign((_, params: { code: number }) => ({ errorCode: params.code })),
    newPayKey: assign({ payKey: () => newIntentKey(), errorCode: undefined }),
    keepOrder: assign((_, params: { order: PayableOrder }) => ({ order: params.order })),
    keepPayment: assign((_, params: { answer: PayAnswer }) => ({
      order: params.answer.order,
      payment: params.answer.payment ?? undefined,
    })),
    purchaseChanged: () => {},
    openAlipay: () => {},
  },
  guards: {
    startingNow: ({ context }) => context.resume === 'start',
    loginExpired: (_, params: { envelope: Env }) => params.envelope.code === LOGIN_EXPIRED,
    refused: (_, params: { envelope: Env }) => !isOk(params.envelope),
    orderSettledPaid: ({ context }, params: { order: PayableOrder }) => settledPaid(params.order, context.partSeq),
    orderPaymentFailed: ({ context }, params: { order: PayableOrder }) => paymentFailed(params.order, context.partSeq),
    orderAwaitingProvider: ({ context }, params: { order: PayableOrder }) => awaitingProvider(params.order, context.partSeq),
    orderSettledPaidNow: ({ context }) => settledPaid(context.order, context.partSeq),
    orderAwaitingProviderNow: ({ context }) => awaitingProvider(context.order, context.partSeq),
    orderPayableNow: ({ context }) => payableNow(context.order, context.partSeq),
    orderPaymentFailedNow: ({ context }) => paymentFailed(context.order, context.partSeq),
    resumingToPay: ({ context }) => context.resume === 'pay',
    payingAgainNow: ({ context }) => context.resume === 'pay' && awaitingProvider(context.order, context.partSeq),
    paidByBalance: (_, params: { answer: PayAnswer }) => params.answer.payment === null,
    payingInWechat: (_, params: { answer: PayAnswer }) => params.answer.payment?.method === 'wechat',
    bridgeSaidCancel: (_, params: { outcome: WechatBridgeOutcome }) => params.outcome === 'cancel',
  },
}).createMachine({
  id: 'paymentOrder',
  context: ({ input }) => ({
    methods: input.methods,
    resume: input.resume,
    order: input.order,
    method: input.method ?? defaultPayMethod(input.methods),
    partSeq: input.partSeq,
  }),
  initial: 'enteringPayment',
  states: {
    enteringPayment: {
      description: "Deciding where paying starts: the checkout's new order is paid at once, an order from its page goes by its state.",
      always: [{ guard: 'startingNow', target: 'paying', actions: 'newPayKey' }, { target: 'routingOrder' }],
    },
    /** an expired login: the screen sends the member to /login/<this page> and back (spec §5) */
    loginRequired: {
      tags: ['loginPage'],
      description: 'The login lapsed: the app goes to the login page and back to this page after.',
      type: 'final',
    },
    /** the order read again (after a refused payment): where it stands now */
    loadingOrder: {
      description: 'The order is read again to see where it stands.',
      invoke: {
        id: 'loadOrder',
        src: 'loadOrder',
        input: ({ context }) => ({ orderNo: context.order.orderNo }),
        onDone: [
          { guard: { type: 'loginExpired', params: ({ event }) => ({ envelope: event.output }) }, target: 'loginRequired' },
          { guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) }, target: 'orderMissing' },
          { target: 'routingOrder', actions: { type: 'keepOrder', params: ({ event }) => ({ order: event.output.data }) } },
        ],
        onError: 'orderLoadUnreachable',
      },
    },
    /** what an order needs follows from its state on the server */
    routingOrder: {
      description:
        'Where the order goes by its state: paid, being paid (on its page: paid again, on the result page: waited for), to pay, failed or closed.',
      always: [
        { guard: 'orderSettledPaidNow', target: 'paid' },
        // on its page an unfinished payment is paid again (the same trade, or another way) or the order cancelled: never only waited for
        { guard: 'payingAgainNow', target: 'choosingMethod' },
        { guard: 'orderAwaitingProviderNow', target: 'awaitingResult' },
        { guard: 'orderPaymentFailedNow', target: 'resumingFailedOrder' },
        { guard: 'orderPayableNow', target: 'choosingMethod' },
        { target: 'orderClosed' },
      ],
    },
    orderLoadUnreachable: {
      description: 'The order could not be read: "network unreachable" with a retry.',
      on: { 'order.retry': 'loadingOrder' },
    },
    /** not mine, or no such order */
    orderMissing: { description: 'No such order of this member: "this order could not be found".', type: 'final' },
    /** cancelled (by the member or its time limit), refunding or refunded: nothing to pay */
    orderClosed: { tags: ['orderPage'], description: "Cancelled or refunded: the order's detail shows it, nothing to pay.", type: 'final' },
    /** a failed payment: shown as failed after the provider's page, offered again from /orderdetail */
    resumingFailedOrder: {
      description: "A failed payment: paid again from the order's page, shown as failed after the provider's page.",
      always: [{ guard: 'resumingToPay', target: 'choosingMethod' }, { target: 'failed' }],
    },
    /** an unpaid order on /orderdetail, one whose payment failed, or one whose payment was left unfinished: the member picks how to pay */
    choosingMethod: {
      tags: ['orderPage'],
      description:
        'The order\'s page: the ways to pay and the pay button with the amount ("continue paying" when a payment was left unfinished: the same way reopens its trade, another closes it first).',
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
              orderNo: context.order.orderNo,
              // nothing left to pay after coupon and balance: the balance call settles it
              method: context.order.amountToPayCents === 0 ? ('balance' as const) : context.method!,
              idempotencyKey: context.payKey!,
              partSeq: context.partSeq,
            }),
            onDone: [
              {
                guard: { type: 'loginExpired', params: ({ event }) => ({ envelope: event.output }) },
                target: '#paymentOrder.loginRequired',
              },
              {
                guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) },
                target: '#paymentOrder.paymentRefused',
                actions: { type: 'keepCode', params: ({ event }) => ({ code: event.output.code }) },
              },
              {
                guard: { type: 'paidByBalance', params: ({ event }) => ({ answer: event.output.data }) },
                target: '#paymentOrder.paid',
                actions: { type: 'keepPayment', params: ({ event }) => ({ answer: event.output.data }) },
              },
              {
                guard: { type: 'payingInWechat', params: ({ event }) => ({ answer: event.output.data }) },
                target: 'inWechat',
                actions: { type: 'keepPayment', params: ({ event }) => ({ answer: event.output.data }) },
              },
              { target: 'handingToAlipay', actions: { type: 'keepPayment', params: ({ event }) => ({ answer: event.output.data }) } },
            ],
            onError: 'paymentUnreachable',
          },
        },
        /** no answer to the pay call: a retry sends the same key, so the member is charged once */
        paymentUnreachable: {
          description: 'No answer to the payment: "network unreachable" with a retry under the same key (charged once at most).',
          on: { 'payment.retry': 'requestingPayment' },
        },
        /** the in-app bridge: wait for its ready event, then getBrandWCPayRequest with the server's pay-sign */
        inWechat: {
          description: 'WeChat Pay\'s sheet is opening ("opening WeChat Pay…").',
          invoke: {
            id: 'wechatPay',
            src: 'wechatPay',
            input: ({ context }) => ({
              jsapi: (context.payment as Extract<PaymentStart, { method: 'wechat' }>).jsapi,
              orderNo: context.order.orderNo,
              partSeq: context.partSeq,
            }),
            onDone: [
              { guard: { type: 'bridgeSaidCancel', params: ({ event }) => ({ outcome: event.output }) }, target: 'wechatCancelled' },
              // ok or fail: only the server's result (notification or query) decides
              { target: '#paymentOrder.awaitingResult' },
            ],
            onError: 'bridgeUnavailable',
          },
        },
        /** the member closed WeChat Pay's sheet: the same prepaid payment can be opened again */
        wechatCancelled: {
          description: 'The member closed WeChat Pay\'s sheet: the order is kept and "continue paying" opens it again.',
          on: { 'payment.retry': 'inWechat' },
        },
        /** the bridge never became ready (not inside the messaging app) */
        bridgeUnavailable: {
          description: 'WeChat Pay cannot open outside the messaging app: the page says so, with a retry.',
          on: { 'payment.retry': 'inWechat' },
        },
        /** /payt: the member goes to Alipay's page and comes back to /payf?orderNo= */
        handingToAlipay: {
          tags: ['handoverPage'],
          description: '/payt: "going to Alipay…" with a link in case the browser does not go by itself.',
          after: { [PAY_HANDOVER_MS]: 'leftForAlipay' },
        },
        /** the browser leaves for Alipay's page; coming back is /payf?orderNo=, a new page and payment */
        leftForAlipay: {
          tags: ['handoverPage'],
          description: "The browser has left for Alipay's page; coming back lands on /payf.",
          type: 'final',
          entry: 'openAlipay',
        },
      },
    },
    /** the server refused to pay (expired, not payable, balance not enough): the code says why; the member reads the order again to choose anew */
    paymentRefused: {
      description: 'The server refused to pay (balance not enough, order expired): the reason and "choose how to pay again".',
      on: { 'payment.retry': 'loadingOrder' },
    },
    /** the provider settles the order (notification or query): ask until it is paid or failed */
    awaitingResult: {
      tags: ['resultPage'],
      description: '/payf: "confirming the payment…" while the provider settles it.',
      initial: 'polling',
      after: { [PAY_RESULT_TIMEOUT_MS]: 'checking' },
      states: {
        polling: {
          description: "Asking the server for the order's result.",
          invoke: {
            id: 'pollOrder',
            src: 'loadOrder',
            input: ({ context }) => ({ orderNo: context.order.orderNo }),
            onDone: [
              { guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) }, target: 'waiting' },
              {
                guard: { type: 'orderSettledPaid', params: ({ event }) => ({ order: event.output.data }) },
                target: '#paymentOrder.paid',
                actions: { type: 'keepOrder', params: ({ event }) => ({ order: event.output.data }) },
              },
              {
                guard: { type: 'orderPaymentFailed', params: ({ event }) => ({ order: event.output.data }) },
                target: '#paymentOrder.failed',
                actions: { type: 'keepOrder', params: ({ event }) => ({ order: event.output.data }) },
              },
              { guard: { type: 'orderAwaitingProvider', params: ({ event }) => ({ order: event.output.data }) }, target: 'waiting' },
              {
                target: '#paymentOrder.orderClosed',
                actions: { type: 'keepOrder', params: ({ event }) => ({ order: event.output.data }) },
              },
            ],
            onError: 'waiting',
          },
        },
        waiting: { description: 'Waiting a moment before asking again.', after: { [PAY_POLL_MS]: 'polling' } },
      },
    },
    /** past the time-out the provider may still settle: keep asking, slower; never call it failed; the member may pay again */
    checking: {
      tags: ['resultPage'],
      description:
        '/payf after the time-out: "payment not confirmed yet", never called failed, with a refresh button, "continue paying" (back to the ways to pay on the order\'s page) and the order.',
      initial: 'idle',
      on: { 'payment.retry': 'choosingMethod' },
      states: {
        idle: {
          description: 'Waiting before the next check; the member can refresh now.',
          after: { [PAY_RECHECK_MS]: 'rechecking' },
          on: { 'payment.check': 'rechecking' },
        },
        rechecking: {
          description: 'Checking again; the refresh button waits.',
          invoke: {
            id: 'recheckOrder',
            src: 'loadOrder',
            input: ({ context }) => ({ orderNo: context.order.orderNo }),
            onDone: [
              { guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) }, target: 'idle' },
              {
                guard: { type: 'orderSettledPaid', params: ({ event }) => ({ order: event.output.data }) },
                target: '#paymentOrder.paid',
                actions: { type: 'keepOrder', params: ({ event }) => ({ order: event.output.data }) },
              },
              {
                guard: { type: 'orderPaymentFailed', params: ({ event }) => ({ order: event.output.data }) },
                target: '#paymentOrder.failed',
                actions: { type: 'keepOrder', params: ({ event }) => ({ order: event.output.data }) },
              },
              { guard: { type: 'orderAwaitingProvider', params: ({ event }) => ({ order: event.output.data }) }, target: 'idle' },
              {
                target: '#paymentOrder.orderClosed',
                actions: { type: 'keepOrder', params: ({ event }) => ({ order: event.output.data }) },
              },
            ],
            onError: 'idle',
          },
        },
      },
    },
    /** /payf: paid; what was bought is issued */
    paid: {
      tags: ['resultPage'],
      description: '/payf: "payment successful", what was bought and links to the order, courses and cards.',
      type: 'final',
      entry: 'purchaseChanged',
    },
    /** /pays: the provider said the payment failed; the same order can be paid again */
    failed: {
      tags: ['failurePage', 'end'],
      description: '/pays: "payment failed", nothing was charged, and "pay again".',
      on: { 'payment.retry': 'choosingMethod' },
    },
  },
});
