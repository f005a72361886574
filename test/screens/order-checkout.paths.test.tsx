// @vitest-environment jsdom
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { orderCheckoutMachine, type CheckoutContext, type CheckoutInput } from '../../machines/order-checkout.machine';
import { formatYuan } from '../../src/domain/money';
import type { OrderState } from '../../src/domain/orders';
import { goods as goodsTable, goodsPhases, memberCoupons, orders } from '../../src/server/db/schema/index';
import { create, credit, giveCoupon, newGoods, newMember } from '../server/buying/support';
import { screen, startScreenHarness } from './support/screen-harness';
import { defineScreenPaths, sentBy, type World } from './support/screen-paths';

/**
 * Buying (spec §5 and §8; /agreement/payagreement), on the real screen and server. The
 * member's part: choose a phase, a coupon, the balance (one switch), agree, choose how to pay (the
 * providers: the balance is no choice of its own, decision 038), pay; the order made
 * is then paid by the pay-order chart, whose own paths are test/screens/payment-order.paths.test.tsx:
 * here the path ends when the payment of the new order has been asked for.
 *
 * Worlds, told apart by the goods id the walk starts with (symbols, made real in start): a visitor;
 * a card (¥50 balance, one coupon); a course opened without a phase, and one opened on a closed
 * phase; a card whose coupon lapses while the page is open; goods off the shelf; goods that do not exist.
 */
const h = await startScreenHarness({ seed: true });

// what the screen gives the chart: the providers only (the balance is the switch; decision 038), as the server lists them for a member who never paid by one
const METHODS = ['wechat', 'alipay'] as const;
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

const inputs: Record<string, CheckoutInput> = {
  'a visitor': { signedIn: false, methods: [...METHODS], goodsId: CARD },
  'a card': { signedIn: true, methods: [...METHODS], goodsId: CARD },
  'a course': { signedIn: true, methods: [...METHODS], goodsId: COURSE },
  'a card whose coupon lapses': { signedIn: true, methods: [...METHODS], goodsId: LAPSING },
  'goods off the shelf': { signedIn: true, methods: [...METHODS], goodsId: OFF },
  'goods that do not exist': { signedIn: true, methods: [...METHODS], goodsId: GONE },
};
interface Member {
  world: string;
  token: string;
  accountId: number;
  goodsId: number;
  phases: Record<number, number>;
  couponId?: number;
  /** the order the checkout made */
  orderNo?: string;
  /** what the member did on the form */
  phase?: number;
  coupon?: number;
  useBalance: boolean;
  agreed: boolean;
  method: (typeof METHODS)[number];
  /** how often the member tapped pay, and how often when the last quote was asked for (the path's record) */
  payTaps?: number;
  payTapsAtQuote?: number;
}
type W = World<Member>;

const ok = (data: unknown) => ({ code: 200, status: true, data });
const refusal = (code: number) => ({ code, status: false, data: null });
const quoteOk = (couponId: number | null) => ok({ couponId, amountToPayCents: PRICE, coupons: [] });
const orderOk = (state: OrderState) => ok({ orderNo: 'sym', state, amountToPayCents: PRICE });
const goodsOk = (extra: Record<string, unknown>) =>
  ok({ id: 0, isUable: true, message: null, phases: [], teachers: [], kind: 'card', ...extra });

const feedback = () => document.querySelector('[data-checkout-feedback]')?.textContent ?? null;
const payButton = () => document.querySelector<HTMLButtonElement>('[data-action="pay"]');
const progress = () => document.querySelector('[data-payment-progress]')?.textContent ?? null;
const amountShown = () => document.querySelector('[data-amount-to-pay]')?.textContent ?? null;
const agreementTick = () => document.querySelector<HTMLInputElement>('input[name="agreePurchase"]');

async function myOrders(w: W) {
  return h.server.deps.db.select().from(orders).where(eq(orders.accountId, w.accountId));
}
/** the order the checkout made (the member's newest), remembered for the later steps */
async function madeOrder(w: W) {
  const all = (await myOrders(w)).sort((a, b) => b.id - a.id);
  w.orderNo = all[0]?.orderNo;
  return all[0];
}
/** what the server prices the member's current choices at: the amount the form must show */
async function serverQuote(w: W) {
  const body = {
    goodsId: w.goodsId,
    ...(w.phase ? { phaseId: w.phases[w.phase] } : {}),
    ...(w.coupon ? { couponId: w.couponId } : {}),
    useBalance: w.useBalance,
  };
  const r = await h.server.call('POST', '/api/orders/quote', { token: w.token, body });
  return r.body.data as { amountToPayCents: number; balanceUsedCents: number } | null;
}
const endSession = (w: W) => h.server.call('POST', '/api/oauth/logout', { token: w.token }).then(() => {});
/** the member's login still holds on the server (a lapsed one is sent to log in, never left on the form) */
const stillLoggedIn = async (w: W) =>
  expect((await h.server.call('GET', '/api/customers/balance', { token: w.token })).status, 'the login still holds').toBe(200);

/** on the form, nothing ordered yet from it */
async function onForm(w: W) {
  expect(document.querySelector('[data-checkout-goods]')).not.toBe(null);
  expect(document.querySelector<HTMLInputElement>('[data-balance-toggle]')?.checked).toBe(w.useBalance);
  const chosenCoupon = document.querySelector<HTMLInputElement>('input[name="coupon"]:checked')?.closest('label')?.dataset.coupon;
  if (chosenCoupon !== undefined) expect(chosenCoupon).toBe(w.coupon ? String(w.couponId) : 'none');
  // the amount the server prices these choices at (unless it now refuses them: sold out)
  const quote = await serverQuote(w);
  if (quote) expect(amountShown()).toBe(formatYuan(quote.amountToPayCents));
  // the balance is one switch saying what it does; the ways to pay are the providers only, the chosen one checked
  const balanceEffect = document.querySelector('[data-balance-effect]')?.textContent;
  if (!w.useBalance) expect(balanceEffect).toBe('先用余额抵扣，其余再选择支付方式');
  else if (quote)
    expect(balanceEffect).toBe(
      quote.amountToPayCents === 0
        ? `余额支付全部 ${formatYuan(quote.balanceUsedCents)}`
        : `余额抵扣 ${formatYuan(quote.balanceUsedCents)}，其余 ${formatYuan(quote.amountToPayCents)} 选择支付方式`,
    );
  const offered = [...document.querySelectorAll<HTMLElement>('[data-method-choice] [data-method]')].map((e) => e.dataset.method);
  if (quote && quote.amountToPayCents > 0) {
    expect(offered, 'the providers, never the balance').toEqual([...METHODS]);
    expect(document.querySelector<HTMLInputElement>('input[name="method"]:checked')?.value).toBe(w.method);
  } else if (quote) expect(offered, 'nothing left to pay: no way to choose').toEqual([]);
  // the pay button shows the tick: unticked it asks for it, ticked it pays the amount
  expect(agreementTick()?.checked).toBe(w.agreed);
  expect(document.querySelector('[data-agreement-tick]')?.getAttribute('data-agreement-tick')).toBe(w.agreed ? 'ticked' : 'unticked');
  expect(payButton()?.getAttribute('aria-disabled') ?? null).toBe(w.agreed ? null : 'true');
  if (!w.agreed) expect(payButton()?.textContent).toBe('请先同意《购买协议》');
  else if (quote)
    expect(payButton()?.textContent).toBe(
      quote.amountToPayCents === 0 && quote.balanceUsedCents > 0
        ? `用余额支付 ${formatYuan(quote.balanceUsedCents)}`
        : `支付 ${formatYuan(quote.amountToPayCents)}`,
    );
}

defineScreenPaths<Member>(h, {
  machine: orderCheckoutMachine,
  screen: '/agreement/payagreement',
  inputs,
  cases: {
    'option.choose': [{ phaseId: OPEN }, { phaseId: OTHER }],
    'coupon.choose': [{ couponId: COUPON }, { couponId: undefined }],
    // the providers only: the balance is the switch (decision 038)
    'method.choose': [{ method: 'alipay' }],
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
        answer: {
          server: true,
          arrange: (w: W) =>
            h.server.deps.db
              .update(goodsPhases)
              .set({ startsAt: h.server.clock.now() })
              .where(eq(goodsPhases.id, w.phases[OTHER]!))
              .then(() => {}),
        },
      },
      {
        output: refusal(40007),
        // the coupon lapsed while the page was open
        answer: {
          server: true,
          arrange: (w: W) =>
            h.server.deps.db
              .update(memberCoupons)
              .set({ validUntil: h.server.clock.now() })
              .where(eq(memberCoupons.id, w.couponId!))
              .then(() => {}),
        },
      },
      { output: refusal(401), answer: { server: true, arrange: endSession } },
    ],
    'xstate.error.actor.quote': [{ error: new Error('network') }],
    'xstate.done.actor.createOrder': [
      { output: orderOk('unpaid'), answer: { server: true } },
      // an order made on another phone a moment ago, not paid yet
      {
        output: refusal(40001),
        answer: { server: true, arrange: (w: W) => create(h.server, w.token, { goodsId: w.goodsId }).then(() => {}) },
      },
      // the price changed since the quote: a little dearer each time
      {
        output: refusal(40010),
        answer: {
          server: true,
          arrange: async (w: W) => {
            const [g] = await h.server.deps.db.select().from(goodsTable).where(eq(goodsTable.id, w.goodsId));
            await h.server.deps.db
              .update(goodsTable)
              .set({ memberPriceCents: g!.memberPriceCents + 100 })
              .where(eq(goodsTable.id, w.goodsId));
          },
        },
      },
      // the last one sold a moment ago
      {
        output: refusal(50006),
        answer: {
          server: true,
          arrange: (w: W) =>
            h.server.deps.db
              .update(goodsTable)
              .set({ stock: 0 })
              .where(eq(goodsTable.id, w.goodsId))
              .then(() => {}),
        },
      },
      { output: refusal(401), answer: { server: true, arrange: endSession } },
    ],
    'xstate.error.actor.createOrder': [{ error: new Error('network') }],
    'xstate.done.actor.findUnpaidOrder': [{ output: 'found', answer: { server: true } }],
    'xstate.error.actor.findUnpaidOrder': [{ error: new Error('network') }],
  },
  offer: (e, s) => offerFor(e, s.context as CheckoutContext, s),
  // the coupon and the balance change the amount, not the way: one walk goes on from either
  project: (c: CheckoutContext) => ({
    agreed: c.agreed,
    method: c.method,
    phase: c.phaseId ?? null,
    errorCode: c.errorCode ?? null,
    quoted: !!c.quote,
    ordered: !!c.order,
  }),
  requests: {
    loadGoods: { method: 'GET', path: /^\/api\/product\/goods\/detail$/ },
    quote: { method: 'POST', path: /^\/api\/orders\/quote$/ },
    createOrder: { method: 'POST', path: /^\/api\/orders\/create$/ },
    findUnpaidOrder: { method: 'GET', path: /^\/api\/orders\/mine$/ },
    // the payment of the new order, asked for by the pay-order chart: held, so the path ends there
    startPayment: { method: 'POST', path: /^\/api\/orders\/pay$/ },
  },

  async start(hh, input) {
    const m = await newMember(hh.server);
    const base = { world: input, token: m.token, accountId: m.id, phases: {}, useBalance: false, agreed: false, method: 'wechat' as const };
    if (input !== 'a visitor') hh.jar.setClientCookie('token', m.token);
    const phases: Record<number, number> = {};
    let goodsId: number;
    if (input === 'a course') {
      const g = await newGoods(hh.server, {
        kind: 'training',
        cardType: null,
        name: '教培',
        listPriceCents: 100_000,
        memberPriceCents: 90_000,
        uses: null,
        validityDays: null,
      });
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
      await w.ui.user.click(agreementTick()!);
    },
    'method.choose': async (w, e) => {
      w.method = e.method as Member['method'];
      await w.ui.user.click(document.querySelector(`[data-method="${w.method}"] input`)!);
    },
    'checkout.submit': (w) => {
      w.payTaps = (w.payTaps ?? 0) + 1;
      return w.ui.user.click(payButton()!);
    },
    'checkout.retry': (w) => w.ui.user.click(screen.getByRole('button', { name: '重试' })),
  },

  states: {
    loginRequired: (w) => expect(w.ui.path()).toMatch(/^\/login\//),
    loadingGoods: async (w) => {
      await stillLoggedIn(w);
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
    pricing: async (w) => {
      w.payTapsAtQuote = w.payTaps ?? 0;
      await stillLoggedIn(w);
      const [q] = w.held.get('quote') ?? [];
      expect(q?.body).toEqual({
        goodsId: w.goodsId,
        ...(w.phase ? { phaseId: w.phases[w.phase] } : {}),
        ...(w.coupon ? { couponId: w.couponId } : {}),
        useBalance: w.useBalance,
      });
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
      await stillLoggedIn(w);
      await onForm(w);
      expect(payButton()?.disabled).toBe(false);
    },
    'reviewing.editing': async (w) => {
      expect(feedback()).toBe('');
      expect(await myOrders(w)).toEqual([]);
    },
    'reviewing.agreementMissing': async (w) => {
      expect(w.payTaps ?? 0, 'said only after a tap on pay since the price was shown').toBeGreaterThan(w.payTapsAtQuote ?? 0);
      expect(feedback()).toBe('请先阅读并同意购买协议');
      expect(w.agreed).toBe(false);
      // the tap pointed at the tick
      expect(document.activeElement, 'the tick has the focus').toBe(agreementTick());
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
      // found: that order's page; not found (no answer): the list's to-pay tab, which holds it
      expect(screen.getByRole('link', { name: '查看未支付的订单' }).getAttribute('href')).toBe(
        found ? `/orderdetail?orderNo=${other!.orderNo}` : '/mine/orders?status=to_pay',
      );
    },
    'reviewing.priceChanged': async (w) => {
      expect(feedback()).toBe('价格计算有变化，请确认后重新提交');
      expect(await myOrders(w)).toEqual([]);
    },
    creatingOrder: (w) => {
      const [c] = w.held.get('createOrder') ?? [];
      expect(c?.body).toMatchObject({
        goodsId: w.goodsId,
        useBalance: w.useBalance,
        agreementAccepted: true,
        ...(w.coupon ? { couponId: w.couponId } : {}),
      });
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
    paying: async (w) => {
      const o = await madeOrder(w);
      expect(o?.state, 'the order is made, not paid yet').toBe('unpaid');
      const [p] = w.held.get('startPayment') ?? [];
      expect(p?.body, 'its payment is asked for, the way chosen on the form').toEqual({
        orderNo: o!.orderNo,
        method: o!.amountToPayCents === 0 ? 'balance' : w.method,
      });
      expect(p?.key, 'under an Idempotency-Key').toBeDefined();
      expect(progress()).toBe('正在发起支付…');
      expect(payButton()?.disabled).toBe(true);
    },
  },

  effects: {
    // agreed: one order asked for, under a key never sent before; not agreed: nothing sent
    'checkout.submit': (w, _e, before) => {
      const [tap, ...more] = sentBy(w, 'createOrder', before);
      if (!w.agreed) return expect(tap, 'nothing is ordered before the agreement').toBeUndefined();
      expect(more).toEqual([]);
      expect(tap?.key, 'the order carries an Idempotency-Key').toBeDefined();
      expect(
        sentBy(w, 'createOrder')
          .slice(0, -1)
          .map((r) => r.key),
        'a new intent, a new key',
      ).not.toContain(tap!.key);
    },
    // a retry repeats what failed, once; an order under the key of the one whose answer was lost
    'checkout.retry': (w, _e, before) => {
      const failed = w.sent
        .slice(0, before)
        .filter((r) => r.answer === 'network')
        .at(-1);
      const [again, ...more] = w.sent.slice(before).filter((r) => r.invoke);
      expect(more, 'one request').toEqual([]);
      expect(again?.invoke, 'the retry repeats what failed').toBe(failed?.invoke);
      if (again?.invoke === 'createOrder') expect(again.key, 'the same order: the same key').toBe(failed?.key);
    },
    // a choice on the form asks for a price, nothing else
    ...Object.fromEntries(
      ['coupon.choose', 'balance.toggle', 'option.choose'].map((type) => [
        type,
        (w: W, _e: unknown, before: number) =>
          expect(
            w.sent
              .slice(before)
              .filter((r) => r.invoke)
              .map((r) => r.invoke),
          ).toEqual(['quote']),
      ]),
    ),
    'agreement.toggle': (w, _e, before) => expect(w.sent.slice(before).filter((r) => r.invoke)).toEqual([]),
    'method.choose': (w, _e, before) => expect(w.sent.slice(before).filter((r) => r.invoke)).toEqual([]),
  },
});

/** The walk, pruned to what a member does once per path and to what each world's server will answer. */
function offerFor(e: { type: string; [k: string]: unknown }, c: CheckoutContext, s: { matches(v: unknown): boolean }): boolean {
  const output = e.output as { code: number; data: Record<string, unknown> | null } | undefined;
  const world = c.goodsId;
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
      if (world === LAPSING)
        return e.couponId === undefined ? c.couponId !== undefined : c.couponId === undefined && !s.matches('pricingRefused');
      return world === CARD && e.couponId === COUPON && c.couponId === undefined && !c.useBalance && !c.agreed;
    case 'balance.toggle':
      return world === CARD && !c.useBalance && !c.agreed;
    case 'agreement.toggle':
      return world === CARD && !c.agreed;
    case 'method.choose':
      // on the form in the card world, once agreed
      return world === CARD && c.agreed && c.method === 'wechat';
    case 'checkout.submit':
      // after a refusal that changed the world (sold out, another unpaid order) the path ends
      return (
        world === CARD &&
        !s.matches({ reviewing: 'orderRefused' }) &&
        !s.matches({ reviewing: 'unpaidOrderExists' }) &&
        (c.agreed || c.method === 'wechat')
      );
    case 'xstate.done.actor.createOrder':
      // the refusals once, paying by WeChat; the price changes once per submit at most
      if (output!.code !== 200 && c.method !== 'wechat') return false;
      return !(c.errorCode === 40010 && output!.code === 40010);
    case 'xstate.error.actor.createOrder':
      return c.method === 'wechat';
    default:
      return true;
  }
}
