import { and, eq, isNull, max } from 'drizzle-orm';
import { nextAttemptState, OPEN_ATTEMPT_STATES, PAYMENT_ATTEMPT_INITIAL } from '../../../../machines/domain/payment-attempt-transitions';
import { Errors } from '../../../domain/errors';
import { goods, orders, paymentAttempts, paymentParts } from '../../db/schema/index';
import type { Deps } from '../../env';
import { PaymentProviderError, type PaymentMethod, type PaymentStart } from '../../gateways/payments/types';
import { ApiError } from '../../http/api-error';
import { enqueueJob } from '../../jobs/queue';
import { decide } from '../../db/transaction';
import { balanceOf, payPartByBalance } from './balance';
import { closeAttempt } from './close-attempt';
import { lockAccount, lockMyOrder } from './locks';
import { mustOffer, mustOfferPart, offerFacts, shareNamed } from './offer-facts';
import { liveShares, partPaidEventOf } from './parts';
import { myOrder, openAttemptOf, payerOpenIdOf, type AttemptRow, type OrderRow } from './read';
import { markPaid, PAYMENT_QUERY_AFTER_MS, PAYMENT_QUERY_JOB } from './settle';
import { move, pastExpiry } from './state';

/** The order after paying, and what the page needs to open the provider's cashier (none for balance). */
export type PayAnswer = { order: OrderRow; payment: PaymentStart | null };

/**
 * Pays an order, or one part of a split order (`partSeq`): by balance at once, or through a provider
 * (the whole order goes to paying; a part's trade holds that part only, decision 058). What is accepted
 * is what the order offers (order-offers.ts). One trade per part at a time (decision 013): while the
 * member's trade is open, paying again by the same method answers the same start (a second tap, a
 * member coming back); another method, or the balance, first closes that trade at its provider (when
 * the close shows it was paid meanwhile, it is settled paid and the new payment refused, 40011).
 */
export async function payOrder(
  deps: Deps,
  accountId: number,
  orderNo: string,
  method: 'balance' | PaymentMethod,
  partSeq?: number,
): Promise<PayAnswer> {
  const { db, clock } = deps;
  const gateway = method === 'balance' ? undefined : deps.gateways.payments[method];
  if (method !== 'balance' && !gateway) throw new ApiError(Errors.payMethodUnavailable, { field: 'method' });
  // WeChat Pay (JSAPI) charges a payer known by the open id the messaging app gave this member, bound at login
  const payerOpenId = method === 'wechat' ? await payerOpenIdOf(db, accountId) : undefined;
  if (method === 'wechat' && !payerOpenId) throw new ApiError(Errors.wechatPayNeedsOpenId, { field: 'method' });
  // at most a close and a new attempt; a concurrent request changing the order meanwhile makes another round
  for (let round = 0; round < 4; round++) {
    const current = await myOrder(db, accountId, orderNo);
    const facts = await offerFacts(db, current, clock.now());
    const share = shareNamed(facts, partSeq);
    if (share) mustOfferPart(facts, share, 'pay');
    else mustOffer(facts, 'pay');
    // the member's own trade open for this part: the same method answers it again, another (or the balance) closes it first
    const open = share?.holder === 'memberTrade' ? await openAttemptOf(db, share.part.id) : undefined;
    if (open && open.provider === method) {
      if (open.start && current.state === 'paying') return { order: current, payment: open.start };
      return startAttempt(deps, current, open, payerOpenId, false, partSeq);
    }
    // the balance must cover the part before the trade is closed for it (a refusal leaves the trade as it was)
    if (open && method === 'balance' && (await balanceOf(db, accountId)) < share!.part.amountCents)
      throw new ApiError(Errors.balanceNotEnough);
    if (open) {
      let closed: 'closed' | 'paid';
      try {
        closed = await closeAttempt(deps, open);
      } catch (err) {
        if (!(err instanceof PaymentProviderError)) throw err;
        // the open trade stays open (and payable); never two open trades for one part
        deps.log.error('payment close failed', { orderNo, outTradeNo: open.outTradeNo, error: err.message });
        throw new ApiError(Errors.paymentProviderFailed);
      }
      if (closed === 'paid') throw new ApiError(Errors.orderAlreadyPaid);
      continue;
    }
    if (method === 'balance') {
      const order = await payByBalance(deps, accountId, orderNo, partSeq);
      if (order) return { order, payment: null };
      continue;
    }
    // a new attempt, with its own out_trade_no: a failed or closed trade is final at the provider
    const attempt = await decide(db, async (tx) => {
      const o = await lockMyOrder(tx, accountId, orderNo);
      const f = await offerFacts(tx, o, clock.now());
      const p = shareNamed(f, partSeq);
      if (!p) throw new ApiError(Errors.orderNotPayable);
      mustOfferPart(f, p, 'pay');
      // another tap opened a trade for it since this one read the order: take it from the top (same trade, or a switch)
      if (p.holder === 'memberTrade') return undefined;
      const [last] = await tx
        .select({ seq: max(paymentAttempts.seq) })
        .from(paymentAttempts)
        .where(eq(paymentAttempts.orderId, o.id));
      const seq = (last?.seq ?? 0) + 1;
      const [row] = await tx
        .insert(paymentAttempts)
        .values({
          orderId: o.id,
          partId: p.part.id,
          payerAccountId: accountId,
          seq,
          outTradeNo: `${o.orderNo}-${seq}`,
          provider: method,
          state: PAYMENT_ATTEMPT_INITIAL,
          createdAt: clock.now(),
        })
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
 * Pays the named share (or the order the deduction paid in full) from the balance, under the account
 * and order locks: a ledger row and its payment, the part paid, the order moved by the chart (more to
 * pay, the last part, or the whole). Undefined when a trade was opened for the part meanwhile (the
 * caller closes it first).
 */
async function payByBalance(deps: Deps, accountId: number, orderNo: string, partSeq?: number): Promise<OrderRow | undefined> {
  const { db, clock } = deps;
  return decide(db, async (tx) => {
    await lockAccount(tx, accountId);
    const o = await lockMyOrder(tx, accountId, orderNo);
    const f = await offerFacts(tx, o, clock.now());
    const p = shareNamed(f, partSeq);
    if (!p) {
      // none left: the deduction paid it all
      mustOffer(f, 'pay');
      return markPaid(tx, clock, o, move(o.state, 'payment.succeeded', 'orderNotPayable'), 'balance');
    }
    mustOfferPart(f, p, 'pay');
    if (p.holder === 'memberTrade') return undefined;
    const split = f.shares.length > 1;
    const event = await partPaidEventOf(tx, o.id, p.part);
    const state = move(o.state, event, 'orderNotPayable');
    await payPartByBalance(tx, clock, accountId, p.part, split ? 'split_part' : 'order');
    if (event === 'part.paid') {
      const [row] = await tx.update(orders).set({ state }).where(eq(orders.id, o.id)).returning();
      return row!;
    }
    // a split order was paid by its parts' payers: no one method
    return markPaid(tx, clock, o, state, split ? null : 'balance');
  });
}

/**
 * Asks the attempt's provider for what the page needs (the same out_trade_no and parameters give the
 * same trade again), then moves the order to paying by the chart and keeps the start on the attempt.
 * When the provider fails, the request that made the attempt ends it (`made`); one that reused it
 * (a concurrent tap) leaves it to the request still asking. A split order's part comes back to its
 * own result page (`&partSeq=`).
 */
async function startAttempt(
  deps: Deps,
  order: OrderRow,
  attempt: AttemptRow,
  payerOpenId: string | undefined,
  made: boolean,
  partSeq?: number,
): Promise<PayAnswer> {
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
    deps.log.error('payment create failed', {
      orderNo: order.orderNo,
      outTradeNo: attempt.outTradeNo,
      error: err instanceof Error ? err.message : String(err),
    });
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
    await gateway.close(attempt.outTradeNo).catch((e: unknown) =>
      deps.log.warn('closing an abandoned trade failed', {
        outTradeNo: attempt.outTradeNo,
        error: e instanceof Error ? e.message : String(e),
      }),
    );
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
    if (!a || !OPEN_ATTEMPT_STATES.includes(a.state))
      throw new ApiError(a?.state === 'paid' ? Errors.orderAlreadyPaid : Errors.orderNotPayable);
    if (a.start) return { order: o, payment: a.start };
    if (pastExpiry(o, clock.now())) throw new ApiError(Errors.orderExpired);
    // the whole order's trade makes it paying; a split order's part is held by its trade alone (decision 058)
    const whole = (await liveShares(tx, o.id)).length <= 1;
    const state = move(o.state, whole ? 'order.pay' : 'part.pay', 'orderNotPayable');
    const [row] = await tx
      .update(orders)
      .set(whole ? { state, payMethod: a.provider } : { state })
      .where(eq(orders.id, o.id))
      .returning();
    await tx.update(paymentAttempts).set({ start }).where(eq(paymentAttempts.id, a.id));
    await enqueueJob(tx, {
      kind: PAYMENT_QUERY_JOB,
      payload: { outTradeNo: a.outTradeNo, provider: a.provider, attempt: 1 },
      runAt: new Date(clock.now().getTime() + PAYMENT_QUERY_AFTER_MS),
    });
    return { order: row!, payment: start };
  });
}
