// @vitest-environment jsdom
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { formatYuan } from '../../src/domain/money';
import { shanghaiMinute } from '../../src/domain/time';
import { accounts } from '../../src/server/db/schema/index';
import { payAsFriend } from '../../src/server/services/orders/friend-pay';
import { create, credit, newGoods, newMember } from '../server/orders/support';
import { issueOpenId } from '../server/payments/support';
import { screen, startScreenHarness } from './support/screen-harness';

/**
 * Friend pay that explains itself on both sides (decision 099), on the real screens and server: the
 * friend's page says who asks (their messaging-app name and avatar), what, how much and until when;
 * the member's split page says each paid part's payer and method, the friend by name or "you", and
 * the member's notices say the friend paid.
 */
const h = await startScreenHarness({ seed: true });
const PARTS = [10_000, 9_900];

async function memberWithSplitOrder(profile: Partial<typeof accounts.$inferInsert>) {
  const m = await newMember(h.server);
  if (Object.keys(profile).length > 0) await h.server.deps.db.update(accounts).set(profile).where(eq(accounts.id, m.id));
  await credit(h.server, m.id, 50_000);
  const orderNo = (await create(h.server, m.token, { goodsId: (await newGoods(h.server)).id })).body.data.orderNo as string;
  const post = (path: string, body: unknown) => h.server.call('POST', `/api/orders/${path}`, { token: m.token, body });
  expect((await post('split', { orderNo, parts: PARTS })).body.code).toBe(200);
  const invitation = (await post('friend/invite', { orderNo, partSeqs: [3] })).body.data.invitation as { token: string; expiresAt: string };
  return { m, orderNo, post, invitation };
}

describe('friend pay explains itself', () => {
  it("the friend's page says who asks, with their avatar, what, how much and until when", async () => {
    const { invitation } = await memberWithSplitOrder({ wxNickname: '林小雨', wxAvatar: 'https://wx.example/lin.png' });
    await h.open(`/payfriend?t=${invitation.token}`);
    const avatar = await screen.findByRole('img', { name: '林小雨' });
    expect(avatar.getAttribute('src')).toBe('https://wx.example/lin.png');
    expect(screen.getByText('请你代付', { exact: false }).textContent).toBe('林小雨 请你代付');
    expect(screen.getByRole('heading', { name: '20次卡' })).toBeTruthy();
    expect(screen.getByText(formatYuan(PARTS[1]!))).toBeTruthy();
    expect(screen.getByText(`请在 ${shanghaiMinute(invitation.expiresAt)} 前支付`)).toBeTruthy();
    expect(screen.getByRole('button', { name: `立即代付 ${formatYuan(PARTS[1]!)}` })).toBeTruthy();
  });

  it('a member without a messaging-app name is named as other members see them, masked, and the phone never whole', async () => {
    const { m, invitation } = await memberWithSplitOrder({ name: '王晓明' });
    await h.open(`/payfriend?t=${invitation.token}`);
    // the name is bold inside the sentence: the sentence is read whole, as a person reads it
    await screen.findByText((_, el) => el?.hasAttribute('data-asker-name') === true && el.textContent === '**明 请你代付');
    const [a] = await h.server.deps.db.select({ phone: accounts.phone }).from(accounts).where(eq(accounts.id, m.id));
    expect(document.body.textContent).not.toContain(a!.phone);
  });

  it('the split page says who paid each part and how: "you" by balance, the friend by name by WeChat Pay', async () => {
    const { m, orderNo, post, invitation } = await memberWithSplitOrder({});
    expect((await post('pay', { orderNo, method: 'balance', partSeq: 2 })).body.code).toBe(200);
    const openId = `o_explains_${Date.now()}`;
    await issueOpenId(h.server, openId);
    const start = await payAsFriend(h.server.deps, invitation.token, { openId, nickname: '阿杰', avatar: null });
    const prepayId = (start.payment as { prepayId: string }).prepayId;
    expect((await h.server.call('POST', '/api/dev/pay/wechat/simulate', { body: { prepayId, outcome: 'pay' } })).status).toBe(200);
    h.jar.setClientCookie('token', m.token);
    await h.open(`/orderdetail/splittopay?orderNo=${orderNo}`);
    await screen.findByText('阿杰 已代付（微信支付）');
    expect(screen.getByText('你已支付（余额支付）')).toBeTruthy();
    // and the member is told where the app shows notices: who paid, how much, the order
    await h.open('/sys/notification');
    await screen.findByText('好友已为您代付：20次卡');
    expect(document.body.textContent).toContain(`阿杰 已用微信支付为您代付 ${formatYuan(PARTS[1]!)}（订单 ${orderNo}）。`);
  });
});
