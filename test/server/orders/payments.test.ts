import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { goods, paymentAttempts, payments, payStandInOrders } from '../../../src/server/db/schema/index';
import { runDueJobs } from '../../../src/server/jobs/runner';
import { PaymentProviderError, type PaymentResult } from '../../../src/server/gateways/payments/types';
import { payOrder } from '../../../src/server/services/orders/pay';
import { PAYMENT_QUERY_AFTER_MS, settlePayment } from '../../../src/server/services/orders/settle';
import { startTestServer } from '../support/harness';
import { memberWithPassword } from '../auth/support';
import { cardsOf, create, credit, newGoods, newMember, newMemberWithoutOpenId, newStaff, orderRow, pay } from './support';

/**
 * Payments through the stand-ins: their /simulate sends real signed notifications to our notify
 * routes in-process, so verification, the one-transaction settle and goods issue all run.
 */
describe('orders paid by WeChat Pay and Alipay (stand-ins)', async () => {
  const s = await startTestServer({ seed: true });
  const wechatSim = (body: Record<string, unknown>) => s.call('POST', '/api/dev/pay/wechat/simulate', { body });
  const alipaySim = (body: Record<string, unknown>) => s.call('POST', '/api/dev/pay/alipay/simulate', { body });

  async function paying(method: 'wechat' | 'alipay') {
    const m = await newMember(s);
    const g = await newGoods(s);
    const no = (await create(s, m.token, { goodsId: g.id })).body.data.orderNo as string;
    const res = await pay(s, m.token, no, method);
    expect(res.body.code).toBe(200);
    expect(res.body.data.order.state).toBe('paying');
    // the member opens the mobile cashier (the stand-in knows the trade from then on)
    if (method === 'alipay') expect((await s.app.request(res.body.data.payment.url)).status).toBe(200);
    return { m, g, no, payment: res.body.data.payment };
  }
  const paymentRows = async (no: string) => {
    const o = await orderRow(s, no);
    return s.deps.db.select().from(payments).where(eq(payments.orderId, o.id));
  };

  it('wechat: prepay answers the JSAPI parameters; the notification pays the order and issues the card once', async () => {
    const { m, no, payment } = await paying('wechat');
    expect(payment).toMatchObject({ method: 'wechat', jsapi: { signType: 'RSA' } });
    const sim = await wechatSim({ prepayId: payment.prepayId, outcome: 'pay', deliveries: 2 });
    expect(sim.body.data.deliveries.map((d: { status: number }) => d.status)).toEqual([204, 204]);
    const o = await orderRow(s, no);
    expect(o).toMatchObject({ state: 'paid', payMethod: 'wechat' });
    expect(await paymentRows(no)).toHaveLength(1);
    expect(await cardsOf(s, m.id)).toHaveLength(1);
  });

  it('alipay: the notification pays the order once, delivered twice', async () => {
    const { m, no, payment } = await paying('alipay');
    expect(payment.method).toBe('alipay');
    const sim = await alipaySim({ outTradeNo: `${no}-1`, outcome: 'pay', deliveries: 2 });
    expect(sim.body.data.deliveries.map((d: { body: string }) => d.body)).toEqual(['success', 'success']);
    expect((await orderRow(s, no)).state).toBe('paid');
    expect(await paymentRows(no)).toHaveLength(1);
    expect(await cardsOf(s, m.id)).toHaveLength(1);
  });

  it.each(['signature', 'body', 'serial', 'mchid', 'appid'])('wechat forged (%s): refused, the order is unchanged', async (tamper) => {
    const { m, no, payment } = await paying('wechat');
    const sim = await wechatSim({ prepayId: payment.prepayId, outcome: 'pay', tamper });
    expect(sim.body.data.deliveries[0].status).not.toBe(204);
    expect((await orderRow(s, no)).state).toBe('paying');
    expect(await paymentRows(no)).toHaveLength(0);
    expect(await cardsOf(s, m.id)).toHaveLength(0);
  });

  it('alipay forged signature: refused ("fail"), the order is unchanged', async () => {
    const { no } = await paying('alipay');
    const sim = await alipaySim({ outTradeNo: `${no}-1`, outcome: 'pay', tamper: 'signature' });
    expect(sim.body.data.deliveries[0].body).toBe('fail');
    expect((await orderRow(s, no)).state).toBe('paying');
  });

  it('a validly signed notification with a wrong amount records nothing: the provider is asked at once and its answer pays the order (decision 021)', async () => {
    const { m, no, payment } = await paying('wechat');
    await wechatSim({ prepayId: payment.prepayId, outcome: 'pay', tamper: 'amount' });
    expect((await orderRow(s, no)).state).toBe('paid');
    expect((await paymentRows(no)).map((p) => [p.status, p.source])).toEqual([['paid', 'query']]);
    expect(await cardsOf(s, m.id)).toHaveLength(1);
  });

  it('no notification: the query fallback job settles the order after 2 minutes; a late notification changes nothing', async () => {
    const { m, no, payment } = await paying('wechat');
    await wechatSim({ prepayId: payment.prepayId, outcome: 'pay', deliveries: 0 });
    expect((await orderRow(s, no)).state).toBe('paying');
    await runDueJobs(s.deps);
    expect((await orderRow(s, no)).state).toBe('paying');
    s.clock.advance(PAYMENT_QUERY_AFTER_MS);
    await runDueJobs(s.deps);
    expect((await orderRow(s, no)).state).toBe('paid');
    expect((await paymentRows(no)).map((p) => p.source)).toEqual(['query']);
    // the notification comes late: same provider txn id, nothing changes
    const late = await wechatSim({ prepayId: payment.prepayId, outcome: 'pay' });
    expect(late.body.data.deliveries[0].status).toBe(204);
    expect(await paymentRows(no)).toHaveLength(1);
    expect(await cardsOf(s, m.id)).toHaveLength(1);
  });

  it('the query fallback and a notification racing agree: paid once, one payment, one card', async () => {
    const { m, no, payment } = await paying('alipay');
    await alipaySim({ outTradeNo: `${no}-1`, outcome: 'pay', deliveries: 0 });
    s.clock.advance(PAYMENT_QUERY_AFTER_MS);
    await Promise.all([
      runDueJobs(s.deps),
      alipaySim({ outTradeNo: `${no}-1`, outcome: 'pay' }),
      alipaySim({ outTradeNo: `${no}-1`, outcome: 'pay' }),
    ]);
    expect((await orderRow(s, no)).state).toBe('paid');
    expect(await paymentRows(no)).toHaveLength(1);
    expect(await cardsOf(s, m.id)).toHaveLength(1);
    void payment;
  });

  it('wechat fails, the member pays again by WeChat: a new out_trade_no, a new prepay; paid once, one card', async () => {
    const { m, no, payment } = await paying('wechat');
    const failed = await wechatSim({ prepayId: payment.prepayId, outcome: 'fail' });
    expect(failed.body.data.outTradeNo).toBe(`${no}-1`);
    // WeChat Pay notifies successes only: the query job learns the failure
    s.clock.advance(PAYMENT_QUERY_AFTER_MS);
    await runDueJobs(s.deps);
    expect((await orderRow(s, no)).state).toBe('payment_failed');
    const again = await pay(s, m.token, no, 'wechat');
    expect(again.body.code).toBe(200);
    expect(again.body.data.order.state).toBe('paying');
    expect(again.body.data.payment.prepayId).not.toBe(payment.prepayId);
    const paid = await wechatSim({ prepayId: again.body.data.payment.prepayId, outcome: 'pay' });
    expect(paid.body.data).toMatchObject({ outTradeNo: `${no}-2`, state: 'SUCCESS', deliveries: [{ status: 204 }] });
    expect((await orderRow(s, no)).state).toBe('paid');
    expect((await paymentRows(no)).map((p) => p.status).sort()).toEqual(['failed', 'paid']);
    expect(await cardsOf(s, m.id)).toHaveLength(1);
    // the first attempt's failure, asked about again, never unpays the order
    s.clock.advance(PAYMENT_QUERY_AFTER_MS);
    await runDueJobs(s.deps);
    expect((await orderRow(s, no)).state).toBe('paid');
  });

  it('alipay TRADE_CLOSED, the member pays again by Alipay: a new trade (out_trade_no -2) is paid; one card', async () => {
    const { m, no } = await paying('alipay');
    await alipaySim({ outTradeNo: `${no}-1`, outcome: 'fail' });
    expect((await orderRow(s, no)).state).toBe('payment_failed');
    const again = await pay(s, m.token, no, 'alipay');
    expect(again.body.code).toBe(200);
    expect((await s.app.request(again.body.data.payment.url)).status).toBe(200);
    await alipaySim({ outTradeNo: `${no}-2`, outcome: 'pay' });
    expect((await orderRow(s, no)).state).toBe('paid');
    expect(await cardsOf(s, m.id)).toHaveLength(1);
  });

  it('a paying order with too little balance: the balance refused leaves its trade open; cancelling closes the trade at the provider first', async () => {
    const { m, no } = await paying('wechat');
    expect((await pay(s, m.token, no, 'balance')).body.code).toBe(40004);
    expect((await orderRow(s, no)).state).toBe('paying');
    expect((await s.call('GET', `/api/orders/detail?orderNo=${no}`, { token: m.token })).body.data.actions).toEqual(['pay', 'cancel']);
    expect((await s.call('POST', '/api/orders/cancel', { token: m.token, body: { orderNo: no } })).body.code).toBe(200);
    const o = await orderRow(s, no);
    expect(o.state).toBe('cancelled');
    expect((await s.deps.db.select().from(paymentAttempts).where(eq(paymentAttempts.orderId, o.id))).map((a) => a.state)).toEqual([
      'closed',
    ]);
    const [trade] = await s.deps.db
      .select()
      .from(payStandInOrders)
      .where(eq(payStandInOrders.outTradeNo, `${no}-1`));
    expect(trade?.state, 'closed at WeChat Pay too').toBe('CLOSED');
  });

  it('paying a paying order by balance closes its trade first (decision 013): paid once, by the balance', async () => {
    const { m, no } = await paying('wechat');
    await credit(s, m.id, 19_900);
    const paid = await pay(s, m.token, no, 'balance');
    expect(paid.body.data.order).toMatchObject({ state: 'paid', payMethod: 'balance' });
    const o = await orderRow(s, no);
    expect((await s.deps.db.select().from(paymentAttempts).where(eq(paymentAttempts.orderId, o.id))).map((a) => a.state)).toEqual([
      'closed',
    ]);
    expect(await cardsOf(s, m.id)).toHaveLength(1);
  });

  it("GET /pay/methods lists the provider the member paid with last first (after the balance), so it is preselected; a failed payment or another member's does not count (decision 038)", async () => {
    const methodsOf = async (token: string) => (await s.call('GET', '/api/pay/methods', { token })).body.data.methods;
    const { m, no } = await paying('alipay');
    expect(await methodsOf(m.token), 'paid by none yet: as offered').toEqual(['balance', 'wechat', 'alipay']);
    await alipaySim({ outTradeNo: `${no}-1`, outcome: 'pay' });
    expect((await orderRow(s, no)).state).toBe('paid');
    expect(await methodsOf(m.token), 'paid by Alipay last').toEqual(['balance', 'alipay', 'wechat']);
    // a WeChat Pay payment that failed leaves Alipay first; one that succeeds puts WeChat Pay first
    const g = await newGoods(s);
    const failed = (await create(s, m.token, { goodsId: g.id })).body.data.orderNo as string;
    const start = await pay(s, m.token, failed, 'wechat');
    await wechatSim({ prepayId: start.body.data.payment.prepayId, outcome: 'fail' });
    // WeChat Pay notifies successes only: the query job learns the failure
    s.clock.advance(PAYMENT_QUERY_AFTER_MS);
    await runDueJobs(s.deps);
    expect((await orderRow(s, failed)).state).toBe('payment_failed');
    expect(await methodsOf(m.token)).toEqual(['balance', 'alipay', 'wechat']);
    const again = await pay(s, m.token, failed, 'wechat');
    await wechatSim({ prepayId: again.body.data.payment.prepayId, outcome: 'pay' });
    expect((await orderRow(s, failed)).state).toBe('paid');
    expect(await methodsOf(m.token)).toEqual(['balance', 'wechat', 'alipay']);
    // another member's payments are theirs: a new member sees the order as offered, a visitor too
    expect(await methodsOf((await newMember(s)).token)).toEqual(['balance', 'wechat', 'alipay']);
    expect((await s.call('GET', '/api/pay/methods')).body.data.methods).toEqual(['balance', 'wechat', 'alipay']);
  });
});

describe('a failed provider payment', async () => {
  const s = await startTestServer({ seed: true });

  it('wechat PAYERROR carries no transaction_id (as WeChat Pay): two different orders both reach payment_failed, each with its failure recorded once', async () => {
    const nos: string[] = [];
    for (let i = 0; i < 2; i++) {
      const m = await newMember(s);
      const g = await newGoods(s, { stock: 1 });
      const no = (await create(s, m.token, { goodsId: g.id })).body.data.orderNo as string;
      const res = await pay(s, m.token, no, 'wechat');
      await s.call('POST', '/api/dev/pay/wechat/simulate', { body: { prepayId: res.body.data.payment.prepayId, outcome: 'fail' } });
      nos.push(no);
    }
    // WeChat Pay notifies successes only: the query job learns both failures (and asks a second time for nothing)
    s.clock.advance(PAYMENT_QUERY_AFTER_MS);
    await runDueJobs(s.deps);
    expect(await Promise.all(nos.map(async (no) => (await orderRow(s, no)).state))).toEqual(['payment_failed', 'payment_failed']);
    for (const no of nos) {
      const o = await orderRow(s, no);
      const rows = await s.deps.db.select().from(payments).where(eq(payments.orderId, o.id));
      expect(rows.map((p) => [p.status, p.providerTxnId])).toEqual([['failed', null]]);
      await settlePayment(s.deps, { ...(await s.deps.gateways.payments.wechat!.queryOrder(`${no}-1`)) } as PaymentResult, 'query');
      expect(await s.deps.db.select().from(payments).where(eq(payments.orderId, o.id))).toHaveLength(1);
    }
  });

  it('alipay TRADE_CLOSED: the order goes to payment_failed, may then be cancelled (stock back); each order on its own', async () => {
    for (let i = 0; i < 2; i++) {
      const m = await newMember(s);
      const g = await newGoods(s, { stock: 1 });
      const no = (await create(s, m.token, { goodsId: g.id })).body.data.orderNo as string;
      const res = await pay(s, m.token, no, 'alipay');
      expect((await s.app.request(res.body.data.payment.url)).status).toBe(200);
      await s.call('POST', '/api/dev/pay/alipay/simulate', { body: { outTradeNo: `${no}-1`, outcome: 'fail' } });
      const detail = await s.call('GET', `/api/orders/detail?orderNo=${no}`, { token: m.token });
      expect(detail.body.data).toMatchObject({ state: 'payment_failed', actions: ['pay', 'cancel', 'split', 'invite'] });
      expect((await s.call('POST', '/api/orders/cancel', { token: m.token, body: { orderNo: no } })).body.data.state).toBe('cancelled');
      expect((await s.deps.db.select().from(goods).where(eq(goods.id, g.id)))[0]!.stock).toBe(1);
      expect(await cardsOf(s, m.id)).toHaveLength(0);
    }
  });
});

describe('one order, one provider at a time', async () => {
  const s = await startTestServer({ seed: true });
  const wechatSim = (body: Record<string, unknown>) => s.call('POST', '/api/dev/pay/wechat/simulate', { body });
  const alipaySim = (body: Record<string, unknown>) => s.call('POST', '/api/dev/pay/alipay/simulate', { body });
  const trade = async (outTradeNo: string) =>
    (await s.deps.db.select().from(payStandInOrders).where(eq(payStandInOrders.outTradeNo, outTradeNo)))[0];
  const attemptsOf = async (no: string) => {
    const o = await orderRow(s, no);
    return s.deps.db.select().from(paymentAttempts).where(eq(paymentAttempts.orderId, o.id)).orderBy(paymentAttempts.seq);
  };
  async function order() {
    const m = await newMember(s);
    const g = await newGoods(s, { stock: 1 });
    const no = (await create(s, m.token, { goodsId: g.id })).body.data.orderNo as string;
    return { m, g, no };
  }

  it('paying again with the same method while paying answers the same prepay / the same cashier URL: one attempt each', async () => {
    const w = await order();
    const first = await pay(s, w.m.token, w.no, 'wechat');
    const second = await pay(s, w.m.token, w.no, 'wechat');
    expect(second.body.code).toBe(200);
    expect(second.body.data.payment).toEqual(first.body.data.payment);
    expect((await attemptsOf(w.no)).map((a) => [a.outTradeNo, a.state])).toEqual([[`${w.no}-1`, 'open']]);
    const a = await order();
    const one = await pay(s, a.m.token, a.no, 'alipay');
    const two = await pay(s, a.m.token, a.no, 'alipay');
    expect(two.body.data.payment.url).toBe(one.body.data.payment.url);
    expect(await attemptsOf(a.no)).toHaveLength(1);
  });

  it('switching from WeChat to Alipay while paying: the WeChat trade is closed first, then Alipay starts; the old trade cannot be paid', async () => {
    const { m, no } = await order();
    const wechat = await pay(s, m.token, no, 'wechat');
    const alipay = await pay(s, m.token, no, 'alipay');
    expect(alipay.body.code).toBe(200);
    expect(alipay.body.data.order).toMatchObject({ state: 'paying', payMethod: 'alipay' });
    expect((await trade(`${no}-1`))!.state).toBe('CLOSED');
    expect((await attemptsOf(no)).map((a) => [a.provider, a.state])).toEqual([
      ['wechat', 'closed'],
      ['alipay', 'open'],
    ]);
    expect((await wechatSim({ prepayId: wechat.body.data.payment.prepayId, outcome: 'pay' })).status).toBe(409);
    expect((await s.app.request(alipay.body.data.payment.url)).status).toBe(200);
    await alipaySim({ outTradeNo: `${no}-2`, outcome: 'pay' });
    expect((await orderRow(s, no)).state).toBe('paid');
    expect(await cardsOf(s, m.id)).toHaveLength(1);
  });

  it('switching when the first trade was paid meanwhile: the close reveals it, the order is settled paid and the new payment refused (40011)', async () => {
    const { m, no } = await order();
    const wechat = await pay(s, m.token, no, 'wechat');
    await wechatSim({ prepayId: wechat.body.data.payment.prepayId, outcome: 'pay', deliveries: 0 });
    const alipay = await pay(s, m.token, no, 'alipay');
    expect([alipay.status, alipay.body.code]).toEqual([409, 40011]);
    expect((await orderRow(s, no)).state).toBe('paid');
    expect(await attemptsOf(no)).toHaveLength(1);
    expect(await cardsOf(s, m.id)).toHaveLength(1);
  });

  it('switching when the open trade cannot be closed (its provider unreachable): refused with 40006, the open trade kept', async () => {
    const { m, no } = await order();
    const wechat = await pay(s, m.token, no, 'wechat');
    const gateway = s.deps.gateways.payments.wechat!;
    const close = gateway.close.bind(gateway);
    gateway.close = async () => {
      throw new PaymentProviderError('wechat', 'NETWORK', 'unreachable');
    };
    try {
      const alipay = await pay(s, m.token, no, 'alipay');
      expect([alipay.status, alipay.body.code]).toEqual([502, 40006]);
    } finally {
      gateway.close = close;
    }
    expect(await orderRow(s, no)).toMatchObject({ state: 'paying', payMethod: 'wechat' });
    expect((await attemptsOf(no)).map((a) => [a.provider, a.state])).toEqual([['wechat', 'open']]);
    // the member can still pay the open trade
    expect((await pay(s, m.token, no, 'wechat')).body.data.payment).toEqual(wechat.body.data.payment);
  });

  it('a payment for a superseded attempt of a paid order (an old Alipay cashier opened late) is recorded as needs_refund and listed for staff', async () => {
    const { m, no } = await order();
    // Alipay first, its cashier not opened: the close finds no trade, yet the signed URL still works until time_expire
    const alipay = await pay(s, m.token, no, 'alipay');
    const wechat = await pay(s, m.token, no, 'wechat');
    await wechatSim({ prepayId: wechat.body.data.payment.prepayId, outcome: 'pay' });
    expect((await orderRow(s, no)).state).toBe('paid');
    expect((await s.app.request(alipay.body.data.payment.url)).status).toBe(200);
    const late = await alipaySim({ outTradeNo: `${no}-1`, outcome: 'pay' });
    expect(late.body.data.deliveries[0].body).toBe('success');
    const o = await orderRow(s, no);
    expect(o.state).toBe('paid');
    expect(await cardsOf(s, m.id)).toHaveLength(1);
    const rows = await s.deps.db.select().from(payments).where(eq(payments.orderId, o.id));
    expect(rows.map((p) => [p.provider, p.status]).sort()).toEqual([
      ['alipay', 'needs_refund'],
      ['wechat', 'paid'],
    ]);
    const staff = await newStaff(s);
    const list = await s.call('GET', '/api/staff/payments/needs-refund', { token: staff.token });
    expect(list.body.data).toContainEqual(
      expect.objectContaining({ orderNo: no, provider: 'alipay', outTradeNo: `${no}-1`, amountCents: o.amountToPayCents }),
    );
    expect((await s.call('GET', '/api/staff/payments/needs-refund', { token: m.token })).status).toBe(403);
  });
});

describe("the WeChat Pay payer is the member's bound open id (JSAPI)", async () => {
  const s = await startTestServer({ seed: true });
  const origin = s.deps.config.publicUrl;
  const get = (url: string) => s.app.request(url.startsWith('http') ? url : `${origin}${url}`);
  const NO_OPEN_ID = { zh: '请在微信中打开并登录后使用微信支付', en: 'Open this page in WeChat and log in there to pay with WeChat Pay' };

  /** The messaging app's silent authorization coming back as `openId`: not bound yet, so a ticket (decision 003). */
  async function silentTicket(openId: string): Promise<string> {
    const start = await get('/api/oauth/wechat/authorize?from=/mine');
    const authorize = new URL(start.headers.get('location')!);
    authorize.searchParams.set('as', openId);
    const provider = await get(authorize.toString());
    const back = await get(provider.headers.get('location')!);
    const line = back.headers.getSetCookie().find((l) => l.startsWith('openId='))!;
    return decodeURIComponent(line.split(';')[0]!.slice('openId='.length));
  }

  it('in the messaging app: the silent login binds the open id at the phone login, and WeChat Pay prepays for that payer', async () => {
    const phone = '13300000001';
    await memberWithPassword(s, phone, 'yoga1234');
    const ticket = await silentTicket('o_payer_1');
    const login = await s.call('POST', '/api/oauth/login', {
      body: { username: phone, password: 'yoga1234', loginType: 'password', openid: ticket },
    });
    expect(login.body.code).toBe(200);
    const token = login.body.token as string;
    expect((await s.call('GET', '/api/pay/methods', { token })).body.data).toEqual({
      methods: ['balance', 'wechat', 'alipay'],
      standIn: true,
      unavailable: [],
    });
    const g = await newGoods(s);
    const no = (await create(s, token, { goodsId: g.id })).body.data.orderNo as string;
    const res = await pay(s, token, no, 'wechat');
    expect(res.body.code).toBe(200);
    const [trade] = await s.deps.db
      .select()
      .from(payStandInOrders)
      .where(eq(payStandInOrders.outTradeNo, `${no}-1`));
    expect(trade!.payerOpenId).toBe('o_payer_1');
  });

  it('no open id bound (logged in outside the messaging app): WeChat Pay is unavailable for the order (40012) and listed so with the reason; Alipay still pays', async () => {
    const m = await newMemberWithoutOpenId(s);
    const g = await newGoods(s);
    const no = (await create(s, m.token, { goodsId: g.id })).body.data.orderNo as string;
    const refused = await pay(s, m.token, no, 'wechat');
    expect([refused.status, refused.body.code, refused.body.field, refused.body.message]).toEqual([409, 40012, 'method', NO_OPEN_ID.zh]);
    expect((await pay(s, m.token, no, 'wechat', { 'accept-language': 'en' })).body.message).toBe(NO_OPEN_ID.en);
    expect((await orderRow(s, no)).state).toBe('unpaid');
    expect(
      await s.deps.db
        .select()
        .from(paymentAttempts)
        .where(eq(paymentAttempts.orderId, (await orderRow(s, no)).id)),
    ).toHaveLength(0);
    const methods = await s.call('GET', '/api/pay/methods', { token: m.token });
    expect(methods.body.data).toEqual({
      methods: ['balance', 'alipay'],
      standIn: true,
      unavailable: [{ method: 'wechat', code: 40012, message: NO_OPEN_ID.zh }],
    });
    // a visitor is told what the server offers
    expect((await s.call('GET', '/api/pay/methods')).body.data).toEqual({
      methods: ['balance', 'wechat', 'alipay'],
      standIn: true,
      unavailable: [],
    });
    expect((await pay(s, m.token, no, 'alipay')).body.code).toBe(200);
  });
  it('a tap that read the order before another tap opened and started its trade gets that same trade, not a refusal', async () => {
    // the interleaving the PostgreSQL race test meets now and then, made certain: tap B reads the
    // order (unpaid, no trade open), then tap A opens the trade and moves the order to paying, then
    // B's transaction starts
    const m = await newMember(s);
    const g = await newGoods(s);
    const no = (await create(s, m.token, { goodsId: g.id })).body.data.orderNo as string;
    let aDone!: () => void;
    const afterA = new Promise<void>((resolve) => (aDone = resolve));
    const db = s.deps.db;
    const heldDb = new Proxy(db, {
      get: (t, k) =>
        k === 'transaction'
          ? async (...args: unknown[]) => (await afterA, (t.transaction as (...a: unknown[]) => unknown)(...args))
          : Reflect.get(t, k),
    });
    const b = payOrder({ ...s.deps, db: heldDb }, m.id, no, 'wechat');
    const a = await payOrder(s.deps, m.id, no, 'wechat');
    aDone();
    const answered = await b;
    expect(answered.payment).toEqual(a.payment);
    expect(answered.order.state).toBe('paying');
    expect(
      await s.deps.db
        .select()
        .from(paymentAttempts)
        .where(eq(paymentAttempts.orderId, (await orderRow(s, no)).id)),
    ).toHaveLength(1);
  });
});
