import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { payments, payStandInOrders, refunds } from '../../../src/server/db/schema/index';
import { wechatNotification } from '../../../src/server/gateways/payments/wechat-standin';
import type { Deps } from '../../../src/server/env';
import type { PaymentGateway, PaymentResult } from '../../../src/server/gateways/payments/types';
import { payAsFriend } from '../../../src/server/services/orders/friend-pay';
import { payOrder } from '../../../src/server/services/orders/pay';
import { settlePayment } from '../../../src/server/services/orders/settle';
import { issueOpenId } from '../payments/support';
import { startTestServer, usePostgres } from '../support/harness';
import { assertMoneyInvariants } from '../support/money-invariants';
import { withoutGuards, withoutLocks } from '../support/without-locks';
import { balance, cardsOf, create, credit, newGoods, newMember, orderRow } from './support';

/**
 * Several payers at once on PostgreSQL (decision 058): each part of a split order pays on its own, so
 * three parts paid at the same instant (two friends at WeChat Pay, the member from the balance), in
 * every order of arrival, end with the order fully paid exactly once and one card issued; the same
 * part paid twice at once is charged once. The three payers' race has a negative control without the
 * row locks and guards, which must go wrong at least once.
 */
describe.runIf(usePostgres)('parts paid at once on PostgreSQL', { timeout: 180_000 }, async () => {
  const s = await startTestServer({ seed: true });
  const wechat = s.deps.gateways.payments.wechat as PaymentGateway;
  let friends = 0;
  const friend = async () => {
    const openId = `o_parts_race_${++friends}_${Date.now()}`;
    await issueOpenId(s, openId);
    return { openId, nickname: null, avatar: null };
  };

  /**
   * A ¥199 order split in three (parts 2, 3, 4): parts 3 and 4 sent to two friends, each of whom paid
   * at WeChat Pay with the notification held back; the member still to pay part 2 from the balance.
   */
  async function threePayers() {
    const m = await newMember(s);
    await credit(s, m.id, 50_000);
    const g = await newGoods(s);
    const no = (await create(s, m.token, { goodsId: g.id })).body.data.orderNo as string;
    const post = (path: string, body: unknown) => s.call('POST', `/api/orders/${path}`, { token: m.token, body });
    expect((await post('split', { orderNo: no, parts: [7_000, 6_500, 6_400] })).body.code).toBe(200);
    const notifications: PaymentResult[] = [];
    for (const seq of [3, 4]) {
      const t = (await post('friend/invite', { orderNo: no, partSeqs: [seq] })).body.data.invitation.token as string;
      const start = await payAsFriend(s.deps, t, await friend());
      await s.call('POST', '/api/dev/pay/wechat/simulate', {
        body: { prepayId: (start.payment as { prepayId: string }).prepayId, outcome: 'pay', deliveries: 0 },
      });
    }
    const o = await orderRow(s, no);
    for (const trade of await s.deps.db
      .select()
      .from(payStandInOrders)
      .where(inArray(payStandInOrders.outTradeNo, [`${no}-1`, `${no}-2`]))) {
      const n = wechatNotification(trade, s.deps.gateways.payments.standIn!.wechat, Math.floor(s.clock.now().getTime() / 1000));
      notifications.push(wechat.parseNotification(n.body, new Headers(n.headers)) as PaymentResult);
    }
    expect(notifications).toHaveLength(2);
    return { m, no, orderId: o.id, notifications };
  }

  /** The three payments in one arrival order (a permutation of member, friend A, friend B), each a moment after the last, on `deps`. */
  async function race(order: number[], deps: Deps = s.deps) {
    const { m, no, orderId, notifications } = await threePayers();
    const payers: Array<() => Promise<unknown>> = [
      () => payOrder(deps, m.id, no, 'balance', 2),
      () => settlePayment(deps, notifications[0]!, 'notify'),
      () => settlePayment(deps, notifications[1]!, 'notify'),
    ];
    const results = await Promise.allSettled(
      order.map((i, k) => new Promise((resolve) => setTimeout(resolve, k)).then(() => payers[i]!())),
    );
    const o = await orderRow(s, no);
    const paid = await s.deps.db.select().from(payments).where(eq(payments.orderId, orderId));
    return { m, o, results, paid, cards: (await cardsOf(s, m.id)).length, balance: await balance(s, m.token) };
  }

  const PERMUTATIONS = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
  ];

  it('two friends at WeChat Pay and the member by balance, in every order of arrival: fully paid once, one card, every payment applied', async () => {
    for (const order of PERMUTATIONS) {
      const r = await race(order);
      expect(
        r.results.map((x) => x.status),
        `arrival ${order.join(',')}`,
      ).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
      expect(r.o.state, `arrival ${order.join(',')}`).toBe('fully_paid');
      expect(r.cards).toBe(1);
      expect(
        r.paid
          .filter((p) => p.status === 'paid')
          .map((p) => p.amountCents)
          .sort(),
      ).toEqual([6_400, 6_500, 7_000]);
      expect(r.balance).toBe(43_000);
      await assertMoneyInvariants(s.deps.db);
    }
  });

  it('negative control: without the locks and guards, three payers at once end wrong at least once (not fully paid, or the goods issued twice)', {
    retry: 2,
  }, async () => {
    let broken = 0;
    for (let round = 0; round < 12 && broken === 0; round++) {
      const r = await withoutGuards(() => race(PERMUTATIONS[round % PERMUTATIONS.length]!, { ...s.deps, db: withoutLocks(s.deps.db) }));
      if (r.o.state !== 'fully_paid' || r.cards !== 1 || r.results.some((x) => x.status === 'rejected')) broken++;
    }
    expect(broken, 'the locks are what make three payers end paid once').toBeGreaterThan(0);
  });

  it('the same part paid twice at once (balance, two taps without a key): charged once, the other refused', async () => {
    for (let round = 0; round < 5; round++) {
      const m = await newMember(s);
      await credit(s, m.id, 50_000);
      const no = (await create(s, m.token, { goodsId: (await newGoods(s)).id })).body.data.orderNo as string;
      expect((await s.call('POST', '/api/orders/split', { token: m.token, body: { orderNo: no, parts: [10_000, 9_900] } })).body.code).toBe(
        200,
      );
      const results = await Promise.allSettled([payOrder(s.deps, m.id, no, 'balance', 2), payOrder(s.deps, m.id, no, 'balance', 2)]);
      expect(results.filter((x) => x.status === 'fulfilled')).toHaveLength(1);
      expect(await balance(s, m.token)).toBe(40_000);
      await assertMoneyInvariants(s.deps.db);
    }
  });

  it("an unsplit or a withdraw as the friend's notification arrives, swept over 16 rounds: the friend's money is applied or refunded, never lost", async () => {
    const endings = new Set<string>();
    for (let round = 0; round < 16; round++) {
      const m = await newMember(s);
      await credit(s, m.id, 50_000);
      const no = (await create(s, m.token, { goodsId: (await newGoods(s)).id })).body.data.orderNo as string;
      const post = (path: string, body: unknown) => s.call('POST', `/api/orders/${path}`, { token: m.token, body });
      await post('split', { orderNo: no, parts: [10_000, 9_900] });
      const t = (await post('friend/invite', { orderNo: no, partSeqs: [3] })).body.data.invitation.token as string;
      const start = await payAsFriend(s.deps, t, await friend());
      await s.call('POST', '/api/dev/pay/wechat/simulate', {
        body: { prepayId: (start.payment as { prepayId: string }).prepayId, outcome: 'pay', deliveries: 0 },
      });
      const [trade] = await s.deps.db
        .select()
        .from(payStandInOrders)
        .where(eq(payStandInOrders.outTradeNo, `${no}-1`));
      const n = wechatNotification(trade!, s.deps.gateways.payments.standIn!.wechat, Math.floor(s.clock.now().getTime() / 1000));
      const change = round % 2 === 0 ? post('unsplit', { orderNo: no }) : post('friend/withdraw', { orderNo: no, partSeq: 3 });
      const late = new Promise((resolve) => setTimeout(resolve, round % 8)).then(() =>
        settlePayment(s.deps, wechat.parseNotification(n.body, new Headers(n.headers)) as PaymentResult, 'notify'),
      );
      const [answer] = await Promise.all([change, late]);
      const o = await orderRow(s, no);
      const friendPaid = (await s.deps.db.select().from(payments).where(eq(payments.orderId, o.id))).filter((p) => p.provider === 'wechat');
      // the friend's money is recorded once, whoever came first
      expect(friendPaid, `round ${round}`).toHaveLength(1);
      const back = await s.deps.db.select().from(refunds).where(eq(refunds.paymentId, friendPaid[0]!.id));
      const parts = (await s.call('GET', `/api/orders/detail?orderNo=${no}`, { token: m.token })).body.data.parts as Array<{
        seq: number;
        state: string;
      }>;
      const kept = parts.find((p) => p.seq === 3)?.state === 'paid';
      // applied to the part it paid, or on its way back to the friend: never neither, never both
      expect([kept, back.length], `round ${round}: ${answer.body.code}`).toEqual(kept ? [true, 0] : [false, 1]);
      endings.add(kept ? 'applied' : 'refunded');
      await assertMoneyInvariants(s.deps.db);
    }
    expect(endings.size, 'the sweep saw an ending').toBeGreaterThan(0);
  });
});
