import { describe, expect, it } from 'vitest';
import type { FriendPayer } from '../../../src/server/services/auth/openid-tickets';
import { payAsFriend } from '../../../src/server/services/orders/friend-pay';
import { issueOpenId } from '../payments/support';
import { startTestServer } from '../support/harness';
import { assertMoneyInvariants } from '../support/money-invariants';
import { askRefund, myRefund, quote, staffRefund } from '../cards/refund-support';
import { allDueJobs } from './refund-support';
import { create, credit, newGoods, newMember, newStaff, orderRow, pay } from './support';

/**
 * One money breakdown (decision 101) on the real server: an order paid from the balance and by WeChat
 * Pay, and one split with a friend, tell the same breakdown in the order detail, the purchase history
 * and the card timeline; the refund quote names what goes back to each payer by each method, and the
 * refund result carries the same breakdown as the order, each payer's line refunded.
 */
describe('one money breakdown', async () => {
  const s = await startTestServer({ seed: true });
  const simulate = (prepayId: string) => s.call('POST', '/api/dev/pay/wechat/simulate', { body: { prepayId, outcome: 'pay' } });

  /** The order's breakdown as each answer that shows it carries it. */
  async function everywhere(token: string, orderNo: string) {
    const o = await orderRow(s, orderNo);
    const detail = (await s.call('GET', `/api/orders/detail?orderNo=${orderNo}`, { token })).body.data;
    const purchases = (await s.call('GET', '/api/customers/purchases?pagenum=0&pagesize=10', { token })).body.data.list;
    const history = (await s.call('GET', `/api/customers/cards/history?id=${o.issuedCardId}&pagenum=0&pagesize=20`, { token })).body.data
      .list;
    return {
      detail: detail.breakdown,
      purchase: purchases.find((p: { orderNo: string }) => p.orderNo === orderNo).money,
      timeline: history.find((h: { kind: string }) => h.kind === 'bought').money,
      cardId: o.issuedCardId as number,
    };
  }

  /** Asks the card's refund, approves it and runs the refunds to their end. */
  async function refunded(token: string, cardId: number) {
    const staff = await newStaff(s);
    const id = (await askRefund(s, token, cardId)).body.data.id as number;
    expect((await staffRefund(s, staff.token, 'approve', id)).status).toBe(200);
    for (let i = 0; i < 5; i++) {
      s.clock.advance(10 * 60_000);
      await allDueJobs(s);
    }
    return (await myRefund(s, token, cardId)).body.data;
  }

  it('balance ¥30 + WeChat Pay ¥29.50: 实付 ¥59.50 with both lines on every screen; the refund gives each back by its way', async () => {
    const m = await newMember(s);
    await credit(s, m.id, 3_000);
    const g = await newGoods(s, { memberPriceCents: 5_950 });
    const no = (await create(s, m.token, { goodsId: g.id, useBalance: true })).body.data.orderNo as string;
    const started = await pay(s, m.token, no, 'wechat');
    await simulate(started.body.data.payment.prepayId);

    const paid = {
      scope: 'order',
      goodsTotalCents: 5_950,
      couponCents: 0,
      paidCents: 5_950,
      refundedCents: 0,
      refundingCents: 0,
      toPayCents: 0,
      payers: [
        { who: 'me', name: null, method: 'balance', paidCents: 3_000, refundedCents: 0, refundingCents: 0 },
        { who: 'me', name: null, method: 'wechat', paidCents: 2_950, refundedCents: 0, refundingCents: 0 },
      ],
    };
    const seen = await everywhere(m.token, no);
    expect(seen.detail).toEqual(paid);
    expect(seen.purchase).toEqual(paid);
    expect(seen.timeline).toEqual(paid);

    const q = (await quote(s, m.token, seen.cardId)).body.data;
    expect(q.money).toEqual(paid);
    expect(q.back).toEqual([
      { who: 'me', name: null, method: 'balance', cents: 3_000 },
      { who: 'me', name: null, method: 'wechat', cents: 2_950 },
    ]);

    const result = await refunded(m.token, seen.cardId);
    const back = {
      ...paid,
      refundedCents: 5_950,
      payers: [
        { who: 'me', name: null, method: 'balance', paidCents: 3_000, refundedCents: 3_000, refundingCents: 0 },
        { who: 'me', name: null, method: 'wechat', paidCents: 2_950, refundedCents: 2_950, refundingCents: 0 },
      ],
    };
    expect(result).toMatchObject({ state: 'approved', orderState: 'refunded' });
    expect(result.money).toEqual(back);
    const after = await everywhere(m.token, no);
    expect(after.detail).toEqual(back);
    expect(after.purchase).toEqual(back);
    expect(after.timeline).toEqual(back);
    await assertMoneyInvariants(s.deps.db);
  });

  it("split with a friend: the member's WeChat Pay line and the friend's named line on every screen; the friend's page shows only their share", async () => {
    const m = await newMember(s);
    const g = await newGoods(s);
    const no = (await create(s, m.token, { goodsId: g.id })).body.data.orderNo as string;
    // a split's parts take the numbers after the share they replace (1): 2 and 3
    expect((await s.call('POST', '/api/orders/split', { token: m.token, body: { orderNo: no, parts: [10_000, 9_900] } })).status).toBe(200);
    const t = (await s.call('POST', '/api/orders/friend/invite', { token: m.token, body: { orderNo: no, partSeqs: [3] } })).body.data
      .invitation.token as string;
    const openId = `o_friend_breakdown_${Date.now()}`;
    await issueOpenId(s, openId);
    const friend: FriendPayer = { openId, nickname: '小林', avatar: null };

    const asked = (await s.call('GET', `/api/friend/invitation?t=${t}`)).body.data.money;
    expect(asked).toEqual({
      scope: 'share',
      goodsTotalCents: 9_900,
      couponCents: 0,
      paidCents: 0,
      refundedCents: 0,
      refundingCents: 0,
      toPayCents: 9_900,
      payers: [],
    });

    const mine = await s.call('POST', '/api/orders/pay', { token: m.token, body: { orderNo: no, method: 'wechat', partSeq: 2 } });
    await simulate(mine.body.data.payment.prepayId);
    const theirs = await payAsFriend(s.deps, t, friend);
    await simulate((theirs.payment as { prepayId: string }).prepayId);

    const paid = {
      scope: 'order',
      goodsTotalCents: 19_900,
      couponCents: 0,
      paidCents: 19_900,
      refundedCents: 0,
      refundingCents: 0,
      toPayCents: 0,
      payers: [
        { who: 'me', name: null, method: 'wechat', paidCents: 10_000, refundedCents: 0, refundingCents: 0 },
        { who: 'friend', name: '小林', method: 'wechat', paidCents: 9_900, refundedCents: 0, refundingCents: 0 },
      ],
    };
    const seen = await everywhere(m.token, no);
    expect(seen.detail).toEqual(paid);
    expect(seen.purchase).toEqual(paid);
    expect(seen.timeline).toEqual(paid);
    // the friend's page: their own payment of the share, never the member's line
    expect((await s.call('GET', `/api/friend/invitation?t=${t}`)).body.data.money).toEqual({
      scope: 'share',
      goodsTotalCents: 9_900,
      couponCents: 0,
      paidCents: 9_900,
      refundedCents: 0,
      refundingCents: 0,
      toPayCents: 0,
      payers: [{ who: 'friend', name: '小林', method: 'wechat', paidCents: 9_900, refundedCents: 0, refundingCents: 0 }],
    });

    expect((await quote(s, m.token, seen.cardId)).body.data.back).toEqual([
      { who: 'me', name: null, method: 'wechat', cents: 10_000 },
      { who: 'friend', name: '小林', method: 'wechat', cents: 9_900 },
    ]);
    const result = await refunded(m.token, seen.cardId);
    const back = {
      ...paid,
      refundedCents: 19_900,
      payers: [
        { who: 'me', name: null, method: 'wechat', paidCents: 10_000, refundedCents: 10_000, refundingCents: 0 },
        { who: 'friend', name: '小林', method: 'wechat', paidCents: 9_900, refundedCents: 9_900, refundingCents: 0 },
      ],
    };
    expect(result.money).toEqual(back);
    expect((await everywhere(m.token, no)).detail).toEqual(back);
    await assertMoneyInvariants(s.deps.db);
  });
});
