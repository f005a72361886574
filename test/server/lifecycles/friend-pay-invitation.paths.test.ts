import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { friendPayInvitationMachine } from '../../../machines/domain/friend-pay-invitation.machine';
import { FRIEND_INVITATION_TTL_MS } from '../../../src/domain/pricing';
import { friendInvitations, paymentAttempts } from '../../../src/server/db/schema/index';
import { payAsFriend } from '../../../src/server/services/orders/friend-pay';
import { issueOpenId } from '../payments/support';
import { runInvitationExpiry } from '../../../src/server/services/orders/invitations';
import { cardsOf, create, newGoods, newMember, orderRow } from '../orders/support';
import { startTestServer } from '../support/harness';
import { accepted, defineServerPaths } from '../support/server-paths';

/**
 * The friend-invitation chart (decision 021) against the server: a member splits a ¥199 order in two
 * and invites a friend to pay the second part (POST /orders/friend/invite); the member withdraws it
 * (POST /orders/friend/withdraw), or the hour passes and its expiry job ends it, or a friend pays it
 * (WeChat Pay JSAPI with the friend's open id, the stand-in's signed notification); once paid, the
 * member undoing the split gives the friend's money back (refunded). Each state is read from
 * `friend_invitations` and from what the friend's page is told (GET /friend/invitation), with what it
 * means for the order and its parts.
 */
const s = await startTestServer({ seed: true });

interface Invitation {
  token: string;
  accountId: number;
  orderNo: string;
  link: string;
  expiresAt: Date;
  /** the invited part, and the member's own */
  seq: number;
  ownSeq: number;
}

const PARTS = [10_000, 9_900];

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
  machine: friendPayInvitationMachine,
  record: 'a friend-pay invitation',
  async start() {
    const m = await newMember(s);
    const g = await newGoods(s);
    const r = await create(s, m.token, { goodsId: g.id });
    accepted(r, 'create');
    const orderNo = r.body.data.orderNo as string;
    accepted(await s.call('POST', '/api/orders/split', { token: m.token, body: { orderNo, parts: PARTS } }), 'split');
    // seq 1 was the whole share; the parts are 2 and 3
    const inv = await s.call('POST', '/api/orders/friend/invite', { token: m.token, body: { orderNo, partSeqs: [3] } });
    accepted(inv, 'invite a friend');
    return {
      token: m.token,
      accountId: m.id,
      orderNo,
      link: inv.body.data.invitation.token,
      expiresAt: new Date(inv.body.data.invitation.expiresAt),
      seq: 3,
      ownSeq: 2,
    };
  },
  events: {
    // a friend the messaging app authorized pays at WeChat Pay (the stand-in's cashier), and its signed notification comes
    'invitation.paid': async (w) => {
      const start = await payAsFriend(s.deps, w.link, await friend());
      accepted(
        await s.call('POST', '/api/dev/pay/wechat/simulate', {
          body: { prepayId: (start.payment as { prepayId: string }).prepayId, outcome: 'pay' },
        }),
        'the friend pays',
      );
    },
    'invitation.withdraw': async (w) =>
      accepted(await s.call('POST', '/api/orders/friend/withdraw', { token: w.token, body: { orderNo: w.orderNo } }), 'withdraw'),
    // the member undoes the split after the friend paid: the friend's part is given back
    'invitation.refund': async (w) =>
      accepted(await s.call('POST', '/api/orders/unsplit', { token: w.token, body: { orderNo: w.orderNo } }), 'unsplit'),
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
    // the friend may pay it: the order waits for the friend; the part is the friend's (the member is refused), the member's own part is theirs to pay meanwhile
    open: async (w) => {
      const r = await row(w);
      expect(r.endedAt).toBe(null);
      expect(r.expiresAt.getTime() - r.createdAt.getTime()).toBe(FRIEND_INVITATION_TTL_MS);
      const d = await orderDetail(w);
      expect(d.state).toBe('friend_paying');
      // the order waits as long as the link is open
      expect(new Date(d.expiresAt as string).getTime()).toBe(r.expiresAt.getTime());
      const parts = new Map((d.parts as Array<{ seq: number; holder: string | null; actions: string[] }>).map((p) => [p.seq, p]));
      expect(parts.get(w.seq)).toMatchObject({ holder: 'friendLink', actions: ['withdraw'] });
      expect(parts.get(w.ownSeq)).toMatchObject({ holder: null, actions: ['pay', 'invite'] });
      expect(
        (await s.call('POST', '/api/orders/pay', { token: w.token, body: { orderNo: w.orderNo, method: 'balance', partSeq: w.seq } })).body
          .code,
      ).toBe(40018);
    },
    // the friend paid their part: it reads paid by them, the order waits for the member's part, the member's balance untouched
    paid: async (w) => {
      const r = await row(w);
      expect(r.endedAt).not.toBe(null);
      const d = await orderDetail(w);
      expect(d.state).toBe('unpaid');
      expect((d.parts as Array<{ seq: number; state: string; paidBy: string | null }>).find((p) => p.seq === w.seq)).toMatchObject({
        state: 'paid',
        paidBy: 'wechat',
      });
      expect(await cardsOf(s, w.accountId)).toHaveLength(0);
      const [attempt] = await s.deps.db.select().from(paymentAttempts).where(eq(paymentAttempts.invitationId, r.id));
      expect(attempt).toMatchObject({ state: 'paid', payerAccountId: null });
    },
    // the split undone after the friend paid: the friend's money goes back to them, the order is one share again
    refunded: async (w) => {
      const d = await orderDetail(w);
      expect(d.state).toBe('unpaid');
      expect(d.refunds).toMatchObject([{ amountCents: PARTS[1], cause: 'split_undone', to: 'wechat' }]);
      expect((d.parts as Array<{ kind: string; state: string }>).filter((p) => p.kind === 'share' && p.state === 'unpaid')).toHaveLength(1);
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
