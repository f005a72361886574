// @vitest-environment jsdom
import { cleanup, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { payAsFriend } from '../../src/server/services/orders/friend-pay';
import { askRefund, staffRefund } from '../server/cards/refund-support';
import { allDueJobs } from '../server/orders/refund-support';
import { create, credit, newGoods, newMember, newStaff, orderRow, pay } from '../server/orders/support';
import { issueOpenId } from '../server/payments/support';
import { screen, startScreenHarness } from './support/screen-harness';

/**
 * One money breakdown (decision 101) on the real screens and server: the order page, the purchase
 * history, the card timeline, the split page, the friend's page and the refund page each show the
 * same lines for the same order: the goods, each payer's line by method (a friend by name), 实付 as
 * their sum, and after a refund what went back to each.
 */
const h = await startScreenHarness({ seed: true });
const simulate = (prepayId: string) => h.server.call('POST', '/api/dev/pay/wechat/simulate', { body: { prepayId, outcome: 'pay' } });

/** A screen alone on the page (the one before it unmounted). */
const open = (url: string) => {
  cleanup();
  return h.open(url);
};

/** The lines of the breakdown on screen (the first, or the one inside `within`). */
async function linesShown(inside?: HTMLElement) {
  const list = inside ? within(inside).getByRole('list', { name: '金额明细' }) : await screen.findByRole('list', { name: '金额明细' });
  return within(list)
    .getAllByRole('listitem')
    .map((li) => li.textContent);
}

describe('one money breakdown on every screen', () => {
  it('balance ¥30 + WeChat Pay ¥29.50: the same lines on the order, the purchase history, the card timeline and the refund', async () => {
    const m = await newMember(h.server);
    await credit(h.server, m.id, 3_000);
    const g = await newGoods(h.server, { memberPriceCents: 5_950 });
    const orderNo = (await create(h.server, m.token, { goodsId: g.id, useBalance: true })).body.data.orderNo as string;
    await simulate((await pay(h.server, m.token, orderNo, 'wechat')).body.data.payment.prepayId);
    const cardId = (await orderRow(h.server, orderNo)).issuedCardId!;
    h.jar.setClientCookie('token', m.token);
    const paid = ['商品金额¥59.50', '余额支付¥30', '微信支付¥29.50', '实付金额¥59.50'];

    await open(`/orderdetail?orderNo=${orderNo}`);
    expect(await linesShown()).toEqual(paid);
    await open('/myPurchaseHistory');
    await screen.findByText(`订单号 ${orderNo}`);
    expect(await linesShown()).toEqual(paid);
    await open(`/mine/CardDetailPage?id=${cardId}`);
    expect(await linesShown()).toEqual(paid);

    // the quote names what goes back to each way, before the member asks
    await open(`/mine/refund?id=${cardId}`);
    const back = await screen.findByRole('list', { name: '退回去向' });
    expect(
      within(back)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['退回余额¥30', '退回微信支付¥29.50']);

    const staff = await newStaff(h.server);
    const id = (await askRefund(h.server, m.token, cardId)).body.data.id as number;
    expect((await staffRefund(h.server, staff.token, 'approve', id)).status).toBe(200);
    for (let i = 0; i < 5; i++) {
      h.server.clock.advance(10 * 60_000);
      await allDueJobs(h.server);
    }
    const refunded = ['商品金额¥59.50', '余额支付¥30已退回 ¥30', '微信支付¥29.50已退回 ¥29.50', '实付金额¥59.50', '已退款¥59.50'];
    await open(`/mine/refund?id=${cardId}`);
    await screen.findByText('款项已按原支付方式退回，会员卡已作废。');
    expect(await linesShown()).toEqual(refunded);
    await open(`/orderdetail?orderNo=${orderNo}`);
    expect(await linesShown()).toEqual(refunded);
  });

  it("split with a friend: the member's line and the friend's named line on the split page and the order; the friend's page only the share", async () => {
    const m = await newMember(h.server);
    const orderNo = (await create(h.server, m.token, { goodsId: (await newGoods(h.server)).id })).body.data.orderNo as string;
    const post = (path: string, body: unknown) => h.server.call('POST', `/api/orders/${path}`, { token: m.token, body });
    expect((await post('split', { orderNo, parts: [10_000, 9_900] })).status).toBe(200);
    const t = (await post('friend/invite', { orderNo, partSeqs: [3] })).body.data.invitation.token as string;

    // before paying, the invitation's amount alone: no lines of anyone's money
    await open(`/payfriend?t=${t}`);
    await screen.findByRole('heading', { name: '20次卡' });
    expect(screen.queryByRole('list', { name: '金额明细' })).toBe(null);

    await simulate((await post('pay', { orderNo, method: 'wechat', partSeq: 2 })).body.data.payment.prepayId);
    const openId = `o_breakdown_${Date.now()}`;
    await issueOpenId(h.server, openId);
    const start = await payAsFriend(h.server.deps, t, { openId, nickname: '阿杰', avatar: null });
    await simulate((start.payment as { prepayId: string }).prepayId);

    const paid = ['商品金额¥199', '微信支付¥100', '好友代付（阿杰，微信支付）¥99', '实付金额¥199'];
    h.jar.setClientCookie('token', m.token);
    await open(`/orderdetail/splittopay?orderNo=${orderNo}`);
    await screen.findByText('阿杰 已代付（微信支付）');
    expect(await linesShown()).toEqual(paid);
    await open(`/orderdetail?orderNo=${orderNo}`);
    expect(await linesShown()).toEqual(paid);
    // the friend sees their own payment of the share, never the member's line
    h.jar.setClientCookie('token', '');
    await open(`/payfriend?t=${t}`);
    expect(await linesShown()).toEqual(['代付金额¥99', '好友代付（阿杰，微信支付）¥99', '实付金额¥99']);
  });
});
