import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { friendInvitationMachine } from '../../../machines/domain/friend-invitation.machine';
import { FRIEND_INVITATION_TTL_MS } from '../../../src/domain/pricing';
import { friendInvitations, paymentAttempts } from '../../../src/server/db/schema/index';
import { payAsFriend } from '../../../src/server/services/orders/friend-pay';
import { issueOpenId } from '../payments/support';
import { runInvitationExpiry } from '../../../src/server/services/orders/invitations';
import { cardsOf, create, newGoods, newMember, orderRow } from '../orders/support';
import { startTestServer } from '../support/harness';
import { accepted, defineServerPaths } from '../support/server-paths';

/**
 * The friend-invitation chart (decision 021) against the server: a member invites a friend to pay a
 * whole ¥199 order (POST /orders/friend/invite); the member withdraws it (POST /orders/friend/withdraw),
 * or the hour passes and its expiry job ends it, or a friend pays it (WeChat Pay JSAPI with the friend's
 * open id, the stand-in's signed notification). Each state is read from `friend_invitations` and from what the
 * friend's page is told (GET /friend/invitation), with what it means for the order.
 */
const s = await startTestServer({ seed: true });

interface Invitation {
  token: string;
  accountId: number;
  orderNo: string;
  link: string;
  expiresAt: Date;
}

let friends = 0;
/** A friend the messaging app authorized with the user-info scope (the OAuth stand-in issued the open id). */
async function friend() {
  const openId = `o_paths_friend_${++friends}`;
  await issueOpenId(s, openId);
  return { openId, nickname: `好友${friends}`, avatar: null };
}

const row = async (w: Invitation) => (await s.deps.db.select().from(friendInvitations).where(eq(friendInvitations.token, w.link)))[0]!;
const friendView = async (w: Invitation) => (await s.call('GET', `/api/friend/invitation?t=${encodeURIComponent(w.link)}`)).body.data;
const orderDetail = async (w: Invitation) => (await s.call('GET', `/api/orders/detail?orderNo=${w.orderNo}`, { token: w.token })).body.data;

defineServerPaths<Invitation>(s, {
  machine: friendInvitationMachine,
  record: 'a friend-pay invitation',
  async start() {
    const m = await newMember(s);
    const g = await newGoods(s);
    const r = await create(s, m.token, { goodsId: g.id });
    accepted(r, 'create');
    const orderNo = r.body.data.orderNo as string;
    const inv = await s.call('POST', '/api/orders/friend/invite', { token: m.token, body: { orderNo } });
    accepted(inv, 'invite a friend');
    return { token: m.token, accountId: m.id, orderNo, link: inv.body.data.invitation.token, expiresAt: new Date(inv.body.data.invitation.expiresAt) };
  },
  events: {
    // a friend the messaging app authorized pays at WeChat Pay (the stand-in's cashier), and its signed notification comes
    'invitation.paid': async (w) => {
      const start = await payAsFriend(s.deps, w.link, await friend());
      accepted(await s.call('POST', '/api/dev/pay/wechat/simulate', { body: { prepayId: (start.payment as { prepayId: string }).prepayId, outcome: 'pay' } }), 'the friend pays');
    },
    'invitation.withdraw': async (w) => accepted(await s.call('POST', '/api/orders/friend/withdraw', { token: w.token, body: { orderNo: w.orderNo } }), 'withdraw'),
    // its job at the end of the hour (the clock moved there first)
    'invitation.expire': async (w) => {
      const due = w.expiresAt.getTime() - s.clock.now().getTime();
      if (due > 0) s.clock.advance(due);
      await runInvitationExpiry(s.deps, { invitationId: (await row(w)).id });
    },
  },
  async read(w) {
    const stored = (await row(w)).state;
    return { stored, shown: (await friendView(w)).state };
  },
  states: {
    // the friend may pay it: the order waits for the friend, the member cannot pay it meanwhile
    open: async (w) => {
      const r = await row(w);
      expect(r.endedAt).toBe(null);
      expect(r.expiresAt.getTime() - r.createdAt.getTime()).toBe(FRIEND_INVITATION_TTL_MS);
      expect((await orderDetail(w)).state).toBe('friend_paying');
      expect((await s.call('POST', '/api/orders/pay', { token: w.token, body: { orderNo: w.orderNo, method: 'balance' } })).body.code).toBe(40002);
    },
    // the friend paid: the order is fully paid and its card issued once, the member's balance untouched
    paid: async (w) => {
      const r = await row(w);
      expect(r.endedAt).not.toBe(null);
      expect((await orderDetail(w)).state).toBe('fully_paid');
      expect(await cardsOf(s, w.accountId)).toHaveLength(1);
      const [attempt] = await s.deps.db.select().from(paymentAttempts).where(eq(paymentAttempts.invitationId, r.id));
      expect(attempt).toMatchObject({ state: 'paid', payerAccountId: null });
    },
    // the hour passed unpaid: ended at its expiry, the order waits for the member's money again
    expired: async (w) => {
      const r = await row(w);
      expect(r.endedAt!.getTime()).toBeGreaterThanOrEqual(r.expiresAt.getTime());
      expect((await orderRow(s, w.orderNo)).state).toBe('unpaid');
    },
    // the member took it back before the hour: the friend's link is dead, the order is the member's to pay
    withdrawn: async (w) => {
      const r = await row(w);
      expect(r.endedAt!.getTime()).toBeLessThan(r.expiresAt.getTime());
      // (its actions depend on the order's own new pay window, which a refused expiry's clock may have ended)
      expect((await orderDetail(w)).state).toBe('unpaid');
      expect((await orderRow(s, w.orderNo)).expiresAt!.getTime()).toBeGreaterThan(r.endedAt!.getTime());
    },
  },
});
