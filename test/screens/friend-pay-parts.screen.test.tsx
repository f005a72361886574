// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { formatYuan } from '../../src/domain/money';
import { payAsFriend } from '../../src/server/services/orders/friend-pay';
import { create, credit, newGoods, newMember } from '../server/orders/support';
import { issueOpenId } from '../server/payments/support';
import { friendPayWorld } from './support/friend-pay-world';
import { screen, startScreenHarness } from './support/screen-harness';

/**
 * The friend's page of one part while the order's other parts are being paid (decision 058): a split
 * order of three, the member at WeChat Pay for part 2 and another friend at the cashier for part 3;
 * the friend of part 4 sees their own part (its amount, to pay), pays it, and is not held up.
 */
const h = await startScreenHarness({ seed: true });
const world = friendPayWorld(h);
const PARTS = [7_000, 6_500, 6_400];

describe("a friend's part while the other parts are being paid", () => {
  it('shows the part to pay and pays it while the member and another friend each have a trade open', async () => {
    const member = await newMember(h.server);
    await credit(h.server, member.id, 50_000);
    const orderNo = (await create(h.server, member.token, { goodsId: (await newGoods(h.server)).id })).body.data.orderNo as string;
    const post = (path: string, body: unknown) => h.server.call('POST', `/api/orders/${path}`, { token: member.token, body });
    expect((await post('split', { orderNo, parts: PARTS })).body.code).toBe(200);
    const link = async (seq: number) => (await post('friend/invite', { orderNo, partSeqs: [seq] })).body.data.invitation.token as string;
    const third = await link(3);
    const fourth = await link(4);
    // the member opens WeChat Pay for part 2; another friend is at the cashier for part 3
    expect((await post('pay', { orderNo, method: 'wechat', partSeq: 2 })).body.code).toBe(200);
    const other = `o_parts_other_${Date.now()}`;
    await issueOpenId(h.server, other);
    await payAsFriend(h.server.deps, third, { openId: other, nickname: null, avatar: null });

    // the friend of part 4, authorized in this browser, opens their link
    await world.authorizeHere(fourth);
    await h.open(`/payfriend?t=${fourth}`);
    await screen.findByText(`立即代付 ${formatYuan(PARTS[2]!)}`);
    expect(document.querySelector('[data-amount]')?.textContent).toBe(formatYuan(PARTS[2]!));
    expect(document.querySelector<HTMLButtonElement>('[data-action="pay"]')?.disabled).toBe(false);
    // the friend's pay is taken (a trade of their own), not refused because others are paying
    const paid = await h.server.call('POST', '/api/friend/pay', { body: { t: fourth }, headers: { cookie: h.jar.header() } });
    expect(paid.body.code).toBe(200);
    const parts = (await h.server.call('GET', `/api/orders/detail?orderNo=${orderNo}`, { token: member.token })).body.data.parts as Array<{
      seq: number;
      holder: string | null;
    }>;
    expect(parts.filter((p) => p.seq > 1).map((p) => [p.seq, p.holder])).toEqual([
      [2, 'memberTrade'],
      [3, 'friendTrade'],
      [4, 'friendTrade'],
    ]);
  });
});
