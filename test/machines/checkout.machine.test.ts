import { createActor, fromPromise, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { describe, expect, it } from 'vitest';
import type { GoodsDetail } from '../../src/api/goods';
import type { Order, PayAnswer, Quote } from '../../src/api/orders';
import type { Envelope } from '../../src/domain/envelope';
import { Errors } from '../../src/domain/errors';
import type { OrderState } from '../../src/domain/orders';
import { checkoutMachine, type CheckoutContext, type CheckoutInput } from '../../machines/checkout.machine';
import { defineModelTest } from './support/define-model-test';

const ok = <T>(data: T): Envelope<T> => ({ code: 200, status: true, data });
const refusal = <T>(code: number) => ({ code, status: false, data: null }) as unknown as Envelope<T>;

const goods = (extra: Partial<GoodsDetail> = {}): GoodsDetail =>
  ({
    id: 7,
    kind: 'card',
    cardType: 'count',
    name: '次卡 10 次',
    image: '',
    listPriceCents: 100000,
    memberPriceCents: 90000,
    stock: null,
    sellNumber: 0,
    maxNumber: null,
    onShelf: true,
    uses: 10,
    validityDays: 365,
    clubId: null,
    teacherId: null,
    startsAt: null,
    endsAt: null,
    newCustomersOnly: false,
    perPersonLimit: null,
    isUable: true,
    message: null,
    description: '',
    ...extra,
  }) as GoodsDetail;

const quote = (extra: Partial<Quote> = {}): Quote => ({
  goodsId: 7,
  goodsName: '次卡 10 次',
  kind: 'card',
  phaseId: null,
  teacherId: null,
  couponId: null,
  listPriceCents: 100000,
  memberPriceCents: 90000,
  priceCents: 90000,
  couponDeductionCents: 0,
  balanceCents: 0,
  balanceUsedCents: 0,
  amountToPayCents: 90000,
  coupons: [],
  ...extra,
});

const order = (state: OrderState, extra: Partial<Order> = {}): Order => ({
  orderNo: 'O1',
  goodsId: 7,
  goodsName: '次卡 10 次',
  goodsKind: 'card',
  goodsImage: '',
  quantity: 1,
  listPriceCents: 100000,
  memberPriceCents: 90000,
  priceCents: 90000,
  couponDeductionCents: 0,
  balanceUsedCents: 0,
  amountToPayCents: 90000,
  state,
  payMethod: null,
  issuedCardId: null,
  actions: [],
  createdAt: '2026-11-22T01:00:00.000Z',
  paidAt: null,
  cancelledAt: null,
  ...extra,
});

const jsapi = { appId: 'wx1', timeStamp: '1', nonceStr: 'n', package: 'prepay_id=wx9', signType: 'RSA' as const, paySign: 's' };
const byBalance = ok<PayAnswer>({ order: order('paid', { payMethod: 'balance' }), payment: null });
const byWechat = ok<PayAnswer>({ order: order('paying'), payment: { method: 'wechat', prepayId: 'wx9', jsapi } });
const byAlipay = ok<PayAnswer>({ order: order('paying'), payment: { method: 'alipay', url: 'https://alipay.example/pay', form: { action: 'x', fields: {} } } });
const network = { error: new Error('network') };
const methods: CheckoutInput['methods'] = ['balance', 'wechat', 'alipay'];
const orderOutcomes = (['paid', 'paying', 'unpaid', 'payment_failed', 'cancelled'] as const).map((s) => ({ output: ok(order(s)) }));
const pollOutcomes = [...(['paid', 'payment_failed', 'paying', 'cancelled'] as const).map((s) => ({ output: ok(order(s)) })), { output: refusal(404) }];

defineModelTest({
  machine: checkoutMachine,
  inputs: {
    'a member on payagreement?id=7': { signedIn: true, methods, goodsId: 7 } satisfies CheckoutInput,
    'a visitor on payagreement?id=7': { signedIn: false, methods, goodsId: 7 } satisfies CheckoutInput,
    'pay from orderdetail?orderNo=O1': { signedIn: true, methods, orderNo: 'O1', resume: 'pay' } satisfies CheckoutInput,
    'back from the provider on payf?orderNo=O1': { signedIn: true, methods, orderNo: 'O1', resume: 'result' } satisfies CheckoutInput,
  },
  cases: {
    'xstate.done.actor.loadGoods': [
      { output: ok(goods()) },
      { output: ok(goods({ kind: 'training', phases: [{ id: 1, name: '一阶', startsAt: null, endsAt: null }] })) },
      { output: ok(goods({ isUable: false, message: '手速不够快' })) },
      { output: refusal(404) },
      { output: refusal(401) },
    ],
    'xstate.error.actor.loadGoods': [network],
    'xstate.done.actor.quote': [{ output: ok(quote()) }, { output: refusal(40007) }, { output: refusal(401) }],
    'xstate.error.actor.quote': [network],
    'xstate.done.actor.createOrder': [{ output: ok(order('unpaid')) }, { output: refusal(40001) }, { output: refusal(40010) }, { output: refusal(50006) }, { output: refusal(401) }],
    'xstate.error.actor.createOrder': [network],
    'xstate.done.actor.findUnpaidOrder': [{ output: 'O9' }],
    'xstate.error.actor.findUnpaidOrder': [network],
    'xstate.done.actor.loadOrder': [...orderOutcomes, { output: refusal(404) }, { output: refusal(401) }],
    'xstate.error.actor.loadOrder': [network],
    'xstate.done.actor.startPayment': [{ output: byBalance }, { output: byWechat }, { output: byAlipay }, { output: refusal(40004) }, { output: refusal(401) }],
    'xstate.error.actor.startPayment': [network],
    'xstate.done.actor.wechatPay': [{ output: 'ok' }, { output: 'cancel' }, { output: 'fail' }],
    'xstate.error.actor.wechatPay': [network],
    'xstate.done.actor.openAlipay': [{ output: undefined }],
    'xstate.error.actor.openAlipay': [network],
    'xstate.done.actor.pollOrder': pollOutcomes,
    'xstate.error.actor.pollOrder': [network],
    'xstate.done.actor.recheckOrder': pollOutcomes,
    'xstate.error.actor.recheckOrder': [network],
    'option.choose': [{ phaseId: 1 }],
    'coupon.choose': [{ couponId: 3 }],
    'method.choose': [{ method: 'alipay' }],
  },
  offer: (e: AnyEventObject, s: AnyMachineSnapshot) => {
    const c = s.context as CheckoutContext;
    // each choice once, before agreeing: keeps the graph small (coverage is measured on the definition)
    if (e.type === 'coupon.choose') return c.couponId === undefined;
    if (e.type === 'balance.toggle') return !c.useBalance && !c.agreed;
    if (e.type === 'method.choose') return c.method !== 'alipay' && !c.agreed;
    if (e.type === 'option.choose') return c.phaseId === undefined;
    if (e.type === 'agreement.toggle') return !c.agreed;
    return true;
  },
  project: (c: CheckoutContext) => ({
    goods: !!c.goods,
    quote: !!c.quote,
    agreed: c.agreed,
    createKey: !!c.createKey,
    payKey: !!c.payKey,
    order: c.order?.state ?? (c.order ? 'known' : null),
    payment: c.payment?.method ?? null,
    errorCode: c.errorCode ?? null,
    unpaidOrderNo: c.unpaidOrderNo ?? null,
  }),
});

/** A checkout actor with scripted actors; `calls` records what each was sent. */
function run(input: CheckoutInput, over: Partial<Record<string, (input: never) => Promise<unknown>>>) {
  const calls: Record<string, unknown[]> = {};
  const actor = (name: string, fallback: () => Promise<unknown>) =>
    fromPromise(async ({ input: i }: { input: unknown }) => {
      (calls[name] ??= []).push(i);
      return (over[name] ?? fallback)(i as never);
    });
  let changed = 0;
  const a = createActor(
    checkoutMachine.provide({
      actors: {
        loadGoods: actor('loadGoods', async () => ok(goods())),
        quote: actor('quote', async () => ok(quote())),
        createOrder: actor('createOrder', async () => ok(order('unpaid'))),
        findUnpaidOrder: actor('findUnpaidOrder', async () => 'O9'),
        loadOrder: actor('loadOrder', async () => ok(order('paid'))),
        startPayment: actor('startPayment', async () => byWechat),
        wechatPay: actor('wechatPay', async () => 'ok'),
        openAlipay: actor('openAlipay', async () => undefined),
      } as never,
      actions: { purchaseChanged: () => void changed++ },
    }),
    { input },
  ).start();
  return { actor: a, calls, changed: () => changed };
}
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('checkout machine: what it sends', () => {
  it('branches on the catalogue codes of src/domain/errors.ts', () => {
    expect([Errors.loginExpired.code, Errors.unpaidOrderExists.code, Errors.priceChanged.code, Errors.goodsOffShelf.code]).toEqual([401, 40001, 40010, 50002]);
  });

  it('prices coupon and balance on the server, and a double tap on pay creates one order', async () => {
    const { actor, calls } = run({ signedIn: true, methods, goodsId: 7 }, {
      // the server echoes the coupon it applied
      quote: async (b: { couponId?: number }) => ok(quote({ couponId: b.couponId ?? null })),
      createOrder: () => new Promise(() => {}),
    });
    await tick();
    actor.send({ type: 'coupon.choose', couponId: 3 });
    await tick();
    actor.send({ type: 'balance.toggle' });
    await tick();
    expect(calls.quote!.at(-1)).toEqual({ goodsId: 7, phaseId: undefined, teacherId: undefined, couponId: 3, useBalance: true });
    actor.send({ type: 'checkout.submit' });
    expect(actor.getSnapshot().matches({ reviewing: 'agreementMissing' })).toBe(true);
    actor.send({ type: 'agreement.toggle' });
    actor.send({ type: 'checkout.submit' });
    actor.send({ type: 'checkout.submit' });
    await tick();
    expect(calls.createOrder).toHaveLength(1);
    // with the amount the member was shown, so a price changed in between is refused (40010), not charged
    expect(calls.createOrder![0]).toMatchObject({ body: { goodsId: 7, couponId: 3, useBalance: true, expectedAmountToPayCents: 90000, agreementAccepted: true } });
  });

  it('reuses the order key on retry and makes a new one for a new attempt', async () => {
    let fail = true;
    const { actor, calls } = run({ signedIn: true, methods, goodsId: 7 }, {
      createOrder: async () => {
        if (fail) throw new Error('network');
        return refusal(50006);
      },
    });
    await tick();
    actor.send({ type: 'agreement.toggle' });
    actor.send({ type: 'checkout.submit' });
    await tick();
    expect(actor.getSnapshot().value).toBe('orderUnreachable');
    fail = false;
    actor.send({ type: 'checkout.retry' });
    await tick();
    expect(actor.getSnapshot().matches({ reviewing: 'orderRefused' })).toBe(true);
    actor.send({ type: 'checkout.submit' });
    await tick();
    const keys = (calls.createOrder as Array<{ idempotencyKey: string }>).map((c) => c.idempotencyKey);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
  });

  it('pays by WeChat with the server pay-sign, then polls the order until paid', async () => {
    const states: OrderState[] = ['paying', 'paid'];
    const { actor, calls, changed } = run({ signedIn: true, methods, goodsId: 7 }, { loadOrder: async () => ok(order(states.shift() ?? 'paid')) });
    await tick();
    actor.send({ type: 'agreement.toggle' });
    actor.send({ type: 'checkout.submit' });
    await tick();
    expect(calls.startPayment![0]).toMatchObject({ orderNo: 'O1', method: 'wechat' });
    expect(calls.wechatPay![0]).toEqual({ jsapi, orderNo: 'O1' });
    await tick();
    expect(actor.getSnapshot().matches({ awaitingResult: 'waiting' })).toBe(true);
    expect(changed()).toBe(0);
  });

  it('a price changed between quote and order (40010) is priced again and shown; paying again sends the new amount', async () => {
    const amounts = [90000, 95000];
    const { actor, calls } = run({ signedIn: true, methods, goodsId: 7 }, {
      quote: async () => ok(quote({ amountToPayCents: amounts.shift() ?? 95000 })),
      createOrder: async (i: { body: { expectedAmountToPayCents?: number } }) => (i.body.expectedAmountToPayCents === 95000 ? ok(order('unpaid')) : refusal(40010)),
      startPayment: () => new Promise(() => {}),
    });
    await tick();
    actor.send({ type: 'agreement.toggle' });
    actor.send({ type: 'checkout.submit' });
    await tick();
    expect(actor.getSnapshot().matches({ reviewing: 'priceChanged' })).toBe(true);
    expect(actor.getSnapshot().context.quote?.amountToPayCents).toBe(95000);
    actor.send({ type: 'checkout.submit' });
    await tick();
    expect(actor.getSnapshot().matches({ paying: 'requestingPayment' })).toBe(true);
    expect((calls.createOrder as Array<{ body: { expectedAmountToPayCents: number } }>).map((c) => c.body.expectedAmountToPayCents)).toEqual([90000, 95000]);
  });

  it('settles an order with nothing left to pay by the balance call', async () => {
    const { actor, calls } = run({ signedIn: true, methods, goodsId: 7 }, {
      createOrder: async () => ok(order('unpaid', { amountToPayCents: 0, balanceUsedCents: 90000 })),
      startPayment: async () => byBalance,
    });
    await tick();
    actor.send({ type: 'balance.toggle' });
    await tick();
    actor.send({ type: 'agreement.toggle' });
    actor.send({ type: 'checkout.submit' });
    await tick();
    expect(calls.startPayment![0]).toMatchObject({ method: 'balance' });
    expect(actor.getSnapshot().value).toBe('paid');
  });
});
