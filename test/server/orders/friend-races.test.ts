import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { FRIEND_INVITATION_TTL_MS } from '../../../src/domain/pricing';
import { friendInvitations, paymentAttempts, payments, payStandInOrders, refunds } from '../../../src/server/db/schema/index';
import { wechatNotification } from '../../../src/server/gateways/payments/wechat-standin';
import { PaymentProviderError, type PaymentGateway, type PaymentResult } from '../../../src/server/gateways/payments/types';
import { type ApiError } from '../../../src/server/http/api-error';
import { payAsFriend } from '../../../src/server/services/orders/friend-pay';
import { runInvitationExpiry } from '../../../src/server/services/orders/invitations';
import { settlePayment } from '../../../src/server/services/orders/settle';
import { issueOpenId } from '../payments/support';
import { startTestServer, usePostgres } from '../support/harness';
import { assertMoneyInvariants } from '../support/money-invariants';
import { withoutGuards, withoutLocks } from '../support/without-locks';
import { balance, cardsOf, create, credit, newGoods, newMember, orderRow } from './support';

/**
 * Friend pay races on PostgreSQL (decision 021, "Locks and races"): two friends paying the last part at
 * the same instant, and the invitation's hour ending at the instant the friend's payment notification
 * arrives. The money invariants are checked after every race.
 */
// a sweep of rounds checks who won, not how fast: on two cores shared with the other suites it has
// taken over the 20 s default, so the safety net is wider here
describe.runIf(usePostgres)('friend pay races on PostgreSQL', { timeout: 120_000 }, async () => {
  const s = await startTestServer({ seed: true });
  let friends = 0;
  const friend = async () => {
    const openId = `o_race_friend_${++friends}_${Date.now()}`;
    await issueOpenId(s, openId);
    return { openId, nickname: null, avatar: null };
  };

  /** A split order: the member paid part 2 by balance, part 3 (the last) is sent to friends. */
  async function lastPartInvited() {
    const m = await newMember(s);
    await credit(s, m.id, 50_000);
    const g = await newGoods(s);
    const no = (await create(s, m.token, { goodsId: g.id })).body.data.orderNo as string;
    const post = (path: string, body: unknown) => s.call('POST', `/api/orders/${path}`, { token: m.token, body });
    await post('split', { orderNo: no, parts: [10_000, 9_900] });
    await post('pay', { orderNo: no, method: 'balance', partSeq: 2 });
    const t = (await post('friend/invite', { orderNo: no, partSeqs: [3] })).body.data.invitation.token as string;
    return { m, no, t };
  }

  /**
   * The last part invited, a friend paid it at the provider, its notification held back to arrive
   * with the expiry; then the hour is over: the member, the order, its invitation and the notification.
   */
  async function hourOverWithNotificationHeld() {
    const { m, no, t } = await lastPartInvited();
    const start = await payAsFriend(s.deps, t, await friend());
    await s.call('POST', '/api/dev/pay/wechat/simulate', {
      body: { prepayId: (start.payment as { prepayId: string }).prepayId, outcome: 'pay', deliveries: 0 },
    });
    const [trade] = await s.deps.db
      .select()
      .from(payStandInOrders)
      .where(eq(payStandInOrders.outTradeNo, `${no}-1`));
    s.clock.advance(FRIEND_INVITATION_TTL_MS);
    const [inv] = await s.deps.db
      .select()
      .from(friendInvitations)
      .where(eq(friendInvitations.orderId, (await orderRow(s, no)).id));
    const n = wechatNotification(trade!, s.deps.gateways.payments.standIn!.wechat, Math.floor(s.clock.now().getTime() / 1000));
    return { m, no, inv: inv!, n };
  }

  it('ten friends pay the last part at the same instant: one trade is opened, the others are told someone already acted (40018)', async () => {
    const { no, t } = await lastPartInvited();
    const fs = await Promise.all(Array.from({ length: 10 }, () => friend()));
    const results = await Promise.allSettled(fs.map((f) => payAsFriend(s.deps, t, f)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected').map((r) => ((r as PromiseRejectedResult).reason as ApiError).def.code)).toEqual(
      Array(9).fill(40018),
    );
    const o = await orderRow(s, no);
    expect(await s.deps.db.select().from(paymentAttempts).where(eq(paymentAttempts.orderId, o.id))).toHaveLength(1);
    await assertMoneyInvariants(s.deps.db);
  });

  it("negative control: without the order lock and the insert's guard, friends at the same instant open two trades or fail on the database", {
    retry: 2,
  }, async () => {
    let broken = 0;
    for (let round = 0; round < 20 && broken === 0; round++) {
      const { no, t } = await lastPartInvited();
      const fs = await Promise.all(Array.from({ length: 10 }, () => friend()));
      const unsafe = { ...s.deps, db: withoutLocks(s.deps.db) };
      const results = await withoutGuards(() => Promise.allSettled(fs.map((f) => payAsFriend(unsafe, t, f))));
      const o = await orderRow(s, no);
      const trades = await s.deps.db.select().from(paymentAttempts).where(eq(paymentAttempts.orderId, o.id));
      const other = results.filter((r) => r.status === 'rejected' && !((r.reason as ApiError).def?.code === 40018)).length;
      if (trades.length > 1 || other > 0) broken++;
    }
    expect(broken, 'the guards are what keeps it to one trade').toBeGreaterThan(0);
  });

  it("the hour ends as the friend's payment notification arrives, 8 times: fully paid with nothing refunded, or waiting for its member again with the friend's money refunded; never both, never neither", async () => {
    const outcomes: string[] = [];
    for (let round = 0; round < 8; round++) {
      const { m, no, inv, n } = await hourOverWithNotificationHeld();
      await Promise.all([
        runInvitationExpiry(s.deps, { invitationId: inv.id }),
        s.app.request('/api/pay/notify/wechat', { method: 'POST', headers: n.headers, body: n.body }),
      ]);
      const o = await orderRow(s, no);
      const paid = await s.deps.db.select().from(payments).where(eq(payments.orderId, o.id));
      const back = await s.deps.db
        .select({ state: refunds.state, amountCents: refunds.amountCents })
        .from(refunds)
        .innerJoin(payments, eq(payments.id, refunds.paymentId))
        .where(and(eq(payments.orderId, o.id)));
      if (o.state === 'fully_paid') {
        expect(back, 'fully paid: nothing refunded').toEqual([]);
        expect(await cardsOf(s, m.id)).toHaveLength(1);
        expect(await balance(s, m.token)).toBe(40_000);
      } else {
        // the hour never cancels (decision 058): the order waits for its member, the friend's money goes back to the friend
        expect(o.state).toBe('unpaid');
        expect(back.map((r) => r.amountCents)).toEqual([9_900]);
        expect(paid.find((p) => p.provider === 'wechat')!.status).toBe('needs_refund');
        expect(await cardsOf(s, m.id)).toHaveLength(0);
        expect(await balance(s, m.token)).toBe(40_000);
      }
      outcomes.push(o.state);
      await assertMoneyInvariants(s.deps.db);
    }
    expect(outcomes.every((x) => x === 'fully_paid' || x === 'unpaid')).toBe(true);
  });
  /**
   * The hour ends while WeChat Pay cannot be reached (the expiry closes the friend's trade here and
   * cancels), and the friend's notification of money taken before arrives `delayMs` after the expiry
   * starts: the rounds sweep the expiry's span, so both endings happen.
   */
  async function unreachableRound(delayMs: number) {
    const { m, no, inv, n } = await hourOverWithNotificationHeld();
    const result = wechat.parseNotification(n.body, new Headers(n.headers)) as PaymentResult;
    const late = new Promise((resolve) => setTimeout(resolve, delayMs)).then(() => settlePayment(s.deps, result, 'notify'));
    await Promise.all([runInvitationExpiry(s.deps, { invitationId: inv.id }), late]);
    const o = await orderRow(s, no);
    const friendPaid = (await s.deps.db.select().from(payments).where(eq(payments.orderId, o.id))).filter((p) => p.provider === 'wechat');
    const [link] = await s.deps.db
      .select({ state: friendInvitations.state })
      .from(friendInvitations)
      .where(eq(friendInvitations.id, inv.id));
    return { o, friendPaid, link: link!.state, cards: (await cardsOf(s, m.id)).length };
  }
  const wechat = s.deps.gateways.payments.wechat as PaymentGateway;
  const reachable = { queryOrder: wechat.queryOrder, close: wechat.close };
  const unreachable = () => {
    wechat.queryOrder = async () => Promise.reject(new PaymentProviderError('wechat', 'NETWORK', 'unreachable'));
    wechat.close = async () => Promise.reject(new PaymentProviderError('wechat', 'NETWORK', 'unreachable'));
  };
  const restore = () => Object.assign(wechat, reachable);

  it("WeChat Pay unreachable as the hour ends and the friend's notification arrives, swept over 24 rounds: fully paid (one card) or waiting for its member with the friend's money to refund; never both, never neither", async () => {
    unreachable();
    try {
      const seen = new Set<string>();
      // 0 to 92 ms: the early rounds land inside the expiry, the late ones after it, even on a loaded machine
      for (let i = 0; i < 24; i++) {
        const r = await unreachableRound(4 * i);
        seen.add(r.o.state);
        if (r.o.state === 'fully_paid') {
          expect(r.o.cancelledAt).toBeNull();
          expect(r.friendPaid.map((p) => p.status)).toEqual(['paid']);
          expect(r.cards).toBe(1);
          expect(r.link).toBe('paid');
        } else {
          expect(r.o.state).toBe('unpaid');
          expect(r.link).toBe('expired');
          expect(r.friendPaid.map((p) => p.status)).toEqual(['needs_refund']);
          expect(r.cards).toBe(0);
        }
        await assertMoneyInvariants(s.deps.db);
      }
      // the sweep makes both endings happen (else the race proved nothing)
      expect([...seen].sort()).toEqual(['fully_paid', 'unpaid']);
    } finally {
      restore();
    }
  });
});
