import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { FRIEND_INVITATION_TTL_MS, ORDER_PAY_WITHIN_MS } from '../../../src/domain/pricing';
import { friendInvitations, paymentAttempts, payments, payStandInOrders } from '../../../src/server/db/schema/index';
import { runDueJobs } from '../../../src/server/jobs/runner';
import type { FriendPayer } from '../../../src/server/services/auth/openid-tickets';
import { payAsFriend } from '../../../src/server/services/orders/friend-pay';
import { banAccount } from '../../../src/server/services/auth/accounts';
import { PAYMENT_QUERY_AFTER_MS } from '../../../src/server/services/orders/settle';
import { ApiError } from '../../../src/server/http/api-error';
import { PaymentProviderError } from '../../../src/server/gateways/payments/types';
import { wechatNotification } from '../../../src/server/gateways/payments/wechat-standin';
import { runInvitationExpiry } from '../../../src/server/services/orders/invitations';
import { issueOpenId } from '../payments/support';
import { startTestServer } from '../support/harness';
import { assertMoneyInvariants } from '../support/money-invariants';
import { balance, cardsOf, create, credit, newGoods, newMember, orderRow } from './support';

/**
 * Friend pay, the friend's side (spec §4, §6; decision 021): the friend, known by the open id and
 * profile of the messaging app's user-info authorization, pays an invitation's part through WeChat Pay
 * JSAPI (the stand-in), and its signed notification settles it: the order fully paid and the card
 * issued once, or, with more owed, friend paying or the member's again. Spec §8: friend already acted
 * (40018), invitation over (40022).
 */
describe('friend pay: the friend pays', async () => {
  const s = await startTestServer({ seed: true });
  const post = (token: string, path: string, body: unknown) => s.call('POST', `/api/orders/${path}`, { token, body });
  const simulate = (prepayId: string, outcome: 'pay' | 'fail') =>
    s.call('POST', '/api/dev/pay/wechat/simulate', { body: { prepayId, outcome } });
  const invitationsOf = async (orderNo: string) =>
    (
      await s.deps.db
        .select()
        .from(friendInvitations)
        .where(eq(friendInvitations.orderId, (await orderRow(s, orderNo)).id))
        .orderBy(friendInvitations.id)
    ).map((i) => i.state);
  const allDueJobs = async () => {
    while ((await runDueJobs(s.deps)) > 0);
  };
  let friends = 0;
  /** A friend the messaging app authorized (the OAuth stand-in issued the open id, so WeChat Pay takes it). */
  async function friend(): Promise<FriendPayer> {
    const openId = `o_friend_${++friends}_${Date.now()}`;
    await issueOpenId(s, openId);
    return { openId, nickname: `好友${friends}`, avatar: null };
  }
  const refusal = (p: Promise<unknown>) =>
    p.then(
      () => 'paid',
      (e: unknown) => (e instanceof ApiError ? e.def.code : String(e)),
    );

  async function invited(parts?: number[]) {
    const m = await newMember(s);
    await credit(s, m.id, 50_000);
    const g = await newGoods(s);
    const no = (await create(s, m.token, { goodsId: g.id })).body.data.orderNo as string;
    if (parts) expect((await post(m.token, 'split', { orderNo: no, parts })).status).toBe(200);
    return { m, no };
  }
  const inviteFor = async (token: string, orderNo: string, partSeq?: number) =>
    (await post(token, 'friend/invite', { orderNo, partSeqs: partSeq === undefined ? undefined : [partSeq] })).body.data.invitation
      .token as string;

  it('a friend pays the whole order: fully paid, the card issued once, the member sees who paid; a second friend, or the same again, cannot pay it twice', async () => {
    const { m, no } = await invited();
    const t = await inviteFor(m.token, no);
    const f = await friend();
    const start = await payAsFriend(s.deps, t, f);
    expect(start.amountCents).toBe(19_900);
    expect(start.payment).toMatchObject({ method: 'wechat' });
    const prepayId = (start.payment as { prepayId: string }).prepayId;
    // the same friend again: the same trade; another friend meanwhile: someone already acted
    expect(((await payAsFriend(s.deps, t, f)).payment as { prepayId: string }).prepayId).toBe(prepayId);
    expect(await refusal(payAsFriend(s.deps, t, await friend()))).toBe(40018);
    // the trade is the friend's, for the part, until the invitation's end
    const [trade] = await s.deps.db
      .select()
      .from(payStandInOrders)
      .where(eq(payStandInOrders.outTradeNo, `${no}-1`));
    expect(trade).toMatchObject({ payerOpenId: f.openId, amountCents: 19_900 });
    const [attempt] = await s.deps.db
      .select()
      .from(paymentAttempts)
      .where(eq(paymentAttempts.outTradeNo, `${no}-1`));
    expect(attempt).toMatchObject({ payerAccountId: null, payerOpenId: f.openId, payerNickname: f.nickname });
    expect((await orderRow(s, no)).state, 'the order waits for the friend').toBe('friend_paying');
    expect((await simulate(prepayId, 'pay')).status).toBe(200);
    const o = await orderRow(s, no);
    expect(o.state).toBe('fully_paid');
    expect(await cardsOf(s, m.id)).toHaveLength(1);
    expect(await invitationsOf(no)).toEqual(['paid']);
    expect(await balance(s, m.token), "nothing from the member's balance").toBe(50_000);
    expect((await s.call('GET', `/api/friend/invitation?t=${t}`)).body.data.state).toBe('paid');
    expect(await refusal(payAsFriend(s.deps, t, f))).toBe(40018);
    const ps = await s.deps.db.select().from(payments).where(eq(payments.orderId, o.id));
    expect(ps.map((p) => [p.provider, p.status, p.amountCents])).toEqual([['wechat', 'paid', 19_900]]);
    await assertMoneyInvariants(s.deps.db);
  });

  it('split: the member pays one part by balance, a friend the other: fully paid once', async () => {
    const { m, no } = await invited([10_000, 9_900]);
    expect((await post(m.token, 'pay', { orderNo: no, method: 'balance', partSeq: 2 })).status).toBe(200);
    const t = await inviteFor(m.token, no, 3);
    const start = await payAsFriend(s.deps, t, await friend());
    expect(start.amountCents).toBe(9_900);
    await simulate((start.payment as { prepayId: string }).prepayId, 'pay');
    expect((await orderRow(s, no)).state).toBe('fully_paid');
    expect(await cardsOf(s, m.id)).toHaveLength(1);
    expect(await balance(s, m.token)).toBe(40_000);
    await assertMoneyInvariants(s.deps.db);
  });

  it('two parts, two friends at the cashier at once: each part its own trade; the first pays and the order still waits for the second; the second pays: fully paid', async () => {
    const { m, no } = await invited([10_000, 9_900]);
    const t2 = await inviteFor(m.token, no, 2);
    const t3 = await inviteFor(m.token, no, 3);
    const a = await payAsFriend(s.deps, t2, await friend());
    // the second friend is not held up by the first friend's open trade (decision 058)
    const b = await payAsFriend(s.deps, t3, await friend());
    const holders = (await s.call('GET', `/api/orders/detail?orderNo=${no}`, { token: m.token })).body.data.parts.filter(
      (p: { kind: string; state: string }) => p.kind === 'share' && p.state === 'unpaid',
    );
    expect(holders.map((p: { holder: string }) => p.holder)).toEqual(['friendTrade', 'friendTrade']);
    await simulate((a.payment as { prepayId: string }).prepayId, 'pay');
    expect((await orderRow(s, no)).state).toBe('friend_paying');
    expect(await invitationsOf(no)).toEqual(['paid', 'open']);
    await simulate((b.payment as { prepayId: string }).prepayId, 'pay');
    expect((await orderRow(s, no)).state).toBe('fully_paid');
    expect(await cardsOf(s, m.id)).toHaveLength(1);
    await assertMoneyInvariants(s.deps.db);
  });

  it("a friend pays the only invited part while more is owed: the order is the member's to pay again, with a new window", async () => {
    const { m, no } = await invited([10_000, 9_900]);
    const t = await inviteFor(m.token, no, 2);
    const a = await payAsFriend(s.deps, t, await friend());
    await simulate((a.payment as { prepayId: string }).prepayId, 'pay');
    const o = await orderRow(s, no);
    expect(o.state).toBe('unpaid');
    expect(o.expiresAt!.getTime()).toBeGreaterThan(s.clock.now().getTime());
    expect((await post(m.token, 'pay', { orderNo: no, method: 'balance', partSeq: 3 })).status).toBe(200);
    expect((await orderRow(s, no)).state).toBe('fully_paid');
    await assertMoneyInvariants(s.deps.db);
  });

  it("the friend's payment fails: the invitation stays open and the friend pays again (a new trade)", async () => {
    const { m, no } = await invited();
    const t = await inviteFor(m.token, no);
    const f = await friend();
    const first = await payAsFriend(s.deps, t, f);
    await simulate((first.payment as { prepayId: string }).prepayId, 'fail');
    // WeChat Pay sends no notification of a failure: the query job finds it
    s.clock.advance(PAYMENT_QUERY_AFTER_MS);
    await allDueJobs();
    const [attempt] = await s.deps.db
      .select()
      .from(paymentAttempts)
      .where(eq(paymentAttempts.outTradeNo, `${no}-1`));
    expect(attempt!.state).toBe('failed');
    expect((await orderRow(s, no)).state).toBe('friend_paying');
    expect(await invitationsOf(no)).toEqual(['open']);
    const again = await payAsFriend(s.deps, t, f);
    expect((again.payment as { prepayId: string }).prepayId).not.toBe((first.payment as { prepayId: string }).prepayId);
    await simulate((again.payment as { prepayId: string }).prepayId, 'pay');
    expect((await orderRow(s, no)).state).toBe('fully_paid');
  });

  it('the hour ends with a trade open and unpaid: closed at the provider, the invitation expired, the order unpaid; too late for the friend (40022)', async () => {
    const { m, no } = await invited();
    const t = await inviteFor(m.token, no);
    const f = await friend();
    await payAsFriend(s.deps, t, f);
    s.clock.advance(FRIEND_INVITATION_TTL_MS);
    await allDueJobs();
    expect(await invitationsOf(no)).toEqual(['expired']);
    const [trade] = await s.deps.db
      .select()
      .from(payStandInOrders)
      .where(eq(payStandInOrders.outTradeNo, `${no}-1`));
    expect(trade!.state).toBe('CLOSED');
    expect((await orderRow(s, no)).state).toBe('unpaid');
    expect(await refusal(payAsFriend(s.deps, t, f))).toBe(40022);
    expect(await balance(s, m.token)).toBe(50_000);
  });

  it('the friend paid just before the hour and the notification had not come: the expiry asks first, so the order is fully paid, not expired', async () => {
    const { m, no } = await invited();
    const t = await inviteFor(m.token, no);
    const a = await payAsFriend(s.deps, t, await friend());
    await s.call('POST', '/api/dev/pay/wechat/simulate', {
      body: { prepayId: (a.payment as { prepayId: string }).prepayId, outcome: 'pay', deliveries: 0 },
    });
    s.clock.advance(FRIEND_INVITATION_TTL_MS);
    await allDueJobs();
    expect((await orderRow(s, no)).state).toBe('fully_paid');
    expect(await invitationsOf(no)).toEqual(['paid']);
    expect(await cardsOf(s, m.id)).toHaveLength(1);
    await assertMoneyInvariants(s.deps.db);
  });

  it("the provider cannot be reached at the hour's end: the trade is closed here and the order waits for its member again; the friend's late money is refunded to the friend; the pay window over, the member is refunded", async () => {
    const { m, no } = await invited([10_000, 9_900]);
    await post(m.token, 'pay', { orderNo: no, method: 'balance', partSeq: 2 });
    const t = await inviteFor(m.token, no, 3);
    const a = await payAsFriend(s.deps, t, await friend());
    await s.call('POST', '/api/dev/pay/wechat/simulate', {
      body: { prepayId: (a.payment as { prepayId: string }).prepayId, outcome: 'pay', deliveries: 0 },
    });
    const gw = s.deps.gateways.payments.wechat!;
    const saved = { queryOrder: gw.queryOrder, close: gw.close };
    const down = async () => Promise.reject(new PaymentProviderError('wechat', 'NETWORK', 'unreachable'));
    Object.assign(gw, { queryOrder: down, close: down });
    try {
      s.clock.advance(FRIEND_INVITATION_TTL_MS);
      await runInvitationExpiry(s.deps, {
        invitationId: (await s.deps.db.select().from(friendInvitations).where(eq(friendInvitations.token, t)))[0]!.id,
      });
    } finally {
      Object.assign(gw, saved);
    }
    expect((await orderRow(s, no)).state).toBe('unpaid');
    // the friend's money arrives after all: recorded for nothing and refunded to the friend
    const [trade] = await s.deps.db
      .select()
      .from(payStandInOrders)
      .where(eq(payStandInOrders.outTradeNo, `${no}-1`));
    const n = wechatNotification(trade!, s.deps.gateways.payments.standIn!.wechat, Math.floor(s.clock.now().getTime() / 1000));
    expect((await s.app.request('/api/pay/notify/wechat', { method: 'POST', headers: n.headers, body: n.body })).status).toBe(204);
    const o = await orderRow(s, no);
    const [p] = await s.deps.db
      .select()
      .from(payments)
      .where(
        eq(
          payments.attemptId,
          (
            await s.deps.db
              .select()
              .from(paymentAttempts)
              .where(eq(paymentAttempts.outTradeNo, `${no}-1`))
          )[0]!.id,
        ),
      );
    expect(p).toMatchObject({ status: 'needs_refund', amountCents: 9_900 });
    expect(o.state).toBe('unpaid');
    // nobody paid the last part in the new window: the order is cancelled and the member's part comes back
    s.clock.advance(ORDER_PAY_WITHIN_MS);
    await allDueJobs();
    expect((await orderRow(s, no)).state).toBe('cancelled');
    expect(await balance(s, m.token)).toBe(50_000);
    const d = (await s.call('GET', `/api/orders/detail?orderNo=${no}`, { token: m.token })).body.data;
    expect(d.refunds.map((r: { amountCents: number; to: string; state: string }) => [r.amountCents, r.to, r.state]).sort()).toEqual([
      [10_000, 'balance', 'succeeded'],
      [9_900, 'wechat', 'succeeded'],
    ]);
    expect(await cardsOf(s, m.id)).toHaveLength(0);
    await assertMoneyInvariants(s.deps.db);
  });

  it('the member withdraws or cancels while a friend is at the cashier: the trade is closed first', async () => {
    const { m, no } = await invited();
    const t = await inviteFor(m.token, no);
    const f = await friend();
    await payAsFriend(s.deps, t, f);
    expect((await post(m.token, 'friend/withdraw', { orderNo: no })).body.data.state).toBe('unpaid');
    const [trade] = await s.deps.db
      .select()
      .from(payStandInOrders)
      .where(eq(payStandInOrders.outTradeNo, `${no}-1`));
    expect(trade!.state).toBe('CLOSED');
    const t2 = await inviteFor(m.token, no);
    await payAsFriend(s.deps, t2, f);
    expect((await post(m.token, 'cancel', { orderNo: no })).body.data.state).toBe('cancelled');
    const [trade2] = await s.deps.db
      .select()
      .from(payStandInOrders)
      .where(eq(payStandInOrders.outTradeNo, `${no}-2`));
    expect(trade2!.state).toBe('CLOSED');
    expect(await refusal(payAsFriend(s.deps, t2, f))).toBe(40022);
    await assertMoneyInvariants(s.deps.db);
  });

  it('over HTTP: the friend authorizes with the user-info scope (the OAuth stand-in), pays with the wxFriend cookie, and the member sees who paid; without it, 40019', async () => {
    const { m, no } = await invited();
    const t = await inviteFor(m.token, no);
    const origin = s.deps.config.publicUrl;
    const get = async (url: string, headers: Record<string, string> = {}) => {
      const res = await s.app.request(url.startsWith('http') ? url : `${origin}${url}`, { headers });
      return { location: res.headers.get('location') ?? '', cookies: res.headers.getSetCookie() };
    };
    const start = await get(`/api/oauth/wechat/authorize?from=${encodeURIComponent(`/payfriend?t=${t}`)}&scope=userinfo`);
    const authorize = new URL(start.location);
    authorize.searchParams.set('as', `o_http_friend_${Date.now()}`);
    const provider = await get(authorize.toString());
    const back = await get(provider.location);
    expect(back.location).toBe(`/payfriend?t=${t}`);
    const cookie = back.cookies.map((c) => c.split(';')[0]!).find((c) => c.startsWith('wxFriend='))!;
    expect(cookie).toBeTruthy();
    const pay = (headers: Record<string, string>) => s.call('POST', '/api/friend/pay', { body: { t }, headers });
    expect((await pay({})).body.code).toBe(40019);
    expect((await pay({ cookie: 'wxFriend=forged' })).body.code).toBe(40019);
    expect((await s.call('POST', '/api/friend/pay', { body: {}, headers: { cookie } })).body).toMatchObject({ code: 70003, field: 't' });
    const r = await pay({ cookie });
    expect(r.status).toBe(200);
    expect(r.body.data.amountCents).toBe(19_900);
    await simulate(r.body.data.payment.prepayId, 'pay');
    const d = (await s.call('GET', `/api/orders/detail?orderNo=${no}`, { token: m.token })).body.data;
    expect(d.state).toBe('fully_paid');
    expect(d.parts.find((p: { kind: string; state: string }) => p.kind === 'share' && p.state === 'paid')).toMatchObject({
      paidBy: 'wechat',
      friendName: expect.stringMatching(/^微信用户/),
    });
  });

  it("user missing (spec §8): the member was banned after inviting: the friend is refused (40013) and nothing is taken; the member's own order calls need a live login (401)", async () => {
    const { m, no } = await invited();
    const t = await inviteFor(m.token, no);
    await banAccount(s.deps.db, m.id, s.clock);
    expect(await refusal(payAsFriend(s.deps, t, await friend()))).toBe(40013);
    expect(
      await s.deps.db
        .select()
        .from(paymentAttempts)
        .where(eq(paymentAttempts.orderId, (await orderRow(s, no)).id)),
    ).toEqual([]);
    expect((await post(m.token, 'pay', { orderNo: no, method: 'balance' })).status).toBe(401);
    expect((await orderRow(s, no)).state).toBe('friend_paying');
  });
});
