import { and, eq, isNull, max } from 'drizzle-orm';
import { nextAttemptState, OPEN_ATTEMPT_STATES, PAYMENT_ATTEMPT_INITIAL } from '../../../../machines/domain/payment-attempt-transitions';
import { Errors } from '../../../domain/errors';
import { accounts, friendInvitations, goods, orders, paymentAttempts, paymentParts } from '../../db/schema/index';
import type { Deps } from '../../env';
import type { PaymentStart } from '../../gateways/payments/types';
import { ApiError } from '../../http/api-error';
import { enqueueJob } from '../../jobs/queue';
import { decide } from '../../db/transaction';
import type { FriendPayer } from '../auth/openid-tickets';
import { openInvitations } from './invitation-rows';
import { guards } from '../../db/guards';
import { openAttemptOf, type AttemptRow } from './read';
import { PAYMENT_QUERY_AFTER_MS, PAYMENT_QUERY_JOB } from './settle';

/**
 * The friend pays an invitation's part through WeChat Pay JSAPI with their own open id (no account
 * needed; decision 021). One trade per part, whatever the order's other parts are doing (decision
 * 058): the same friend again gets the same trade; another friend, while it is open, or once the part
 * is paid, is refused (40018, "friend already acted"). An
 * invitation expired or withdrawn: 40022. The trade expires with the invitation, so the expiry job's
 * query and close are final; the provider's notification (or the query job) settles it like any
 * payment, and the order stays friend paying meanwhile.
 */
export async function payAsFriend(deps: Deps, token: string, payer: FriendPayer): Promise<{ payment: PaymentStart; amountCents: number }> {
  const { db, clock } = deps;
  const gateway = deps.gateways.payments.wechat;
  if (!gateway) throw new ApiError(Errors.payMethodUnavailable, { field: 'method' });
  // a concurrent request changing the part meanwhile makes another round
  for (let round = 0; round < 3; round++) {
    const found = await decide(db, async (tx) => {
      const [inv] = await tx.select().from(friendInvitations).where(eq(friendInvitations.token, token));
      if (!inv) throw new ApiError(Errors.notFound, { field: 't' });
      const [o] = await tx.select().from(orders).where(eq(orders.id, inv.orderId)).for('update');
      const [member] = await tx.select({ banned: accounts.banned }).from(accounts).where(eq(accounts.id, o!.accountId));
      if (!member || member.banned) throw new ApiError(Errors.userMissing);
      const open = (await openInvitations(tx, o!.id)).find((i) => i.id === inv.id);
      if (!open) throw new ApiError(inv.state === 'paid' ? Errors.friendAlreadyActed : Errors.invitationOver);
      if (open.expiresAt.getTime() <= clock.now().getTime()) throw new ApiError(Errors.invitationOver);
      const [part] = await tx.select().from(paymentParts).where(eq(paymentParts.id, open.partId));
      // the part's own trade only: other parts of the order are paid by their own payers at the same time (decision 058)
      const trade = await openAttemptOf(tx, part!.id);
      if (trade) {
        // the same friend again: the same trade; anyone else's trade on it: someone already acted
        if (trade.invitationId === open.id && trade.payerOpenId === payer.openId)
          return { order: o!, inv: open, part: part!, attempt: trade, made: false };
        throw new ApiError(Errors.friendAlreadyActed);
      }
      const [last] = await tx
        .select({ seq: max(paymentAttempts.seq) })
        .from(paymentAttempts)
        .where(eq(paymentAttempts.orderId, o!.id));
      const seq = (last?.seq ?? 0) + 1;
      const insert = tx.insert(paymentAttempts).values({
        orderId: o!.id,
        partId: part!.id,
        seq,
        outTradeNo: `${o!.orderNo}-${seq}`,
        provider: 'wechat',
        state: PAYMENT_ATTEMPT_INITIAL,
        payerOpenId: payer.openId,
        invitationId: open.id,
        payerNickname: payer.nickname,
        payerAvatar: payer.avatar,
        createdAt: clock.now(),
      });
      const [attempt] = await guards.orSkip(insert).returning();
      return attempt ? { order: o!, inv: open, part: part!, attempt, made: true } : undefined;
    });
    // another trade was opened first (the one-open-trade index): take it from the top
    if (!found) continue;
    const { order, inv, part, attempt } = found;
    if (attempt.start) return { payment: attempt.start, amountCents: part.amountCents };
    const [g] = await db.select({ name: goods.name }).from(goods).where(eq(goods.id, order.goodsId));
    let start: PaymentStart;
    try {
      start = await gateway.createPayment({
        orderNo: attempt.outTradeNo,
        amountCents: part.amountCents,
        description: g?.name ?? order.orderNo,
        payerOpenId: payer.openId,
        notifyUrl: `${deps.config.publicUrl}/api/pay/notify/wechat`,
        returnUrl: `${deps.config.publicUrl}/payfriend?t=${encodeURIComponent(token)}`,
        // the provider stops taking the money when the invitation ends
        expiresAt: inv.expiresAt,
      });
    } catch (err) {
      deps.log.error('friend payment create failed', {
        orderNo: order.orderNo,
        outTradeNo: attempt.outTradeNo,
        error: err instanceof Error ? err.message : String(err),
      });
      await endUnstarted(deps, attempt, found.made);
      throw new ApiError(Errors.paymentProviderFailed);
    }
    await decide(db, async (tx) => {
      await tx
        .update(paymentAttempts)
        .set({ start })
        .where(and(eq(paymentAttempts.id, attempt.id), isNull(paymentAttempts.start)));
      await enqueueJob(tx, {
        kind: PAYMENT_QUERY_JOB,
        payload: { outTradeNo: attempt.outTradeNo, provider: 'wechat', attempt: 1 },
        runAt: new Date(clock.now().getTime() + PAYMENT_QUERY_AFTER_MS),
      });
    });
    return { payment: start, amountCents: part.amountCents };
  }
  throw new ApiError(Errors.friendAlreadyActed);
}

/** A trade the provider never made is over (the next one gets the next number); only the request that made it ends it. */
async function endUnstarted(deps: Deps, attempt: AttemptRow, made: boolean): Promise<void> {
  const failed = nextAttemptState(attempt.state, 'provider.failed');
  if (!made || !failed || !OPEN_ATTEMPT_STATES.includes(attempt.state)) return;
  await deps.db
    .update(paymentAttempts)
    .set({ state: failed, closedAt: deps.clock.now() })
    .where(and(eq(paymentAttempts.id, attempt.id), eq(paymentAttempts.state, attempt.state), isNull(paymentAttempts.start)));
}
