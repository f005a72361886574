// @vitest-environment jsdom
import { and, eq, like } from 'drizzle-orm';
import { expect } from 'vitest';
import { checkoutMachine, CHECKOUT_HANDOVER_MS, type CheckoutContext, type CheckoutInput } from '../../machines/checkout.machine';
import { formatYuan } from '../../src/domain/money';
import type { OrderState } from '../../src/domain/orders';
import { setPageLeaver } from '../../src/app/leave-page';
import { BRIDGE_READY_TIMEOUT_MS, setBridgeHost, type BridgeWindow } from '../../src/app/screens/checkout/wechat-bridge';
import { goods as goodsTable, goodsPhases, memberCoupons, orders, payStandInOrders } from '../../src/server/db/schema/index';
import { runDueJobs } from '../../src/server/jobs/runner';
import { PAYMENT_QUERY_AFTER_MS } from '../../src/server/services/orders/settle';
import { cardsOf, create, credit, giveCoupon, newGoods, newMember, pay } from '../server/buying/support';
import { screen, startScreenHarness } from './support/screen-harness';
import { defineScreenPaths, sentBy, type World } from './support/screen-paths';

/**
 * Buying and paying (issue 4, spec §5 and §8; /agreement/payagreement, /orderdetail, /payt, /payf,
 * /pays), on the real screens and server. The member's part: choose a phase, a coupon, the balance,
 * agree, choose how to pay, pay; the messaging app's part (WeChat Pay's sheet) is played by the test
 * through the in-page bridge; the providers' part (a payment settled or failed) by their stand-ins,
 * which notify the server as the real ones do.
 *
 * Worlds, told apart by the goods id or the order the walk starts with (symbols, made real in start):
 * a visitor; a card (¥50 balance, one coupon); a course opened without a phase, and one opened on a
 * closed phase; a card whose coupon lapses while the page is open; goods off the shelf; goods that do
 * not exist; and an existing order: unpaid (the member has ¥500), its payment failed (paid again, or
 * the result shown), being paid at the provider, paid, cancelled.
 */
const h = await startScreenHarness({ seed: true });

const METHODS = ['balance', 'wechat', 'alipay'] as const;
// goods worlds
const CARD = 1;
const COURSE = 2;
const LAPSING = 3;
const OFF = 4;
const GONE = 5;
// phases of the course (symbols): the second starts while the page is open
const OPEN = 1;
const OTHER = 2;
// coupon (symbol)
const COUPON = 1;

const PRICE = 19_900;
const BALANCE = 5_000;

type OrderWorld = 'unpaid' | 'failedPay' | 'paying' | 'paid' | 'failedResult' | 'cancelled';
const orderWorlds: Record<OrderWorld, { state: OrderState; resume: 'pay' | 'result' }> = {
  unpaid: { state: 'unpaid', resume: 'pay' },
  failedPay: { state: 'payment_failed', resume: 'pay' },
  paying: { state: 'paying', resume: 'result' },
  paid: { state: 'paid', resume: 'result' },
  failedResult: { state: 'payment_failed', resume: 'result' },
  cancelled: { state: 'cancelled', resume: 'result' },
};
const symbolicOrder = (state: OrderState) => ({ orderNo: `sym-${state}`, state, amountToPayCents: PRICE }) as NonNullable<CheckoutInput['order']>;

const inputs: Record<string, CheckoutInput> = {
  'a visitor': { signedIn: false, methods: [...METHODS], goodsId: CARD },
  'a card': { signedIn: true, methods: [...METHODS], goodsId: CARD },
  'a course': { signedIn: true, methods: [...METHODS], goodsId: COURSE },
  'a card whose coupon lapses': { signedIn: true, methods: [...METHODS], goodsId: LAPSING },
  'goods off the shelf': { signedIn: true, methods: [...METHODS], goodsId: OFF },
  'goods that do not exist': { signedIn: true, methods: [...METHODS], goodsId: GONE },
  ...Object.fromEntries(
    Object.entries(orderWorlds).map(([name, o]) => [`an order (${name})`, { signedIn: true, methods: [...METHODS], order: symbolicOrder(o.state), resume: o.resume }]),
  ),
};
const orderWorldOf = (label: string) => /^an order \((\w+)\)$/.exec(label)?.[1] as OrderWorld | undefined;

/** The messaging app's in-page bridge, played by the test: it comes when told, and answers the sheet. */
function testBridge() {
  const host = { document: new EventTarget(), location: window.location } as unknown as BridgeWindow;
  const calls: Array<{ params: Record<string, string>; answer(errMsg: string): void; answered: boolean }> = [];
  return {
    host,
    calls,
    ready() {
      host.WeixinJSBridge = {
        invoke(_name, params, callback) {
          const call = { params: params as unknown as Record<string, string>, answered: false, answer: (m: string) => ((call.answered = true), callback({ err_msg: m })) };
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
  goodsId: number;
  phases: Record<number, number>;
  couponId?: number;
  /** the order of the path: the world's, or the one the checkout made */
  orderNo?: string;
  /** what the member did on the form */
  phase?: number;
  coupon?: number;
  useBalance: boolean;
  agreed: boolean;
  method: (typeof METHODS)[number];
  bridge: ReturnType<typeof testBridge>;
  /** the pages the app left for (Alipay) */
  left: string[];
}
type W = World<Member>;

const ok = (data: unknown) => ({ code: 200, status: true, data });
const refusal = (code: number) => ({ code, status: false, data: null });
const quoteOk = (couponId: number | null) => ok({ couponId, amountToPayCents: PRICE, coupons: [] });
const orderOk = (state: OrderState, amountToPayCents = PRICE) => ok({ orderNo: 'sym', state, amountToPayCents });
const goodsOk = (extra: Record<string, unknown>) => ok({ id: 0, isUable: true, message: null, phases: [], teachers: [], kind: 'card', ...extra });

const feedback = () => document.querySelector('[data-checkout-feedback]')?.textContent ?? null;
const payButton = () => document.querySelector<HTMLButtonElement>('[data-action="pay"]');
const progress = () => document.querySelector('[data-payment-progress]')?.textContent ?? null;
const resultPanel = () => document.querySelector<HTMLElement>('[data-payment-result]')?.dataset.paymentResult ?? null;
const amountShown = () => document.querySelector('[data-amount-to-pay]')?.textContent ?? null;

async function myOrders(w: W) {
  return h.server.deps.db.select().from(orders).where(eq(orders.accountId, w.accountId));
}
async function theOrder(w: W) {
  const [o] = await h.server.deps.db.select().from(orders).where(eq(orders.orderNo, w.orderNo!));
  return o!;
}
/** the order the checkout made (the member's newest), remembered for the later steps */
async function madeOrder(w: W) {
  const all = (await myOrders(w)).sort((a, b) => b.id - a.id);
  w.orderNo = all[0]?.orderNo;
  return all[0];
}
/** what the server prices the member's current choices at: the amount the form must show */
async function serverQuote(w: W) {
  const body = { goodsId: w.goodsId, ...(w.phase ? { phaseId: w.phases[w.phase] } : {}), ...(w.coupon ? { couponId: w.couponId } : {}), useBalance: w.useBalance };
  const r = await h.server.call('POST', '/api/orders/quote', { token: w.token, body });
  return r.body.data as { amountToPayCents: number } | null;
}
const endSession = (w: W) => h.server.call('POST', '/api/oauth/logout', { token: w.token }).then(() => {});
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
  const [o] = await h.server.deps.db.select().from(orders).where(eq(orders.orderNo, w.orderNo!));
  expect(o?.state, `the provider's ${outcome} reached the order (trade ${trade?.outTradeNo ?? 'none'}: ${JSON.stringify(said?.body)}, jobs ${ran})`).toBe(outcome === 'pay' ? 'paid' : 'payment_failed');
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

/** on the form, nothing ordered yet from it */
async function onForm(w: W) {
  expect(document.querySelector('[data-checkout-goods]')).not.toBe(null);
  expect(document.querySelector<HTMLInputElement>('[data-balance-toggle]')?.checked).toBe(w.useBalance);
  const chosenCoupon = document.querySelector<HTMLInputElement>('input[name="coupon"]:checked')?.closest('label')?.dataset.coupon;
  if (chosenCoupon !== undefined) expect(chosenCoupon).toBe(w.coupon ? String(w.couponId) : 'none');
  // the amount the server prices these choices at (unless it now refuses them: sold out)
  const quote = await serverQuote(w);
  if (quote) expect(amountShown()).toBe(formatYuan(quote.amountToPayCents));
}

defineScreenPaths<Member>(h, {
  machine: checkoutMachine,
  screen: '/agreement/payagreement',
  inputs,
  cases: {
    'option.choose': [{ phaseId: OPEN }, { phaseId: OTHER }],
    'coupon.choose': [{ couponId: COUPON }, { couponId: undefined }],
    'method.choose': [{ method: 'alipay' }, { method: 'balance' }],
    'xstate.done.actor.loadGoods': [
      { output: goodsOk({}), answer: { server: true } },
      { output: goodsOk({ isUable: false, message: '商品已下架' }), answer: { server: true } },
      { output: goodsOk({ kind: 'training', phases: [{ id: OPEN }, { id: OTHER }] }), answer: { server: true } },
      { output: refusal(70004), answer: { server: true } },
    ],
    'xstate.error.actor.loadGoods': [{ error: new Error('network') }],
    'xstate.done.actor.quote': [
      { output: quoteOk(null), answer: { server: true } },
      { output: quoteOk(COUPON), answer: { server: true } },
      {
        output: refusal(50007),
        // the second phase started while the page was open: it can no longer be chosen
        answer: { server: true, arrange: (w: W) => h.server.deps.db.update(goodsPhases).set({ startsAt: h.server.clock.now() }).where(eq(goodsPhases.id, w.phases[OTHER]!)).then(() => {}) },
      },
      {
        output: refusal(40007),
        // the coupon lapsed while the page was open
        answer: { server: true, arrange: (w: W) => h.server.deps.db.update(memberCoupons).set({ validUntil: h.server.clock.now() }).where(eq(memberCoupons.id, w.couponId!)).then(() => {}) },
      },
      { output: refusal(401), answer: { server: true, arrange: endSession } },
    ],
    'xstate.error.actor.quote': [{ error: new Error('network') }],
    'xstate.done.actor.createOrder': [
      { output: orderOk('unpaid'), answer: { server: true } },
      // an order made on another phone a moment ago, not paid yet
      { output: refusal(40001), answer: { server: true, arrange: (w: W) => create(h.server, w.token, { goodsId: w.goodsId }).then(() => {}) } },
      // the price changed since the quote: a little dearer each time
      {
        output: refusal(40010),
        answer: {
          server: true,
          arrange: async (w: W) => {
            const [g] = await h.server.deps.db.select().from(goodsTable).where(eq(goodsTable.id, w.goodsId));
            await h.server.deps.db.update(goodsTable).set({ memberPriceCents: g!.memberPriceCents + 100 }).where(eq(goodsTable.id, w.goodsId));
          },
        },
      },
      // the last one sold a moment ago
      { output: refusal(50006), answer: { server: true, arrange: (w: W) => h.server.deps.db.update(goodsTable).set({ stock: 0 }).where(eq(goodsTable.id, w.goodsId)).then(() => {}) } },
      { output: refusal(401), answer: { server: true, arrange: endSession } },
    ],
    'xstate.error.actor.createOrder': [{ error: new Error('network') }],
    'xstate.done.actor.findUnpaidOrder': [{ output: 'found', answer: { server: true } }],
    'xstate.error.actor.findUnpaidOrder': [{ error: new Error('network') }],
    'xstate.done.actor.loadOrder': [
      { output: orderOk('unpaid'), answer: { server: true } },
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
        perform: () => advanceActorTimers(BRIDGE_READY_TIMEOUT_MS),
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
            // closed at the front desk meanwhile (a staff action the staff console will have, issue 14)
            {
              output: orderOk('cancelled'),
              answer: { server: true, arrange: (w: W) => h.server.deps.db.update(orders).set({ state: 'cancelled' }).where(eq(orders.orderNo, w.orderNo!)).then(() => {}) },
            },
          ],
        ],
        [`xstate.error.actor.${id}`, [{ error: new Error('network') }]],
      ]),
    ),
  },
  offer: (e, s) => offerFor(e, s.context as CheckoutContext, s),
  project: (c: CheckoutContext) =>
    c.order?.state
      ? { order: c.order.state, method: c.method, errorCode: c.errorCode ?? null }
      : // the coupon and the balance change the amount, not the way: one walk goes on from either
        { agreed: c.agreed, method: c.method, phase: c.phaseId ?? null, errorCode: c.errorCode ?? null, quoted: !!c.quote },
  requests: {
    loadGoods: { method: 'GET', path: /^\/api\/product\/goods\/detail$/ },
    quote: { method: 'POST', path: /^\/api\/orders\/quote$/ },
    createOrder: { method: 'POST', path: /^\/api\/orders\/create$/ },
    findUnpaidOrder: { method: 'GET', path: /^\/api\/orders\/mine$/ },
    startPayment: { method: 'POST', path: /^\/api\/orders\/pay$/ },
    // the order's pages read it too (their loaders): only the checkout's own reads are held
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
    const base = { world: input, token: m.token, accountId: m.id, phases: {}, useBalance: false, agreed: false, method: 'wechat' as const, bridge, left };
    if (input !== 'a visitor') hh.jar.setClientCookie('token', m.token);
    const orderWorld = orderWorldOf(input);
    if (orderWorld) {
      const g = await newGoods(hh.server);
      await credit(hh.server, m.id, orderWorld === 'unpaid' || orderWorld === 'paid' ? 50_000 : BALANCE);
      const no = (await create(hh.server, m.token, { goodsId: g.id })).body.data.orderNo as string;
      const w = { ...base, goodsId: g.id, orderNo: no } as Member;
      if (orderWorld === 'paid') await pay(hh.server, m.token, no, 'balance');
      if (orderWorld === 'cancelled') await hh.server.call('POST', '/api/orders/cancel', { token: m.token, body: { orderNo: no } });
      if (orderWorld === 'paying' || orderWorld.startsWith('failed')) await pay(hh.server, m.token, no, 'wechat');
      if (orderWorld.startsWith('failed')) await settleAtProvider(w as W, 'fail');
      const ui = await hh.open(orderWorlds[orderWorld].resume === 'pay' ? `/orderdetail?orderNo=${no}` : `/payf?orderNo=${no}`);
      return { ...w, ui };
    }
    const phases: Record<number, number> = {};
    let goodsId: number;
    if (input === 'a course') {
      const g = await newGoods(hh.server, { kind: 'training', cardType: null, name: '教培', listPriceCents: 100_000, memberPriceCents: 90_000, uses: null, validityDays: null });
      const day = 86_400_000;
      const now = hh.server.clock.now().getTime();
      const rows = await hh.server.deps.db
        .insert(goodsPhases)
        .values([
          { goodsId: g.id, name: '一期', startsAt: new Date(now + 10 * day), endsAt: new Date(now + 40 * day), sort: 1 },
          { goodsId: g.id, name: '二期', startsAt: new Date(now + 50 * day), endsAt: new Date(now + 80 * day), sort: 2 },
        ])
        .returning();
      phases[OPEN] = rows[0]!.id;
      phases[OTHER] = rows[1]!.id;
      goodsId = g.id;
    } else if (input === 'goods that do not exist') {
      goodsId = 999_999;
    } else {
      goodsId = (await newGoods(hh.server, input === 'goods off the shelf' ? { onShelf: false } : {})).id;
    }
    await credit(hh.server, m.id, BALANCE);
    const coupon = await giveCoupon(hh.server, m.id);
    const ui = await hh.open(`/agreement/payagreement?id=${goodsId}`);
    return { ...base, ui, goodsId, phases, couponId: coupon.id };
  },

  events: {
    'option.choose': async (w, e) => {
      w.phase = e.phaseId as number;
      await w.ui.user.click(document.querySelector(`[data-phase="${w.phases[w.phase]}"] input`)!);
    },
    'coupon.choose': async (w, e) => {
      w.coupon = e.couponId as number | undefined;
      await w.ui.user.click(document.querySelector(`[data-coupon="${w.coupon ? w.couponId : 'none'}"] input`)!);
    },
    'balance.toggle': async (w) => {
      w.useBalance = !w.useBalance;
      await w.ui.user.click(document.querySelector('[data-balance-toggle]')!);
    },
    'agreement.toggle': async (w) => {
      w.agreed = !w.agreed;
      await w.ui.user.click(document.querySelector('input[name="agreePurchase"]')!);
    },
    'method.choose': async (w, e) => {
      w.method = e.method as Member['method'];
      await w.ui.user.click(document.querySelector(`[data-method="${w.method}"] input`)!);
    },
    'checkout.submit': (w) => w.ui.user.click(payButton()!),
    'checkout.retry': (w) => w.ui.user.click(screen.getByRole('button', { name: '重试' })),
    'payment.start': (w) => w.ui.user.click(document.querySelector<HTMLElement>('[data-action="pay-order"]')!),
    'payment.retry': (w) => w.ui.user.click(document.querySelector<HTMLElement>('[data-action="payment-retry"], [data-action="pay-again"]')!),
    'payment.check': (w) => w.ui.user.click(document.querySelector<HTMLElement>('[data-action="check"]')!),
  },

  states: {
    loginRequired: (w) => expect(w.ui.path()).toMatch(/^\/login\//),
    loadingGoods: (w) => {
      expect(document.querySelector('[data-skeleton]')).not.toBe(null);
      expect(w.held.get('loadGoods')?.map((r) => r.path)).toEqual([`/api/product/goods/detail?id=${w.goodsId}`]);
    },
    goodsUnreachable: (w) => {
      expect(sentBy(w, 'loadGoods').at(-1)?.answer).toBe('network');
      expect(screen.getByRole('alert').textContent).toContain('网络无法连接');
    },
    goodsUnavailable: (w) => {
      expect(screen.getByText(w.world === 'goods off the shelf' ? '商品已下架' : '没有找到')).toBeTruthy();
      expect(payButton()).toBe(null);
    },
    choosingOption: () => {
      expect(document.querySelector('[data-phase-choice]')).not.toBe(null);
      expect(payButton()).toBe(null);
    },
    pricing: (w) => {
      const [q] = w.held.get('quote') ?? [];
      expect(q?.body).toEqual({ goodsId: w.goodsId, ...(w.phase ? { phaseId: w.phases[w.phase] } : {}), ...(w.coupon ? { couponId: w.couponId } : {}), useBalance: w.useBalance });
      if (payButton()) expect(payButton()!.disabled).toBe(true);
    },
    pricingUnreachable: (w) => {
      expect(sentBy(w, 'quote').at(-1)?.answer).toBe('network');
      expect(screen.getByRole('alert').textContent).toContain('网络无法连接');
    },
    pricingRefused: async (w) => {
      const code = sentBy(w, 'quote').at(-1)?.answer;
      expect(feedback()).toBe(code === 40007 ? '该优惠券不可用' : '请选择课程阶段');
      expect(await myOrders(w)).toEqual([]);
    },
    reviewing: async (w) => {
      await onForm(w);
      expect(payButton()?.disabled).toBe(false);
    },
    'reviewing.editing': async (w) => {
      expect(feedback()).toBe('');
      expect(await myOrders(w)).toEqual([]);
    },
    'reviewing.agreementMissing': async (w) => {
      expect(feedback()).toBe('请先阅读并同意购买协议');
      expect(w.agreed).toBe(false);
      expect(await myOrders(w)).toEqual([]);
    },
    'reviewing.orderRefused': async (w) => {
      expect(sentBy(w, 'createOrder').at(-1)?.answer).toBe(50006);
      expect(feedback()).toBe('商品库存不足');
      expect(await myOrders(w)).toEqual([]);
    },
    'reviewing.unpaidOrderExists': async (w) => {
      expect(feedback()).toContain('您有未支付的订单，请先支付或取消');
      const other = (await myOrders(w)).find((o) => o.state === 'unpaid');
      const found = sentBy(w, 'findUnpaidOrder').at(-1)?.answer === 200;
      expect(document.querySelector('[data-unpaid-order]')?.getAttribute('href') ?? null).toBe(found ? `/orderdetail?orderNo=${other!.orderNo}` : null);
    },
    'reviewing.priceChanged': async (w) => {
      expect(feedback()).toBe('价格计算有变化，请确认后重新提交');
      expect(await myOrders(w)).toEqual([]);
    },
    creatingOrder: (w) => {
      const [c] = w.held.get('createOrder') ?? [];
      expect(c?.body).toMatchObject({ goodsId: w.goodsId, useBalance: w.useBalance, agreementAccepted: true, ...(w.coupon ? { couponId: w.couponId } : {}) });
      expect(progress()).toBe('正在创建订单…');
      expect(payButton()?.disabled).toBe(true);
    },
    orderUnreachable: (w) => {
      expect(sentBy(w, 'createOrder').at(-1)?.answer).toBe('network');
      expect(feedback()).toBe('网络无法连接');
      expect(payButton()?.textContent).toBe('重试');
    },
    locatingUnpaidOrder: (w) => {
      expect(w.held.get('findUnpaidOrder')).toHaveLength(1);
      expect(payButton()?.disabled).toBe(true);
    },
    loadingOrder: async (w) => {
      await madeOrder(w);
      expect(w.held.get('loadOrder')?.map((r) => r.path)).toEqual([`/api/orders/detail?orderNo=${w.orderNo}`]);
    },
    orderLoadUnreachable: (w) => {
      expect(sentBy(w, 'loadOrder').at(-1)?.answer).toBe('network');
      expect(screen.getByRole('button', { name: '重试' })).toBeTruthy();
    },
    orderMissing: () => expect(screen.getByText('没有找到这个订单')).toBeTruthy(),
    orderClosed: async (w) => {
      expect(w.ui.path()).toBe(`/orderdetail?orderNo=${w.orderNo}`);
      expect(document.querySelector('[data-pay-panel]')).toBe(null);
      expect((await theOrder(w)).state).toBe('cancelled');
    },
    choosingMethod: async (w) => {
      await madeOrder(w);
      expect(w.ui.path()).toBe(`/orderdetail?orderNo=${w.orderNo}`);
      expect(document.querySelector<HTMLInputElement>('input[name="method"]:checked')?.value).toBe(w.method);
      expect(document.querySelector<HTMLButtonElement>('[data-action="pay-order"]')?.disabled).toBe(false);
      expect(['unpaid', 'payment_failed']).toContain((await theOrder(w)).state);
    },
    'paying.requestingPayment': async (w) => {
      const o = await madeOrder(w);
      const [p] = w.held.get('startPayment') ?? [];
      expect(p?.body).toEqual({ orderNo: o!.orderNo, method: o!.amountToPayCents === 0 ? 'balance' : w.method });
      expect(progress()).toBe('正在发起支付…');
    },
    'paying.paymentUnreachable': (w) => {
      expect(sentBy(w, 'startPayment').at(-1)?.answer).toBe('network');
      expect(progress()).toBe('网络无法连接重试');
    },
    'paying.inWechat': async (w) => {
      expect(progress()).toBe('正在打开微信支付…');
      expect((await theOrder(w)).state).toBe('paying');
    },
    'paying.wechatCancelled': async (w) => {
      expect(progress()).toBe('您已取消支付，订单已保留继续支付');
      expect((await theOrder(w)).state).toBe('paying');
    },
    'paying.bridgeUnavailable': () => expect(progress()).toBe('无法打开微信支付，请在微信中打开本页面重试'),
    'paying.handingToAlipay': (w) => {
      expect(w.ui.path()).toBe(`/payt?orderNo=${w.orderNo}`);
      expect(resultPanel()).toBe('handover');
      expect(w.left).toEqual([]);
    },
    'paying.leftForAlipay': (w) => {
      expect(w.left).toHaveLength(1);
      expect(new URL(w.left[0]!, 'http://app.test').pathname).toMatch(/^\/api\/dev\/pay\/alipay\//);
      expect(w.time()).toBeGreaterThanOrEqual(CHECKOUT_HANDOVER_MS);
    },
    paymentRefused: async (w) => {
      expect(sentBy(w, 'startPayment').at(-1)?.answer).toBe(40004);
      expect(screen.getByRole('alert').textContent).toContain('余额不足');
      expect((await theOrder(w)).state).toBe('unpaid');
    },
    awaitingResult: (w) => {
      expect(w.ui.path()).toBe(`/payf?orderNo=${w.orderNo}`);
      expect(resultPanel()).toBe('confirming');
    },
    'awaitingResult.polling': (w) => expect(w.held.get('pollOrder')?.map((r) => r.path)).toEqual([`/api/orders/detail?orderNo=${w.orderNo}`]),
    'awaitingResult.waiting': (w) => expect(w.held.get('pollOrder') ?? []).toEqual([]),
    checking: (w) => {
      expect(w.ui.path()).toBe(`/payf?orderNo=${w.orderNo}`);
      expect(resultPanel()).toBe('checking');
    },
    'checking.idle': () => expect(document.querySelector<HTMLButtonElement>('[data-action="check"]')?.disabled).toBe(false),
    'checking.rechecking': (w) => {
      expect(document.querySelector<HTMLButtonElement>('[data-action="check"]')?.disabled).toBe(true);
      expect(w.held.get('recheckOrder')).toHaveLength(1);
    },
    paid: async (w) => {
      await madeOrder(w);
      expect(w.ui.path()).toBe(`/payf?orderNo=${w.orderNo}`);
      expect(resultPanel()).toBe('paid');
      expect((await theOrder(w)).state).toBe('paid');
      expect(await cardsOf(h.server, w.accountId)).toHaveLength(1);
    },
    failed: async (w) => {
      expect(w.ui.path()).toBe(`/pays?orderNo=${w.orderNo}`);
      expect(resultPanel()).toBe('failed');
      expect((await theOrder(w)).state).toBe('payment_failed');
    },
  },

  effects: {
    // agreed: one order asked for, under a key never sent before; not agreed: nothing sent
    'checkout.submit': (w, _e, before) => {
      const [tap, ...more] = sentBy(w, 'createOrder', before);
      if (!w.agreed) return expect(tap, 'nothing is ordered before the agreement').toBeUndefined();
      expect(more).toEqual([]);
      expect(tap?.key, 'the order carries an Idempotency-Key').toBeDefined();
      expect(sentBy(w, 'createOrder').slice(0, -1).map((r) => r.key), 'a new intent, a new key').not.toContain(tap!.key);
    },
    // a retry repeats what failed, once; an order under the key of the one whose answer was lost
    'checkout.retry': (w, _e, before) => {
      const failed = w.sent.slice(0, before).filter((r) => r.answer === 'network').at(-1);
      const [again, ...more] = w.sent.slice(before).filter((r) => r.invoke);
      expect(more, 'one request').toEqual([]);
      expect(again?.invoke, 'the retry repeats what failed').toBe(failed?.invoke);
      if (again?.invoke === 'createOrder') expect(again.key, 'the same order: the same key').toBe(failed?.key);
    },
    'payment.start': (w, _e, before) => {
      const [tap] = sentBy(w, 'startPayment', before);
      expect(tap?.key, 'the payment carries an Idempotency-Key').toBeDefined();
      expect(sentBy(w, 'startPayment').slice(0, -1).map((r) => r.key), 'a new intent, a new key').not.toContain(tap!.key);
    },
    // a retry never starts a new payment: a lost answer is asked again under its key; WeChat Pay's
    // sheet opens again for the same prepaid payment; after a refusal or a failure the order is read again
    'payment.retry': (w, _e, before) => {
      const [again, ...more] = sentBy(w, 'startPayment', before);
      const lost = w.sent.slice(0, before).filter((r) => r.invoke).at(-1);
      if (lost?.invoke === 'startPayment' && lost.answer === 'network') expect(again?.key, 'a lost payment is asked again under its key').toBe(lost.key);
      else if (again) expect(again.key, 'the same payment: the same key').toBe(sentBy(w, 'startPayment').at(-2)?.key);
      expect(more).toEqual([]);
    },
    // a choice on the form asks for a price, nothing else
    ...Object.fromEntries(
      ['coupon.choose', 'balance.toggle', 'option.choose'].map((type) => [
        type,
        (w: W, _e: unknown, before: number) => expect(w.sent.slice(before).filter((r) => r.invoke).map((r) => r.invoke)).toEqual(['quote']),
      ]),
    ),
    'agreement.toggle': (w, _e, before) => expect(w.sent.slice(before).filter((r) => r.invoke)).toEqual([]),
    'method.choose': (w, _e, before) => expect(w.sent.slice(before).filter((r) => r.invoke)).toEqual([]),
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
function offerFor(e: { type: string; [k: string]: unknown }, c: CheckoutContext, s: { matches(v: unknown): boolean }): boolean {
  const output = e.output as { code: number; data: Record<string, unknown> | null } | undefined;
  const world = c.goodsId;
  const orderWorld = c.goodsId === undefined;
  switch (e.type) {
    case 'xstate.done.actor.loadGoods':
      if (world === GONE) return output!.code === 70004;
      if (world === OFF) return output!.code === 200 && output!.data!.isUable === false;
      if (world === COURSE) return output!.code === 200 && output!.data!.kind === 'training';
      return output!.code === 200 && output!.data!.kind === 'card' && output!.data!.isUable === true;
    case 'xstate.error.actor.loadGoods':
      return world === CARD;
    case 'xstate.done.actor.quote': {
      if (world === COURSE && c.phaseId === OTHER) return output!.code === 50007;
      if (world === LAPSING && c.couponId !== undefined) return output!.code === 40007;
      if (output!.code === 200) return (output!.data!.couponId ?? undefined) === c.couponId;
      return world === CARD && output!.code === 401 && !c.quote;
    }
    case 'xstate.error.actor.quote':
      return world === CARD && !c.quote;
    case 'option.choose':
      // the first phase; then the second (which has just started: refused); then back to the first
      return world === COURSE && (c.phaseId === OPEN ? e.phaseId === OTHER : e.phaseId === OPEN);
    // on the form, in this order, each once: a coupon, the balance, the agreement, another way to pay
    case 'coupon.choose':
      if (world === LAPSING) return e.couponId === undefined ? c.couponId !== undefined : c.couponId === undefined && !s.matches('pricingRefused');
      return world === CARD && e.couponId === COUPON && c.couponId === undefined && !c.useBalance && !c.agreed;
    case 'balance.toggle':
      return world === CARD && !c.useBalance && !c.agreed;
    case 'agreement.toggle':
      return world === CARD && !c.agreed;
    case 'method.choose':
      // on the form in the card world, once agreed; on an unpaid order's page, balance (the member has enough)
      if (orderWorld) return e.method === 'balance' && c.method !== 'balance' && c.order?.state === 'unpaid';
      return world === CARD && c.agreed && c.method === 'wechat';
    case 'checkout.submit':
      // after a refusal that changed the world (sold out, another unpaid order) the path ends
      return world === CARD && !s.matches({ reviewing: 'orderRefused' }) && !s.matches({ reviewing: 'unpaidOrderExists' }) && (c.agreed || c.method === 'wechat');
    case 'xstate.done.actor.createOrder':
      // the refusals once, paying by WeChat; the price changes once per submit at most
      if (output!.code !== 200 && c.method !== 'wechat') return false;
      return !(c.errorCode === 40010 && output!.code === 40010);
    case 'xstate.error.actor.createOrder':
      return c.method === 'wechat';
    case 'xstate.done.actor.startPayment': {
      const payment = output!.data?.payment as { method: string } | null | undefined;
      if (output!.code === 401) return orderWorld;
      if (c.method === 'balance') return orderWorld ? output!.code === 200 && payment === null : output!.code === 40004;
      return output!.code === 200 && payment?.method === c.method;
    }
    case 'xstate.error.actor.startPayment':
      return orderWorld;
    case 'payment.start':
      // WeChat Pay and Alipay are walked from the form; an unpaid order's page pays by balance
      return orderWorld && c.method === 'balance';
    case 'xstate.done.actor.loadOrder':
      return true;
    case 'xstate.done.actor.pollOrder':
    case 'xstate.done.actor.recheckOrder':
    case 'xstate.error.actor.pollOrder':
    case 'xstate.error.actor.recheckOrder':
      // the whole wait is walked for an order being paid when the member comes back; elsewhere it ends paid
      return c.order?.orderNo === 'sym-paying' || output?.data?.state === 'paid';
    case 'xstate.after.30000.checkout.awaitingResult':
    case 'xstate.after.10000.checkout.checking.idle':
    case 'xstate.after.2000.checkout.awaitingResult.waiting':
    case 'payment.check':
      return c.order?.orderNo === 'sym-paying';
    case 'payment.retry':
      // failed: paid again from its page, in the world that starts there
      return !s.matches('failed') || c.order?.orderNo === 'sym-payment_failed';
    default:
      return true;
  }
}
