import { and, eq, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { FRIEND_INVITATION_TTL_MS } from '../../../src/domain/pricing';
import { accounts, notifications, payStandInOrders } from '../../../src/server/db/schema/index';
import { wechatNotification } from '../../../src/server/gateways/payments/wechat-standin';
import { runDueJobs } from '../../../src/server/jobs/runner';
import type { FriendPayer } from '../../../src/server/services/auth/openid-tickets';
import { payAsFriend } from '../../../src/server/services/orders/friend-pay';
import { issueOpenId } from '../payments/support';
import { startTestServer } from '../support/harness';
import { create, credit, newGoods, newMember, orderRow } from './support';

/**
 * Friend pay that explains itself (decision 099): the friend's page says who asks; the member's
 * re-opened invitation says what happened to it (paid by whom and how, expired, withdrawn, open);
 * the member is told once, by an in-app notice, that the friend paid or that the hour ran out.
 */
describe('friend pay explains itself', async () => {
  const s = await startTestServer({ seed: true });
  const post = (token: string, path: string, body: unknown) => s.call('POST', `/api/orders/${path}`, { token, body });
  const latest = (token: string, orderNo: string, partSeq?: number) =>
    s.call('GET', `/api/orders/friend/invitation?orderNo=${orderNo}${partSeq === undefined ? '' : `&partSeq=${partSeq}`}`, { token });
  const noticesOf = (accountId: number) => s.deps.db.select().from(notifications).where(eq(notifications.accountId, accountId));
  const allDueJobs = async () => {
    while ((await runDueJobs(s.deps)) > 0);
  };
  let friends = 0;
  async function friend(nickname: string): Promise<FriendPayer> {
    const openId = `o_explain_${++friends}_${Date.now()}`;
    await issueOpenId(s, openId);
    return { openId, nickname, avatar: null };
  }
  async function invited(profile: Partial<typeof accounts.$inferInsert> = {}, parts?: number[]) {
    const m = await newMember(s);
    if (Object.keys(profile).length) await s.deps.db.update(accounts).set(profile).where(eq(accounts.id, m.id));
    await credit(s, m.id, 50_000);
    const g = await newGoods(s);
    const no = (await create(s, m.token, { goodsId: g.id })).body.data.orderNo as string;
    let seqs: number[] = [];
    if (parts) {
      const split = await post(m.token, 'split', { orderNo: no, parts });
      expect(split.status).toBe(200);
      seqs = (split.body.data.parts as Array<{ kind: string; state: string; seq: number }>)
        .filter((p) => p.kind === 'share' && p.state === 'unpaid')
        .map((p) => p.seq);
    }
    const r = await post(m.token, 'friend/invite', { orderNo: no, partSeqs: parts ? [seqs[0]] : undefined });
    expect(r.status).toBe(200);
    return { m, no, seqs, t: r.body.data.invitation.token as string };
  }
  const paidNotification = async (no: string) => {
    const [trade] = await s.deps.db
      .select()
      .from(payStandInOrders)
      .where(eq(payStandInOrders.outTradeNo, `${no}-1`));
    return wechatNotification(trade!, s.deps.gateways.payments.standIn!.wechat, Math.floor(s.clock.now().getTime() / 1000));
  };

  it("the friend's page says who asks: the member's messaging-app nickname and avatar", async () => {
    const { t } = await invited({ wxNickname: '小林', wxAvatar: 'https://wx.example/a.png' });
    const r = await s.call('GET', `/api/friend/invitation?t=${t}`);
    expect(r.body.data).toMatchObject({ state: 'open', amountCents: 19_900, member: { name: '小林', avatar: 'https://wx.example/a.png' } });
  });

  it('without a nickname, the name other members see (masked), else the masked phone: never the whole phone', async () => {
    const named = await invited({ name: '林小雨', avatarUrl: '/media/avatar/x.png' });
    expect((await s.call('GET', `/api/friend/invitation?t=${named.t}`)).body.data.member).toEqual({
      name: '**雨',
      avatar: '/media/avatar/x.png',
    });
    const bare = await invited();
    const [a] = await s.deps.db.select().from(accounts).where(eq(accounts.id, bare.m.id));
    const shown = (await s.call('GET', `/api/friend/invitation?t=${bare.t}`)).body.data.member;
    expect(shown).toEqual({ name: `${a!.phone.slice(0, 3)}****${a!.phone.slice(-4)}`, avatar: null });
    expect(JSON.stringify(shown)).not.toContain(a!.phone);
  });

  it('the friend paid: the re-opened invitation says by whom and how, and a repeated payment notification writes one notice', async () => {
    const { m, no, t } = await invited();
    expect((await latest(m.token, no)).body.data).toMatchObject({ invitation: { state: 'open', friendName: null, paidBy: null } });
    const start = await payAsFriend(s.deps, t, await friend('阿杰'));
    expect(start.amountCents).toBe(19_900);
    const prepayId = (start.payment as { prepayId: string }).prepayId;
    expect((await s.call('POST', '/api/dev/pay/wechat/simulate', { body: { prepayId, outcome: 'pay' } })).status).toBe(200);
    // the provider sends the same notification again
    const n = await paidNotification(no);
    const notify = () => s.app.request('/api/pay/notify/wechat', { method: 'POST', headers: n.headers, body: n.body });
    expect((await notify()).status).toBe(204);
    expect((await orderRow(s, no)).state).toBe('fully_paid');
    const r = (await latest(m.token, no)).body.data;
    expect(r.invitation).toMatchObject({ state: 'paid', friendName: '阿杰', paidBy: 'wechat', partSeq: 1, amountCents: 19_900 });
    expect(r.invitation.endedAt).toBeTruthy();
    const mine = await noticesOf(m.id);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.title).toContain('好友已为您代付');
    expect(mine[0]!.body).toContain('阿杰');
    expect(mine[0]!.body).toContain('¥199');
    expect(mine[0]!.bodyEn).toContain('阿杰');
    // the member reads it where the app shows notices, in their language
    const shown = await s.call('GET', '/api/sys/notification', { token: m.token, headers: { cookie: 'lang=en' } });
    expect(shown.body.data.find((x: { personal: boolean }) => x.personal)).toMatchObject({ body: mine[0]!.bodyEn });
  });

  it('the hour ran out: the invitation-expiry job writes one notice in the same run, and the re-opened invitation says expired and may be sent again', async () => {
    const { m, no, seqs } = await invited({}, [10_000, 9_900]);
    s.clock.advance(FRIEND_INVITATION_TTL_MS);
    await allDueJobs();
    await allDueJobs();
    const mine = await noticesOf(m.id);
    expect(mine.map((x) => x.title)).toEqual([expect.stringContaining('代付邀请已过期')]);
    expect(mine[0]!.bodyEn).toMatch(/1 hour/);
    const r = (await latest(m.token, no, seqs[0])).body.data;
    expect(r.invitation).toMatchObject({ state: 'expired', partSeq: seqs[0], friendName: null });
    expect(r.actions).toEqual(expect.arrayContaining(['pay', 'invite']));
    // the other part was never sent: nothing to say about it
    expect((await latest(m.token, no, seqs[1])).body.data).toMatchObject({ invitation: null });
  });

  it("another member's order is not found (404); a bad partSeq names the field", async () => {
    const { no } = await invited();
    const other = await newMember(s);
    expect((await latest(other.token, no)).status).toBe(404);
    const { m } = await invited();
    expect((await latest(m.token, no)).status).toBe(404);
    const bad = await s.call('GET', `/api/orders/friend/invitation?orderNo=${no}&partSeq=zero`, { token: m.token });
    expect(bad.status).toBe(400);
    expect(
      await s.deps.db
        .select()
        .from(notifications)
        .where(and(eq(notifications.accountId, m.id), like(notifications.title, '%'))),
    ).toEqual([]);
  });
});
