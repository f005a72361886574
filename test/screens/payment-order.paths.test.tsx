// @vitest-environment jsdom
import { and, eq, like } from 'drizzle-orm';
import { expect } from 'vitest';
import {
  PAY_HANDOVER_MS,
  PAY_POLL_MS,
  PAY_RECHECK_MS,
  PAY_RESULT_TIMEOUT_MS,
  paymentOrderMachine,
  type PayOrderContext,
  type PayOrderInput,
} from '../../machines/payment-order.machine';
import type { OrderState, PayMethod } from '../../src/domain/orders';
import { setPageLeaver } from '../../src/app/leave-page';
import { BRIDGE_READY_TIMEOUT_MS, setBridgeHost, type BridgeWindow } from '../../src/app/screens/orders/wechat-bridge';
import { orders, payStandInOrders } from '../../src/server/db/schema/index';
import { runDueJobs } from '../../src/server/jobs/runner';
import { PAYMENT_QUERY_AFTER_MS } from '../../src/server/services/orders/settle';
import { cardsOf, create, credit, newGoods, newMember, pay } from '../server/buying/support';
import { screen, startScreenHarness } from './support/screen-harness';
import { defineScreenPaths, sentBy, type World } from './support/screen-paths';

/**
 * Paying an order (spec §5 and §8; /orderdetail, /payt, /payf, /pays, and the checkout's
 * own order on /agreement/payagreement), on the real screens and server. The member's part: choose
 * how to pay, pay, retry, refresh; the messaging app's part (WeChat Pay's sheet) is played by the test
 * through the in-page bridge; the providers' part (a payment settled or failed) by their stand-ins,
 * which notify the server as the real ones do.
 *
 * Worlds, told apart by the order the walk starts with (symbols, made real in start): an order the
 * checkout has just made, paid by WeChat Pay, by Alipay, or by a balance that is short (the member
 * chose on the checkout's form and tapped pay); and an existing order opened on its page: unpaid (the
 * member has ¥500), its payment failed (paid again, or the result shown), being paid at the provider
 * (opened on its page: paid again; on its result page: waited for, then paid again), paid, cancelled.
 */
const h = await startScreenHarness({ seed: true });

const METHODS = ['balance', 'wechat', 'alipay'] as const;
const PRICE = 19_900;
const BALANCE = 5_000;

type OrderWorld = 'unpaid' | 'failedPay' | 'payingPay' | 'paying' | 'paid' | 'failedResult' | 'cancelled';
const orderWorlds: Record<OrderWorld, { state: OrderState; resume: 'pay' | 'result' }> = {
  unpaid: { state: 'unpaid', resume: 'pay' },
  failedPay: { state: 'payment_failed', resume: 'pay' },
  // a payment left unfinished (the sheet closed, the provider silent), the order opened on its page: paid again from there
  payingPay: { state: 'paying', resume: 'pay' },
  paying: { state: 'paying', resume: 'result' },
  paid: { state: 'paid', resume: 'result' },
  failedResult: { state: 'payment_failed', resume: 'result' },
  cancelled: { state: 'cancelled', resume: 'result' },
};
/** the checkout's new order, by the way chosen on its form (balance: short of the price, on a server offering only the balance) */
const newOrderWorlds: Record<string, PayMethod> = {
  'a new order paid by WeChat Pay': 'wechat',
  'a new order paid by Alipay': 'alipay',
  'a new order paid by a short balance': 'balance',
};
const symbolicOrder = (orderNo: string, state: OrderState) =>
  ({ orderNo, state, amountToPayCents: PRICE, actions: [] }) as unknown as PayOrderInput['order'];

const inputs: Record<string, PayOrderInput> = {
  ...Object.fromEntries(
    Object.entries(newOrderWorlds).map(([name, method]) => [
      name,
      { methods: [...METHODS], order: symbolicOrder(`sym-new-${method}`, 'unpaid'), resume: 'start', method },
    ]),
  ),
  ...Object.fromEntries(
    Object.entries(orderWorlds).map(([name, o]) => [
      `an order (${name})`,
      { methods: [...METHODS], order: symbolicOrder(`sym-${o.state}`, o.state), resume: o.resume },
    ]),
  ),
};
const orderWorldOf = (label: string) => /^an order \((\w+)\)$/.exec(label)?.[1] as OrderWorld | undefined;

/**
 * A split order's part whose own trade failed, opened on its result page (`&partSeq=2`): the order
 * still waits for its parts (unpaid), the part's failure is its own (decision 058).
 */
const PART_FAILED = 'a split part (its own trade failed)';
const FAILED_PART_SEQ = 2;
inputs[PART_FAILED] = {
  methods: [...METHODS],
  order: {
    ...symbolicOrder('sym-part-failed', 'unpaid'),
    parts: [
      {
        seq: FAILED_PART_SEQ,
        kind: 'share',
        amountCents: 9_900,
        state: 'unpaid',
        paidBy: null,
        friendName: null,
        withFriend: false,
        holder: null,
        actions: ['pay', 'invite'],
        payFailed: true,
      },
    ],
  } as PayOrderInput['order'],
  resume: 'result',
  partSeq: FAILED_PART_SEQ,
};

/** The messaging app's in-page bridge, played by the test: it comes when told, and answers the sheet. */
function testBridge() {
  const host = { document: new EventTarget(), location: window.location } as unknown as BridgeWindow;
  const calls: Array<{ params: Record<string, string>; answer(errMsg: string): void; answered: boolean; said?: string }> = [];
  return {
    host,
    calls,
    ready() {
      host.WeixinJSBridge = {
        invoke(_name, params, callback) {
          const call = {
            params: params as unknown as Record<string, string>,
            answered: false,
            answer: (m: string) => ((call.answered = true), (call.said = m), callback({ err_msg: m })),
          } as (typeof calls)[number];
          calls.push(call);
        },
      };
      host.document.dispatchEvent(new Event('WeixinJSBridgeReady'));
    },
  };
}

interface Member {
  world: string;
  token: string;
  accountId: number;
  orderNo: string;
  /** the way to pay the member chose (on the checkout's form, or on the order's page) */
  method: PayMethod;
  /** the split order's part the page is for */
  partSeq?: number;
  bridge: ReturnType<typeof testBridge>;
  /** the pages the app left for (Alipay) */
  left: string[];
  /** the member asked to pay again or to choose again (a retry on the page) */
  retried: boolean;
  /** how many payments had been started when the page last said "being confirmed" (the path's record) */
  confirmingSaidAt?: number;
  /** how often the member asked to pay (a tap on pay, a retry of a lost request) */
  asks: number;
  /** how many times the page had asked for the result when the payment was last handed over */
  pollsAtHandover?: number;
  /** how often the page's wait for the messaging app's bridge ran out */
  bridgeWaits?: number;
  /** how often the member had paid in WeChat Pay's sheet when the payment was last asked for */
  sheetPaidAtRequest?: number;
}
type W = World<Member>;

const ok = (data: unknown) => ({ code: 200, status: true, data });
const refusal = (code: number) => ({ code, status: false, data: null });
const orderOk = (state: OrderState, amountToPayCents = PRICE) => ok({ orderNo: 'sym', state, amountToPayCents });

const progress = () => document.querySelector('[data-payment-progress]')?.textContent ?? null;
const resultPanel = () => document.querySelector<HTMLElement>('[data-payment-result]')?.dataset.paymentResult ?? null;
const payButton = () => document.querySelector<HTMLButtonElement>('[data-action="pay"]');

async function theOrder(w: W) {
  const [o] = await h.server.deps.db.select().from(orders).where(eq(orders.orderNo, w.orderNo));
  return o!;
}
const endSession = (w: W) => h.server.call('POST', '/api/oauth/logout', { token: w.token }).then(() => {});
/** the member's login still holds on the server (a lapsed one is sent to log in, never left on the page) */
const stillLoggedIn = async (w: W) =>
  expect((await h.server.call('GET', '/api/customers/balance', { token: w.token })).status, 'the login still holds').toBe(200);
/** the payment was just handed to the provider: what the page asks afterwards is counted from here */
const handedOver = (w: W) => (w.pollsAtHandover = sentBy(w, 'pollOrder').length);
/** how often the member paid in WeChat Pay's sheet during the path */
const sheetPaid = (w: W) => w.bridge.calls.filter((c) => c.said === 'get_brand_wcpay_request:ok').length;
/** the provider settles the order's open attempt: paid (a signed notification), or failed (learnt by the query job) */
async function settleAtProvider(w: W, outcome: 'pay' | 'fail') {
  const [trade] = await h.server.deps.db
    .select()
    .from(payStandInOrders)
    .where(and(like(payStandInOrders.outTradeNo, `${w.orderNo}-%`), eq(payStandInOrders.state, 'NOTPAY')));
  const said = trade?.prepayId
    ? await h.server.call('POST', '/api/dev/pay/wechat/simulate', { body: { prepayId: trade.prepayId, outcome } })
    : trade
      ? await h.server.call('POST', '/api/dev/pay/alipay/simulate', { body: { outTradeNo: trade.outTradeNo, outcome } })
      : undefined;
  let ran = 0;
  if (outcome === 'fail') {
    h.server.clock.advance(PAYMENT_QUERY_AFTER_MS);
    // the file's server is shared by all paths: run what is due (other paths' jobs too) until none is
    for (let batch = await runDueJobs(h.server.deps); batch > 0 && ran < 1000; batch = await runDueJobs(h.server.deps)) ran += batch;
  }
  const [o] = await h.server.deps.db.select().from(orders).where(eq(orders.orderNo, w.orderNo));
  expect(
    o?.state,
    `the provider's ${outcome} reached the order (trade ${trade?.outTradeNo ?? 'none'}: ${JSON.stringify(said?.body)}, jobs ${ran})`,
  ).toBe(outcome === 'pay' ? 'paid' : 'payment_failed');
}
/** the sheet of WeChat Pay answers (the bridge comes first if it had not) */
async function sheet(w: W, outcome: 'ok' | 'cancel' | 'fail') {
  if (!w.bridge.host.WeixinJSBridge) w.bridge.ready();
  const until = Date.now() + 1500;
  while (!w.bridge.calls.some((c) => !c.answered)) {
    if (Date.now() > until) throw new Error('the page never asked the bridge to pay');
    await new Promise((r) => setTimeout(r, 5));
  }
  w.bridge.calls.find((c) => !c.answered)!.answer(`get_brand_wcpay_request:${outcome}`);
}

/** Polls until the check passes (the page settling while a world is made). */
async function until(check: () => unknown, what: string) {
  const end = Date.now() + 3000;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`${what} never happened`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

defineScreenPaths<Member>(h, {
  machine: paymentOrderMachine,
  screen: '/orderdetail, /payt, /payf, /pays',
  inputs,
  cases: {
    'method.choose': [{ method: 'alipay' }, { method: 'balance' }],
    'xstate.done.actor.loadOrder': [
      { output: orderOk('unpaid'), answer: { server: true } },
      // paid on another phone meanwhile (the balance topped up there)
      {
        output: orderOk('paid'),
        answer: {
          server: true,
          arrange: async (w: W) =>
            (await credit(h.server, w.accountId, PRICE), await pay(h.server, w.token, w.orderNo, 'balance')).body && undefined,
        },
      },
      { output: refusal(401), answer: { server: true, arrange: endSession } },
      // the order is gone (no longer this member's): the server cannot be made to say so cheaply
      { output: refusal(404), answer: { status: 404, body: refusal(404) } },
    ],
    'xstate.error.actor.loadOrder': [{ error: new Error('network') }],
    'xstate.done.actor.startPayment': [
      { output: ok({ order: { state: 'paid' }, payment: null }), answer: { server: true } },
      { output: ok({ order: { state: 'paying' }, payment: { method: 'wechat', jsapi: {} } }), answer: { server: true } },
      { output: ok({ order: { state: 'paying' }, payment: { method: 'alipay', url: '' } }), answer: { server: true } },
      { output: refusal(40004), answer: { server: true } },
      { output: refusal(401), answer: { server: true, arrange: endSession } },
    ],
    'xstate.error.actor.startPayment': [{ error: new Error('network') }],
    'xstate.done.actor.wechatPay': [
      { output: 'ok', perform: (w: W) => sheet(w, 'ok') },
      { output: 'cancel', perform: (w: W) => sheet(w, 'cancel') },
      { output: 'fail', perform: (w: W) => sheet(w, 'fail') },
    ],
    // outside the messaging app the bridge never comes: the page gives up after its time-out
    'xstate.error.actor.wechatPay': [
      {
        error: new Error('no bridge'),
        perform: (w: W) => {
          w.bridgeWaits = (w.bridgeWaits ?? 0) + 1;
          return advanceActorTimers(BRIDGE_READY_TIMEOUT_MS);
        },
      },
    ],
    ...Object.fromEntries(
      ['pollOrder', 'recheckOrder'].flatMap((id) => [
        [
          `xstate.done.actor.${id}`,
          [
            { output: orderOk('paid'), answer: { server: true, arrange: (w: W) => settleAtProvider(w, 'pay') } },
            { output: orderOk('payment_failed'), answer: { server: true, arrange: (w: W) => settleAtProvider(w, 'fail') } },
            { output: orderOk('paying'), answer: { server: true } },
            // a server error while asking: keep asking
            { output: refusal(500), answer: { status: 500, body: refusal(500) } },
            // closed at the front desk meanwhile (a staff action the staff console will have)
            {
              output: orderOk('cancelled'),
              answer: {
                server: true,
                arrange: (w: W) =>
                  h.server.deps.db
                    .update(orders)
                    .set({ state: 'cancelled' })
                    .where(eq(orders.orderNo, w.orderNo))
                    .then(() => {}),
              },
            },
          ],
        ],
        [`xstate.error.actor.${id}`, [{ error: new Error('network') }]],
      ]),
    ),
  },
  offer: (e, s) => offerFor(e, s.context as PayOrderContext, s),
  project: (c: PayOrderContext) => ({ order: c.order.state, method: c.method, errorCode: c.errorCode ?? null }),
  requests: {
    startPayment: { method: 'POST', path: /^\/api\/orders\/pay$/ },
    // the order's pages read it too (their loaders): only the payment's own reads are held
    loadOrder: { method: 'GET', path: /^\/api\/orders\/detail$/, shared: true },
    pollOrder: { method: 'GET', path: /^\/api\/orders\/detail$/, shared: true },
    recheckOrder: { method: 'GET', path: /^\/api\/orders\/detail$/, shared: true },
  },

  async start(hh, input) {
    const m = await newMember(hh.server);
    const bridge = testBridge();
    setBridgeHost(bridge.host);
    const left: string[] = [];
    setPageLeaver((url) => left.push(url));
    hh.jar.setClientCookie('token', m.token);
    const g = await newGoods(hh.server);
    // the checkout's new order comes with the member's tap on pay
    const base = {
      world: input,
      token: m.token,
      accountId: m.id,
      bridge,
      left,
      retried: false,
      asks: orderWorldOf(input) || input === PART_FAILED ? 0 : 1,
    };
    if (input === PART_FAILED) {
      // split in two; the member's WeChat Pay trade for part 2 fails at the provider (its query job learns it)
      const no = (await create(hh.server, m.token, { goodsId: g.id })).body.data.orderNo as string;
      expect(
        (await hh.server.call('POST', '/api/orders/split', { token: m.token, body: { orderNo: no, parts: [9_900, 10_000] } })).body.code,
      ).toBe(200);
      const r = await hh.server.call('POST', '/api/orders/pay', {
        token: m.token,
        body: { orderNo: no, method: 'wechat', partSeq: FAILED_PART_SEQ },
      });
      await hh.server.call('POST', '/api/dev/pay/wechat/simulate', { body: { prepayId: r.body.data.payment.prepayId, outcome: 'fail' } });
      hh.server.clock.advance(PAYMENT_QUERY_AFTER_MS);
      for (let ran = 0, batch = await runDueJobs(hh.server.deps); batch > 0 && ran < 1000; batch = await runDueJobs(hh.server.deps))
        ran += batch;
      const ui = await hh.open(`/payf?orderNo=${no}&partSeq=${FAILED_PART_SEQ}`);
      return { ...base, orderNo: no, method: 'wechat', partSeq: FAILED_PART_SEQ, ui } as Member & { ui: typeof ui };
    }
    const orderWorld = orderWorldOf(input);
    if (orderWorld) {
      await credit(hh.server, m.id, orderWorld === 'unpaid' || orderWorld === 'paid' ? 50_000 : BALANCE);
      const no = (await create(hh.server, m.token, { goodsId: g.id })).body.data.orderNo as string;
      const w = { ...base, orderNo: no, method: 'wechat' } as Member;
      if (orderWorld === 'paid') await pay(hh.server, m.token, no, 'balance');
      if (orderWorld === 'cancelled') await hh.server.call('POST', '/api/orders/cancel', { token: m.token, body: { orderNo: no } });
      if (orderWorld.startsWith('paying') || orderWorld.startsWith('failed')) await pay(hh.server, m.token, no, 'wechat');
      if (orderWorld.startsWith('failed')) await settleAtProvider(w as W, 'fail');
      const ui = await hh.open(orderWorlds[orderWorld].resume === 'pay' ? `/orderdetail?orderNo=${no}` : `/payf?orderNo=${no}`);
      return { ...w, ui };
    }
    // the checkout's form: agree, choose how to pay, pay; the order is made and its payment asked for
    const method = newOrderWorlds[input]!;
    await credit(hh.server, m.id, BALANCE);
    // the checkout offers the balance as a way to pay only when the server offers nothing else (decision 038):
    // the balance world's server has no provider while the page loads
    const payments = hh.server.deps.gateways.payments;
    const available = payments.available;
    if (method === 'balance') payments.available = () => [];
    const ui = await hh.open(`/agreement/payagreement?id=${g.id}`).finally(() => {
      payments.available = available;
    });
    await until(() => payButton() && !payButton()!.disabled, 'the priced form');
    await ui.user.click(document.querySelector('input[name="agreePurchase"]')!);
    if (method !== 'wechat') await ui.user.click(document.querySelector(`[data-method="${method}"] input`)!);
    await ui.user.click(payButton()!);
    let orderNo: string | undefined;
    await until(async () => {
      const [o] = await hh.server.deps.db.select().from(orders).where(eq(orders.accountId, m.id));
      orderNo = o?.orderNo;
      return orderNo;
    }, 'the order');
    await until(() => progress() === '正在发起支付…', 'the payment asked for');
    return { ...base, ui, orderNo: orderNo!, method };
  },

  events: {
    'method.choose': async (w, e) => {
      w.method = e.method as PayMethod;
      await w.ui.user.click(document.querySelector(`[data-method="${w.method}"] input`)!);
    },
    'order.retry': (w) => w.ui.user.click(screen.getByRole('button', { name: '重试' })),
    'payment.start': (w) => {
      w.asks++;
      return w.ui.user.click(document.querySelector<HTMLElement>('[data-action="pay-order"]')!);
    },
    'payment.retry': (w) => {
      w.retried = true;
      // a retry of a payment whose answer was lost asks for it again
      const last = w.sent.filter((r) => r.invoke).at(-1);
      if (last?.invoke === 'startPayment' && last.answer === 'network') w.asks++;
      return w.ui.user.click(
        document.querySelector<HTMLElement>('[data-action="payment-retry"], [data-action="pay-again"], [data-action="continue-paying"]')!,
      );
    },
    'payment.check': (w) => w.ui.user.click(document.querySelector<HTMLElement>('[data-action="check"]')!),
  },

  states: {
    loginRequired: (w) => expect(w.ui.path()).toMatch(/^\/login\//),
    loadingOrder: async (w) => {
      await stillLoggedIn(w);
      // the order is read again when the member chooses anew after a refusal (or retries a lost read); a paid one goes to its result
      expect(w.retried, 'the member asked to choose again').toBe(true);
      expect((await theOrder(w)).state, 'a paid order is not read again before its result').not.toBe('paid');
      expect(w.held.get('loadOrder')?.map((r) => r.path)).toEqual([`/api/orders/detail?orderNo=${w.orderNo}`]);
    },
    orderLoadUnreachable: (w) => {
      expect(sentBy(w, 'loadOrder').at(-1)?.answer).toBe('network');
      expect(screen.getByRole('button', { name: '重试' })).toBeTruthy();
    },
    orderMissing: (w) => {
      expect(sentBy(w, 'loadOrder').at(-1)?.answer, 'said only when the server did not find the order').toBe(404);
      expect(screen.getByText('没有找到这个订单')).toBeTruthy();
    },
    orderClosed: async (w) => {
      expect(w.ui.path()).toBe(`/orderdetail?orderNo=${w.orderNo}`);
      expect(document.querySelector('[data-pay-panel]')).toBe(null);
      expect((await theOrder(w)).state).toBe('cancelled');
    },
    choosingMethod: async (w) => {
      expect(w.ui.path()).toBe(`/orderdetail?orderNo=${w.orderNo}`);
      expect(sentBy(w, 'startPayment').at(-1)?.answer, 'a lapsed login is sent to log in, not left on the form').not.toBe(401);
      // the ways to pay show for an order opened on its page to pay; after a payment or a result only when the member asks again
      if (orderWorlds[orderWorldOf(w.world) as OrderWorld]?.resume !== 'pay') expect(w.retried, 'the member asked to pay again').toBe(true);
      expect(document.querySelector<HTMLInputElement>('input[name="method"]:checked')?.value).toBe(w.method);
      expect(document.querySelector<HTMLButtonElement>('[data-action="pay-order"]')?.disabled).toBe(false);
      // or its payment left unfinished: paid again from its page (the same trade, or another way), never only waited for
      expect(['unpaid', 'payment_failed', 'paying']).toContain((await theOrder(w)).state);
      if ((await theOrder(w)).state === 'paying') {
        expect(document.querySelector('[data-action="pay-order"]')?.textContent).toBe('继续支付 ¥199');
        expect(document.querySelector('[data-action="cancel-order"]'), 'and it can be cancelled').not.toBe(null);
      }
    },
    'paying.requestingPayment': async (w) => {
      handedOver(w);
      w.sheetPaidAtRequest = sheetPaid(w);
      expect(sentBy(w, 'startPayment').length, 'a payment is asked for only when the member asked').toBeLessThanOrEqual(w.asks);
      const o = await theOrder(w);
      const [p] = w.held.get('startPayment') ?? [];
      expect(p?.body).toEqual({ orderNo: o.orderNo, method: o.amountToPayCents === 0 ? 'balance' : w.method });
      expect(progress()).toBe('正在发起支付…');
    },
    'paying.paymentUnreachable': (w) => {
      expect(sentBy(w, 'startPayment').at(-1)?.answer).toBe('network');
      expect(progress()).toBe('网络无法连接重试');
    },
    'paying.inWechat': async (w) => {
      handedOver(w);
      expect(sheetPaid(w), 'the sheet opens only until the member paid in it').toBe(w.sheetPaidAtRequest ?? 0);
      expect(progress()).toBe('正在打开微信支付…');
      expect((await theOrder(w)).state).toBe('paying');
    },
    'paying.wechatCancelled': async (w) => {
      expect(w.bridge.calls.at(-1)?.said, 'the member closed the sheet').toBe('get_brand_wcpay_request:cancel');
      expect(progress()).toBe('您已取消支付，订单已保留继续支付');
      expect((await theOrder(w)).state).toBe('paying');
    },
    'paying.bridgeUnavailable': (w) => {
      // only when the messaging app's bridge never came within its time
      expect(w.bridge.host.WeixinJSBridge, 'the bridge never came').toBeFalsy();
      expect(w.bridgeWaits ?? 0, 'the page waited its time for the bridge').toBeGreaterThan(0);
      expect(progress()).toBe('无法打开微信支付，请在微信中打开本页面重试');
    },
    'paying.handingToAlipay': (w) => {
      expect(w.ui.path()).toBe(`/payt?orderNo=${w.orderNo}`);
      expect(resultPanel()).toBe('handover');
      expect(w.left).toEqual([]);
    },
    'paying.leftForAlipay': (w) => {
      handedOver(w);
      expect(w.left).toHaveLength(1);
      expect(new URL(w.left[0]!, 'http://app.test').pathname).toMatch(/^\/api\/dev\/pay\/alipay\//);
      expect(w.time()).toBeGreaterThanOrEqual(PAY_HANDOVER_MS);
    },
    paymentRefused: async (w) => {
      expect(sentBy(w, 'startPayment').at(-1)?.answer).toBe(40004);
      expect(screen.getByRole('alert').textContent).toContain('余额不足');
      expect((await theOrder(w)).state).toBe('unpaid');
    },
    awaitingResult: (w) => {
      // past the time-out the page keeps checking: never "confirming" again for the same payment
      expect(w.confirmingSaidAt, 'back to "confirming" after "being confirmed"').not.toBe(sentBy(w, 'startPayment').length);
      // "confirming" is for a provider's payment: one the member just started there, or an order opened while it is paying
      const started = sentBy(w, 'startPayment').at(-1);
      if (started) expect((started.body as { method: string }).method, 'a balance payment is never "being confirmed"').not.toBe('balance');
      // a WeChat Pay payment is confirmed once the member paid in the sheet; an Alipay one once the page left for Alipay
      if ((started?.body as { method?: string } | undefined)?.method === 'wechat')
        expect(w.bridge.calls.at(-1)?.said, 'the member paid in the sheet').toBe('get_brand_wcpay_request:ok');
      else expect(orderWorldOf(w.world), 'an order opened on its result page while paying').toBe('paying');
      expect(w.ui.path()).toBe(`/payf?orderNo=${w.orderNo}`);
      expect(resultPanel()).toBe('confirming');
    },
    'awaitingResult.polling': (w) =>
      expect(w.held.get('pollOrder')?.map((r) => r.path)).toEqual([`/api/orders/detail?orderNo=${w.orderNo}`]),
    'awaitingResult.waiting': async (w) => {
      expect(w.held.get('pollOrder') ?? []).toEqual([]);
      // waiting a moment before asking *again*: the page asked at least once since the payment was handed over
      expect(sentBy(w, 'pollOrder').length, 'asked for the result since the payment').toBeGreaterThan(w.pollsAtHandover ?? 0);
      // and the last answer said it is still being paid
      expect((await theOrder(w)).state, 'waits only while the order is being paid').toBe('paying');
    },
    checking: (w) => {
      w.confirmingSaidAt = sentBy(w, 'startPayment').length;
      expect(w.time(), '"being confirmed" only after the wait for the result').toBeGreaterThanOrEqual(PAY_RESULT_TIMEOUT_MS);
      expect(w.ui.path()).toBe(`/payf?orderNo=${w.orderNo}`);
      expect(resultPanel()).toBe('checking');
      expect(screen.getByRole('heading').textContent).toBe('支付尚未确认');
      expect(document.querySelector('[data-action="continue-paying"]'), 'continue paying').not.toBe(null);
    },
    'checking.idle': async (w) => {
      expect(document.querySelector<HTMLButtonElement>('[data-action="check"]')?.disabled).toBe(false);
      // still waiting for the provider: an order found paid, failed or closed is never left "being confirmed"
      expect((await theOrder(w)).state).toBe('paying');
    },
    'checking.rechecking': (w) => {
      expect(document.querySelector<HTMLButtonElement>('[data-action="check"]')?.disabled).toBe(true);
      expect(w.held.get('recheckOrder')).toHaveLength(1);
    },
    paid: async (w) => {
      expect(w.ui.path()).toBe(`/payf?orderNo=${w.orderNo}`);
      expect(resultPanel()).toBe('paid');
      expect((await theOrder(w)).state).toBe('paid');
      expect(await cardsOf(h.server, w.accountId)).toHaveLength(1);
    },
    failed: async (w) => {
      // an order whose payment failed, opened on its page to pay, is offered again, not shown as a failure
      if (w.world === 'an order (failedPay)') expect(w.retried || sentBy(w, 'startPayment').length > 0).toBe(true);
      expect(w.ui.path()).toBe(`/pays?orderNo=${w.orderNo}${w.partSeq === undefined ? '' : `&partSeq=${w.partSeq}`}`);
      expect(resultPanel()).toBe('failed');
      // a part's failure is its own: the order still waits for its parts, the part's latest trade failed
      if (w.partSeq !== undefined) {
        const detail = (await h.server.call('GET', `/api/orders/detail?orderNo=${w.orderNo}`, { token: w.token })).body.data;
        expect(detail.state).toBe('unpaid');
        expect(detail.parts.find((p: { seq: number }) => p.seq === w.partSeq)).toMatchObject({
          state: 'unpaid',
          holder: null,
          payFailed: true,
        });
      } else expect((await theOrder(w)).state).toBe('payment_failed');
    },
  },

  // what the page shows before each event: a retry must change it
  seen: (w) => `${w.ui.path()} | ${progress()} | ${resultPanel()}`,
  effects: {
    // the page asks for the result again when its wait is over, and again on a re-check's timer; entering
    // "being confirmed" asks nothing at once (it waits, or the member taps refresh)
    [`xstate.after.${PAY_POLL_MS}.paymentOrder.awaitingResult.waiting`]: (w, _e, before) =>
      expect(sentBy(w, 'pollOrder', before), 'asked again').toHaveLength(1),
    [`xstate.after.${PAY_RECHECK_MS}.paymentOrder.checking.idle`]: (w, _e, before) =>
      expect(sentBy(w, 'recheckOrder', before), 'checked again').toHaveLength(1),
    [`xstate.after.${PAY_RESULT_TIMEOUT_MS}.paymentOrder.awaitingResult`]: (w, _e, before) =>
      expect(sentBy(w, 'recheckOrder', before), 'nothing asked on the time-out itself').toEqual([]),
    // a retry reads the order again, once
    'order.retry': (w, _e, before) => {
      const [again, ...more] = w.sent.slice(before).filter((r) => r.invoke);
      expect(more, 'one request').toEqual([]);
      expect(again?.invoke).toBe('loadOrder');
    },
    'payment.start': (w, _e, before) => {
      const [tap] = sentBy(w, 'startPayment', before);
      expect(tap?.key, 'the payment carries an Idempotency-Key').toBeDefined();
      expect(
        sentBy(w, 'startPayment')
          .slice(0, -1)
          .map((r) => r.key),
        'a new intent, a new key',
      ).not.toContain(tap!.key);
    },
    // a retry never starts a new payment: a lost answer is asked again under its key; WeChat Pay's
    // sheet opens again for the same prepaid payment; after a refusal or a failure the order is read again
    'payment.retry': (w, _e, before, seenBefore) => {
      expect(`${w.ui.path()} | ${progress()} | ${resultPanel()}`, 'a retry changes what the page shows').not.toBe(seenBefore);
      const [again, ...more] = sentBy(w, 'startPayment', before);
      const lost = w.sent
        .slice(0, before)
        .filter((r) => r.invoke)
        .at(-1);
      if (lost?.invoke === 'startPayment' && lost.answer === 'network')
        expect(again?.key, 'a lost payment is asked again under its key').toBe(lost.key);
      else expect(again, 'a retry asks for no payment unless its answer was lost (the sheet reopens the same one)').toBeUndefined();
      expect(more).toEqual([]);
      // after the sheet was closed, or the bridge did not come, "continue paying" / "retry" opens WeChat Pay again, not the ways to pay
      if (/您已取消支付|无法打开微信支付/.test(String(seenBefore)))
        expect(screen.getByRole('status').textContent, 'WeChat Pay opens again').toBe('正在打开微信支付…');
    },
    'method.choose': (w, _e, before) => expect(w.sent.slice(before).filter((r) => r.invoke)).toEqual([]),
    // refresh checks the order again at once
    'payment.check': (w, _e, before) => expect(sentBy(w, 'recheckOrder', before), 'checked again').toHaveLength(1),
  },
});

/** The path's timers (the bridge's ready time-out runs on the app's actor timers). */
async function advanceActorTimers(ms: number) {
  const { actorTimers } = await import('../../src/app/app-clock');
  const clock = actorTimers().clock as unknown as { increment(ms: number): void } | undefined;
  const { act } = await import('@testing-library/react');
  await act(async () => clock?.increment(ms));
}

/** The walk, pruned to what a member does once per path and to what each world's server will answer. */
function offerFor(e: { type: string; [k: string]: unknown }, c: PayOrderContext, s: { matches(v: unknown): boolean }): boolean {
  const output = e.output as { code: number; data: Record<string, unknown> | null } | undefined;
  // an order opened on its page (else the checkout's new order)
  const orderWorld = c.resume !== 'start';
  switch (e.type) {
    case 'xstate.done.actor.startPayment': {
      const payment = output!.data?.payment as { method: string } | null | undefined;
      if (output!.code === 401) return orderWorld;
      if (c.method === 'balance') return orderWorld ? output!.code === 200 && payment === null : output!.code === 40004;
      return output!.code === 200 && payment?.method === c.method;
    }
    case 'xstate.error.actor.startPayment':
      return orderWorld;
    case 'method.choose':
      // on an unpaid order's page, balance (the member has enough)
      return orderWorld && e.method === 'balance' && c.method !== 'balance' && c.order.state === 'unpaid';
    case 'payment.start':
      // WeChat Pay and Alipay are walked from the checkout's form; an unpaid order's page pays by balance
      return orderWorld && c.method === 'balance';
    case 'xstate.done.actor.pollOrder':
    case 'xstate.done.actor.recheckOrder':
    case 'xstate.error.actor.pollOrder':
    case 'xstate.error.actor.recheckOrder':
      // the whole wait is walked for an order being paid when the member comes back; elsewhere it ends paid
      return c.order.orderNo === 'sym-paying' || output?.data?.state === 'paid';
    case 'xstate.after.30000.paymentOrder.awaitingResult':
    case 'xstate.after.10000.paymentOrder.checking.idle':
    case 'xstate.after.2000.paymentOrder.awaitingResult.waiting':
    case 'payment.check':
      return c.order.orderNo === 'sym-paying';
    case 'payment.retry':
      // failed: paid again from its page, in the world that starts there
      return !s.matches('failed') || c.order.orderNo === 'sym-payment_failed';
    default:
      return true;
  }
}
