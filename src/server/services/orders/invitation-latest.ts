import { and, desc, eq } from 'drizzle-orm';
import type { PartAction } from '../../../domain/orders';
import { friendInvitations, paymentAttempts, paymentParts, payments } from '../../db/schema/index';
import type { Deps } from '../../env';
import type { InvitationRow } from './invitation-rows';
import { offerFacts, offersOf } from './offer-facts';
import type { PartRow } from './parts';
import { myOrder, type OrderRow } from './read';

export interface LatestInvitation {
  order: OrderRow;
  invitation: InvitationRow;
  part: PartRow;
  /** paid: the friend's nickname ('' when the messaging app gave none) and how they paid */
  paidBy: { friendName: string; method: 'wechat' | 'alipay' } | null;
}

/**
 * The member's latest invitation for an order, or for one part of it (decision 099): what happened to
 * it, so a re-opened invitation page says it (paid by whom, expired, withdrawn) instead of trying to
 * invite again; with what the share (or the order) accepts now, to lead on. Null when none was made.
 */
export async function latestInvitation(
  deps: Deps,
  accountId: number,
  orderNo: string,
  partSeq?: number,
): Promise<{ order: OrderRow; latest: LatestInvitation | null; actions: PartAction[] }> {
  const { db, clock } = deps;
  const o = await myOrder(db, accountId, orderNo);
  const where = [eq(friendInvitations.orderId, o.id)];
  if (partSeq !== undefined) where.push(eq(paymentParts.seq, partSeq));
  const [row] = await db
    .select({ invitation: friendInvitations, part: paymentParts })
    .from(friendInvitations)
    .innerJoin(paymentParts, eq(paymentParts.id, friendInvitations.partId))
    .where(and(...where))
    .orderBy(desc(friendInvitations.id))
    .limit(1);
  const offers = offersOf(await offerFacts(db, o, clock.now()));
  // a part named: what that share accepts (none once it is no longer live: merged, the split undone); else what the order accepts
  const actions: PartAction[] =
    partSeq === undefined
      ? offers.actions.flatMap((a) => (a === 'pay' || a === 'invite' ? [a] : []))
      : (offers.parts.get(partSeq)?.actions ?? []);
  if (!row) return { order: o, latest: null, actions };
  const [paid] = await db
    .select({ nickname: paymentAttempts.payerNickname, provider: paymentAttempts.provider })
    .from(payments)
    .innerJoin(paymentAttempts, eq(paymentAttempts.id, payments.attemptId))
    .where(and(eq(paymentAttempts.invitationId, row.invitation.id), eq(payments.status, 'paid')))
    .limit(1);
  // an open one past its hour reads expired before its job has run
  const over = row.invitation.state === 'open' && row.invitation.expiresAt.getTime() <= clock.now().getTime();
  const invitation = over ? { ...row.invitation, state: 'expired' as const } : row.invitation;
  const method = paid?.provider === 'alipay' ? 'alipay' : 'wechat';
  return {
    order: o,
    latest: { order: o, invitation, part: row.part, paidBy: paid ? { friendName: paid.nickname ?? '', method } : null },
    actions,
  };
}
