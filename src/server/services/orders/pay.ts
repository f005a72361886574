import { and, eq, isNull, max } from 'drizzle-orm';
import { nextAttemptState, OPEN_ATTEMPT_STATES, PAYMENT_ATTEMPT_INITIAL } from '../../../../machines/domain/payment-attempt-transitions';
import { balanceTakesPayment } from '../../../../machines/domain/order-transitions';
import { Errors } from '../../../domain/errors';
import { goods, orders, paymentAttempts, paymentParts } from '../../db/schema/index';
import type { Deps } from '../../env';
import { PaymentProviderError, type PaymentMethod, type PaymentStart } from '../../gateways/payments/types';
import { ApiError } from '../../http/api-error';
import { enqueueJob } from '../../jobs/queue';
import { decide } from '../booking/decide';
import { payPartByBalance } from './balance';
import { closeAttempt } from './close-attempt';
import { openInvitations } from './invitation-rows';
import { lockAccount, lockMyOrder, ROW, type LockOptions } from './locks';
import { liveShares, partPaidEventOf, payablePart } from './parts';
import { myOrder, openAttempt, payerOpenIdOf, type AttemptRow, type OrderRow } from './read';
import { markPaid, PAYMENT_QUERY_AFTER_MS, PAYMENT_QUERY_JOB } from './settle';
import { move, overdue, pastExpiry } from './state';

/** The order chart's events a balance payment can bring (the whole, or a part). */

/** The order after paying, and what the page needs to open the provider's cashier (none for balance). */
export type PayAnswer = { order: OrderRow; payment: PaymentStart | null };

/**
 * Pays an order: by balance at once, or through a provider (the order goes to paying). One provider at
 * a time (decision 013): while a trade is open, paying again by the same method answers the same start
 * (a second tap, a member coming back); another method first closes that trade at its provider (when
 * the close shows it was paid meanwhile, the order is settled paid and the new payment refused, 40011).
 */
export async function payOrder(deps: Deps, accountId: number, orderNo: string, method: 'balance' | PaymentMethod, opts: LockOptions = ROW, partSeq?: number): Promise<PayAnswer> {
  const { db, clock } = deps;
  if (method === 'balance') {
    const order = await decide(db, async (tx) => {
      await lockAccount(tx, accountId, opts);
      const o = await lockMyOrder(tx, accountId, orderNo);
      if (overdue(o, clock.now())) throw new ApiError(Errors.orderExpired);
      // money is taken only where the chart takes a payment (a part of it while a friend has another)
      if (!balanceTakesPayment(o.state)) throw new ApiError(Errors.orderNotPayable);
      // a trade open at a provider (paying, or its prepay under way) could still take the money
      if (o.state === 'paying' || (await openAttempt(tx, o.id))) throw new ApiError(Errors.orderNotPayable);
      // the share to pay (a split order's named part), paid from the balance (a ledger row and its payment)
      const part = await payablePart(tx, o.id, partSeq);
      // a share sent to a friend is the friend's to pay while the link is open
      if (part && (await openInvitations(tx, o.id)).some((i) => i.partId === part.id)) throw new ApiError(Errors.orderNotPayable);
      if (!part) {
        // none left: the deduction paid it all
        if (o.amountToPayCents > 0) throw new ApiError(Errors.orderNotPayable);
        return markPaid(tx, clock, o, move(o.state, 'payment.succeeded', 'orderNotPayable'), 'balance');
      }
      const split = (await liveShares(tx, o.id)).length > 1;
      const event = await partPaidEventOf(tx, o.id, part);
      const state = move(o.state, event, 'orderNotPayable');
      await payPartByBalance(tx, clock, accountId, part, split ? 'split_part' : 'order');
      if (event === 'part.paid') {
        const [row] = await tx.update(orders).set({ state }).where(eq(orders.id, o.id)).returning();
        return row!;
      }
      // a split order was paid by its parts' payers: no one method
      return markPaid(tx, clock, o, state, split ? null : 'balance');
    });
    return { order, payment: null };
  }
  const gateway = deps.gateways.payments[method];
  if (!gateway) throw new ApiError(Errors.payMethodUnavailable, { field: 'method' });
  // WeChat Pay (JSAPI) charges a payer known by the open id the messaging app gave this member, bound at login
  const payerOpenId = method === 'wechat' ? await payerOpenIdOf(db, accountId) : undefined;
  if (method === 'wechat' && !payerOpenId) throw new ApiError(Errors.wechatPayNeedsOpenId, { field: 'method' });
  // at most a close and a new attempt; a concurrent request changing the order meanwhile makes another round
  for (let round = 0; round < 4; round++) {
    const current = await myOrder(db, accountId, orderNo);
    if (pastExpiry(current, clock.now())) throw new ApiError(Errors.orderExpired);
    if (current.amountToPayCents <= 0) throw new ApiError(Errors.orderNotPayable);
    const open = await openAttempt(db, current.id);
    // a trade open for another part of a split order: paying blocks payment (spec §8)
    if (open && partSeq !== undefined && (await partSeqOf(db, open.partId)) !== partSeq) throw new ApiError(Errors.orderNotPayable);
    if (open && open.provider === method) {
      // the same trade again: what the member got the first time, or the provider asked again with the same out_trade_no
      if (open.start && current.state === 'paying') return { order: current, payment: open.start };
      return startAttempt(deps, current, open, payerOpenId, false, partSeq);
    }
    if (open) {
      let closed: 'closed' | 'paid';
      try {
        closed = await closeAttempt(deps, open);
      } catch (err) {
        if (!(err instanceof PaymentProviderError)) throw err;
        // the open trade stays open (and payable); never two open trades
        deps.log.error('payment close failed', { orderNo, outTradeNo: open.outTradeNo, error: err.message });
        throw new ApiError(Errors.paymentProviderFailed);
      }
      if (closed === 'paid') throw new ApiError(Errors.orderAlreadyPaid);
      continue;
    }
    move(current.state, 'order.pay', 'orderNotPayable');
    // a new attempt, with its own out_trade_no: a failed or closed trade is final at the provider
    const attempt = await decide(db, async (tx) => {
      const o = await lockMyOrder(tx, accountId, orderNo);
      if (pastExpiry(o, clock.now())) throw new ApiError(Errors.orderExpired);
      // another tap opened a trade since this one read the order: take it from the top (same trade, or a switch)
      if (o.state === 'paying' || (await openAttempt(tx, o.id))) return undefined;
      move(o.state, 'order.pay', 'orderNotPayable');
      const part = await payablePart(tx, o.id, partSeq);
      if (!part) throw new ApiError(Errors.orderNotPayable);
      const [last] = await tx.select({ seq: max(paymentAttempts.seq) }).from(paymentAttempts).where(eq(paymentAttempts.orderId, o.id));
      const seq = (last?.seq ?? 0) + 1;
      const [row] = await tx
        .insert(paymentAttempts)
        .values({ orderId: o.id, partId: part.id, payerAccountId: accountId, seq, outTradeNo: `${o.orderNo}-${seq}`, provider: method, state: PAYMENT_ATTEMPT_INITIAL, createdAt: clock.now() })
        .onConflictDoNothing()
        .returning();
      return row;
    });
    // another request opened one first (seen under the lock, or the partial unique index): take it from the top
    if (!attempt) continue;
    return startAttempt(deps, current, attempt, payerOpenId, true, partSeq);
  }
  throw new ApiError(Errors.orderNotPayable);
}

/**
 * Asks the attempt's provider for what the page needs (the same out_trade_no and parameters give the
 * same trade again), then moves the order to paying by the chart and keeps the start on the attempt.
 * When the provider fails, the request that made the attempt ends it (`made`); one that reused it
 * (a concurrent tap) leaves it to the request still asking. A split order's part comes back to its
 * own result page (`&partSeq=`).
 */
async function startAttempt(deps: Deps, order: OrderRow, attempt: AttemptRow, payerOpenId: string | undefined, made: boolean, partSeq?: number): Promise<PayAnswer> {
  const { db, clock } = deps;
  const gateway = deps.gateways.payments[attempt.provider];
  if (!gateway) throw new ApiError(Errors.payMethodUnavailable, { field: 'method' });
  const [g] = await db.select({ name: goods.name }).from(goods).where(eq(goods.id, order.goodsId));
  // the trade collects its part (a whole order's one share is its amount to pay)
  const [part] = await db.select({ amountCents: paymentParts.amountCents }).from(paymentParts).where(eq(paymentParts.id, attempt.partId));
  let start: PaymentStart;
  try {
    start = await gateway.createPayment({
      orderNo: attempt.outTradeNo,
      amountCents: part?.amountCents ?? order.amountToPayCents,
      description: g?.name ?? order.orderNo,
      payerOpenId,
      notifyUrl: `${deps.config.publicUrl}/api/pay/notify/${attempt.provider}`,
      returnUrl: `${deps.config.publicUrl}/payf?orderNo=${encodeURIComponent(order.orderNo)}${partSeq === undefined ? '' : `&partSeq=${partSeq}`}`,
      // the provider stops taking the money when the order expires, so the expiry's query and close are final
      expiresAt: order.expiresAt ?? undefined,
    });
  } catch (err) {
    deps.log.error('payment create failed', { orderNo: order.orderNo, outTradeNo: attempt.outTradeNo, error: err instanceof Error ? err.message : String(err) });
    // never handed to the member: the attempt is over (the next one gets the next number)
    const failed = nextAttemptState(attempt.state, 'provider.failed');
    if (made && failed) {
      await db
        .update(paymentAttempts)
        .set({ state: failed, closedAt: clock.now() })
        .where(and(eq(paymentAttempts.id, attempt.id), eq(paymentAttempts.state, attempt.state), isNull(paymentAttempts.start)));
    }
    throw new ApiError(Errors.paymentProviderFailed);
  }
  try {
    return await movedToPaying(deps, order, attempt, start);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    // refused after the provider made the trade (closed by a switch meanwhile, the order cancelled or
    // expired): the member never gets it, and it is closed there too, so no trade is left open
    await gateway.close(attempt.outTradeNo).catch((e: unknown) => deps.log.warn('closing an abandoned trade failed', { outTradeNo: attempt.outTradeNo, error: e instanceof Error ? e.message : String(e) }));
    const closed = nextAttemptState(attempt.state, 'attempt.close');
    if (closed) {
      await db
        .update(paymentAttempts)
        .set({ state: closed, closedAt: clock.now() })
        .where(and(eq(paymentAttempts.id, attempt.id), eq(paymentAttempts.state, attempt.state)));
    }
    throw err;
  }
}

/** The order goes to paying by the chart with this attempt, which keeps its start; the query job is queued. */
async function movedToPaying(deps: Deps, order: OrderRow, attempt: AttemptRow, start: PaymentStart): Promise<PayAnswer> {
  const { db, clock } = deps;
  return decide(db, async (tx) => {
    const o = await lockMyOrder(tx, order.accountId, order.orderNo);
    const [a] = await tx.select().from(paymentAttempts).where(eq(paymentAttempts.id, attempt.id)).for('update');
    if (!a || !OPEN_ATTEMPT_STATES.includes(a.state)) throw new ApiError(a?.state === 'paid' ? Errors.orderAlreadyPaid : Errors.orderNotPayable);
    if (o.state === 'paying') return { order: o, payment: a.start ?? start };
    if (pastExpiry(o, clock.now())) throw new ApiError(Errors.orderExpired);
    const state = move(o.state, 'order.pay', 'orderNotPayable');
    const [row] = await tx.update(orders).set({ state, payMethod: a.provider }).where(eq(orders.id, o.id)).returning();
    await tx.update(paymentAttempts).set({ start }).where(eq(paymentAttempts.id, a.id));
    await enqueueJob(tx, { kind: PAYMENT_QUERY_JOB, payload: { outTradeNo: a.outTradeNo, provider: a.provider, attempt: 1 }, runAt: new Date(clock.now().getTime() + PAYMENT_QUERY_AFTER_MS) });
    return { order: row!, payment: start };
  });
}

/** The seq of the part an attempt collects. */
async function partSeqOf(db: Deps['db'], partId: number): Promise<number | undefined> {
  const [row] = await db.select({ seq: paymentParts.seq }).from(paymentParts).where(eq(paymentParts.id, partId));
  return row?.seq;
}
