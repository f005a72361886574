import { act } from '@testing-library/react';
import { and, eq, like } from 'drizzle-orm';
import { expect } from 'vitest';
import { actorTimers } from '../../../src/app/app-clock';
import { friendInvitations, payStandInOrders } from '../../../src/server/db/schema/index';
import { create, credit, newGoods, newMember } from '../../server/orders/support';
import type { ScreenHarness } from './screen-harness';

/** A member's order with a friend's invitation open on it: what the friend's page (/payfriend?t=) is opened for. */
export interface InvitedOrder {
  /** the member whose order it is */
  member: { id: number; token: string };
  orderNo: string;
  /** the invitation's real token (the link) */
  t: string;
}

let friends = 0;

/**
 * The world of the friend's page, played on the real server (the friend-pay and friend-pay-result
 * screen paths): the member's order and invitation, the friend's authorization by the messaging app's
 * OAuth stand-in, WeChat Pay's stand-in settling the friend's trade, the member withdrawing, time.
 */
export function friendPayWorld(h: ScreenHarness) {
  /**
   * The browser through the messaging app's user-info authorization (the OAuth stand-in, as the friend
   * would allow it as `openId`): follows the redirects, keeping the cookies; answers where it came back to.
   */
  async function throughAuthorization(url: string, openId: string): Promise<{ back: string; cookies: string[] }> {
    const origin = h.server.deps.config.publicUrl;
    const all: string[] = [];
    const get = async (u: string) => {
      const res = await h.server.app.request(u.startsWith('http') ? u : `${origin}${u}`, { headers: { cookie: h.jar.header() } });
      all.push(...res.headers.getSetCookie());
      return res.headers.get('location') ?? '';
    };
    const provider = new URL(await get(url));
    provider.searchParams.set('as', openId);
    const callback = await get(provider.toString());
    return { back: await get(callback), cookies: all };
  }

  /** the invitation as the server stores it */
  async function invitation(w: InvitedOrder) {
    const [i] = await h.server.deps.db.select().from(friendInvitations).where(eq(friendInvitations.token, w.t));
    return i!;
  }

  return {
    throughAuthorization,
    invitation,
    /** a member, ¥500 of balance, an unpaid order and the invitation a friend is sent */
    async invitedOrder(): Promise<InvitedOrder> {
      const member = await newMember(h.server);
      await credit(h.server, member.id, 50_000);
      const g = await newGoods(h.server);
      const orderNo = (await create(h.server, member.token, { goodsId: g.id })).body.data.orderNo as string;
      const invited = await h.server.call('POST', '/api/orders/friend/invite', { token: member.token, body: { orderNo } });
      expect(invited.status).toBe(200);
      return { member, orderNo, t: invited.body.data.invitation.token as string };
    },
    /** A friend the messaging app authorized in this browser: the wxFriend cookie set, as the stand-in answers it. */
    async authorizeHere(t: string, step?: 'authorized') {
      const openId = `o_friend_screen_${++friends}_${Date.now()}`;
      const from = `/payfriend?t=${t}${step ? `&step=${step}` : ''}`;
      const { back, cookies } = await throughAuthorization(
        `/api/oauth/wechat/authorize?from=${encodeURIComponent(from)}&scope=userinfo`,
        openId,
      );
      expect(back).toBe(from);
      h.jar.store(cookies);
      expect(h.jar.get('wxFriend'), 'the authorization left the friend cookie').toBeTruthy();
      return openId;
    },
    /** WeChat Pay settles the trade open on the order as paid (its signed notification) */
    async settlePaid(w: InvitedOrder) {
      const [trade] = await h.server.deps.db
        .select()
        .from(payStandInOrders)
        .where(and(like(payStandInOrders.outTradeNo, `${w.orderNo}-%`), eq(payStandInOrders.state, 'NOTPAY')));
      expect(trade, 'a trade waits at WeChat Pay').toBeDefined();
      expect(
        (await h.server.call('POST', '/api/dev/pay/wechat/simulate', { body: { prepayId: trade!.prepayId, outcome: 'pay' } })).status,
      ).toBe(200);
      expect((await invitation(w)).state).toBe('paid');
    },
    /** the member withdraws the invitation on their phone */
    async withdrawByMember(w: InvitedOrder) {
      expect(
        (await h.server.call('POST', '/api/orders/friend/withdraw', { token: w.member.token, body: { orderNo: w.orderNo } })).status,
      ).toBe(200);
    },
    /** the hour passes on the server (the page's own timers are not moved: the friend just comes back to it later) */
    async hourOver(w: InvitedOrder) {
      const left = (await invitation(w)).expiresAt.getTime() - h.server.clock.now().getTime();
      if (left > 0) h.server.clock.advance(left);
    },
    /** moves the page's timers and the server's clock together */
    async pass(ms: number) {
      h.server.clock.advance(ms);
      const clock = actorTimers().clock as unknown as { increment(ms: number): void };
      await act(async () => clock.increment(ms));
    },
  };
}
