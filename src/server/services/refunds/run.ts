import { and, eq, isNull } from 'drizzle-orm';
import { nextRefundState, type RefundState } from '../../../../machines/domain/refund-transitions';
import type { RefundEvent } from '../../../../machines/domain/refund.machine';
import { orders, paymentAttempts, payments, refunds } from '../../db/schema/index';
import type { Deps } from '../../env';
import { PaymentProviderError, type RefundResult } from '../../gateways/payments/types';
import { enqueueJob } from '../../jobs/queue';
import { decide } from '../../db/transaction';
import { syncOrderRefund } from './order-refund';
import { REFUND_RUN_JOB, type RefundRow } from './request';

/**
 * Asking a provider for a refund and applying its answer (decision 021). Provider calls sit outside
 * transactions; each answer is applied under the order's lock, the refund moved by its chart from the
 * state read. A transient error (the provider unreachable, or its refund calls not built yet) leaves
 * the refund pending: the job is tried again with the runner's backoff, under the same number.
 */

/** The job that asks the provider how a refund it accepted (or found abnormal) ended. */
export const REFUND_QUERY_JOB = 'refund.query';
/** How long after an accepted refund the query first runs. */
export const REFUND_QUERY_AFTER_MS = 2 * 60_000;
/** How many times a processing refund is asked about every REFUND_QUERY_AFTER_MS before hourly. */
export const REFUND_QUERY_QUICK_TRIES = 10;
/** A failed refund is tried again (an abnormal one asked about) this often, until it succeeds or staff settle it. */
export const REFUND_RETRY_EVERY_MS = 3_600_000;

const outRefundNoOf = (r: { id: number; tryNo: number }) => `R${r.id}-${r.tryNo}`;

/** The refund with its payment and the trade it returns money of. */
async function refundWithTrade(deps: Deps, refundId: number) {
  const [row] = await deps.db
    .select({ refund: refunds, payment: payments, outTradeNo: paymentAttempts.outTradeNo })
    .from(refunds)
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .leftJoin(paymentAttempts, eq(paymentAttempts.id, payments.attemptId))
    .where(eq(refunds.id, refundId));
  return row;
}

/** Moves a refund by the chart under its order's lock, from the state read; false when it had moved already. */
async function moveRefund(
  deps: Deps,
  refundId: number,
  from: RefundState,
  event: RefundEvent['type'],
  set: Partial<RefundRow> = {},
): Promise<boolean> {
  return decide(deps.db, async (tx) => {
    const [r] = await tx
      .select({ orderId: payments.orderId })
      .from(refunds)
      .innerJoin(payments, eq(payments.id, refunds.paymentId))
      .where(eq(refunds.id, refundId));
    if (!r) return false;
    await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, r.orderId)).for('update');
    const next = nextRefundState(from, event);
    if (!next) return false;
    const done = next === 'succeeded' || next === 'settled';
    const moved = await tx
      .update(refunds)
      .set({ ...set, state: next, ...(done ? { settledAt: deps.clock.now() } : {}) })
      .where(and(eq(refunds.id, refundId), eq(refunds.state, from)))
      .returning({ id: refunds.id });
    // an order refund (a card refund) moves its order with its refunds (decision 030)
    if (moved.length > 0) await syncOrderRefund(tx, deps.clock.now(), r.orderId);
    return moved.length > 0;
  });
}

const later = (deps: Deps, ms: number) => new Date(deps.clock.now().getTime() + ms);

/**
 * Applies what the provider said of one of our refunds (its answer to the refund call, to a query, or
 * its notification), found by its out_refund_no; a repeat changes nothing. Returns the refund's state
 * after, or null for a refund we do not know.
 */
export async function applyRefundResult(deps: Deps, result: RefundResult): Promise<RefundState | null> {
  const [refund] = await deps.db.select().from(refunds).where(eq(refunds.outRefundNo, result.outRefundNo));
  if (!refund) return null;
  const from = refund.state;
  const provider = { providerRefundId: result.providerRefundId ?? refund.providerRefundId };
  switch (result.status) {
    case 'succeeded':
      await moveRefund(deps, refund.id, from, 'refund.succeeded', provider);
      break;
    case 'processing':
      if (await moveRefund(deps, refund.id, from, 'provider.accepted', provider)) {
        await enqueueJob(deps.db, { kind: REFUND_QUERY_JOB, payload: { refundId: refund.id }, runAt: later(deps, REFUND_QUERY_AFTER_MS) });
      }
      break;
    case 'closed': {
      // never paid out (WeChat CLOSED): asked again under the next number
      const tryNo = refund.tryNo + 1;
      if (
        await moveRefund(deps, refund.id, from, 'refund.closed', {
          tryNo,
          outRefundNo: outRefundNoOf({ id: refund.id, tryNo }),
          providerRefundId: null,
        })
      ) {
        await enqueueJob(deps.db, { kind: REFUND_RUN_JOB, payload: { refundId: refund.id }, runAt: deps.clock.now() });
      }
      break;
    }
    case 'abnormal':
    case 'failed': {
      const failure = {
        ...provider,
        failureCode: result.failureCode ?? result.status.toUpperCase(),
        failureMessage: result.failureMessage ?? null,
      };
      if (await moveRefund(deps, refund.id, from, 'refund.failed', failure)) {
        // an abnormal refund may still be paid by the provider's own process: only asked about
        const kind = result.status === 'abnormal' ? REFUND_QUERY_JOB : REFUND_RUN_JOB;
        await enqueueJob(deps.db, { kind, payload: { refundId: refund.id, retry: true }, runAt: later(deps, REFUND_RETRY_EVERY_MS) });
      }
      break;
    }
    case 'not_found':
      throw new PaymentProviderError(result.provider, 'REFUND_NOT_FOUND', `the provider knows no refund ${result.outRefundNo}`);
  }
  const [after] = await deps.db.select({ state: refunds.state }).from(refunds).where(eq(refunds.id, refund.id));
  return after?.state ?? null;
}

/**
 * The `refund.run` job: asks the payment's provider to give the money back, under the refund's
 * number (the same number again after a transient error, so the provider never pays it twice). A
 * failed refund is moved back to pending by its hourly retry (`retry` in the payload). Throws while the provider cannot
 * answer, so the job runner tries again later.
 */
export async function runRefund(deps: Deps, payload: unknown): Promise<void> {
  const { refundId, retry } = payload as { refundId: number; retry?: boolean };
  let row = await refundWithTrade(deps, refundId);
  if (!row) return;
  // only the hourly retry asks again for a failed one (not a first run's fallback job)
  if (row.refund.state === 'failed' && retry) {
    await moveRefund(deps, refundId, 'failed', 'refund.retry');
    row = await refundWithTrade(deps, refundId);
  }
  if (!row || row.refund.state !== 'pending') return;
  const { refund, payment } = row;
  if (payment.provider === 'balance') return;
  const gateway = deps.gateways.payments[payment.provider];
  if (!gateway) throw new PaymentProviderError(payment.provider, 'NOT_CONFIGURED', 'the method is off: its refund waits');
  let outRefundNo = refund.outRefundNo;
  if (!outRefundNo) {
    outRefundNo = outRefundNoOf(refund);
    await deps.db
      .update(refunds)
      .set({ outRefundNo })
      .where(and(eq(refunds.id, refund.id), isNull(refunds.outRefundNo)));
    const [again] = await deps.db.select({ outRefundNo: refunds.outRefundNo }).from(refunds).where(eq(refunds.id, refund.id));
    outRefundNo = again!.outRefundNo!;
  }
  const result = await gateway.refund({
    outTradeNo: row.outTradeNo ?? '',
    providerTxnId: payment.providerTxnId,
    outRefundNo,
    amountCents: refund.amountCents,
    totalCents: payment.amountCents,
    reason: refund.cause,
    notifyUrl: `${deps.config.publicUrl}/api/pay/refund-notify/${payment.provider}`,
  });
  await applyRefundResult(deps, result);
}

/** The `refund.query` job: asks the provider how an accepted (or abnormal) refund ended. */
export async function runRefundQuery(deps: Deps, payload: unknown): Promise<void> {
  const { refundId, tries = 1 } = payload as { refundId: number; tries?: number };
  const row = await refundWithTrade(deps, refundId);
  if (!row || !row.refund.outRefundNo || !(row.refund.state === 'processing' || row.refund.state === 'failed')) return;
  const gateway = deps.gateways.payments[row.payment.provider as 'wechat' | 'alipay'];
  if (!gateway) throw new PaymentProviderError(row.payment.provider as 'wechat', 'NOT_CONFIGURED', 'the method is off: its refund waits');
  const result = await gateway.queryRefund(row.outTradeNo ?? '', row.refund.outRefundNo);
  const state = await applyRefundResult(deps, result);
  // still on its way: asked again
  if (state === 'processing' && result.status === 'processing') {
    // every 2 minutes at first, then hourly: a refund may stay processing for days
    const wait = tries < REFUND_QUERY_QUICK_TRIES ? REFUND_QUERY_AFTER_MS : REFUND_RETRY_EVERY_MS;
    await enqueueJob(deps.db, { kind: REFUND_QUERY_JOB, payload: { refundId, tries: tries + 1 }, runAt: later(deps, wait) });
  } else if (state === 'failed' && result.status === 'abnormal' && row.refund.state === 'failed') {
    await enqueueJob(deps.db, { kind: REFUND_QUERY_JOB, payload: { refundId }, runAt: later(deps, REFUND_RETRY_EVERY_MS) });
  }
}

/**
 * Runs the provider refunds a committed transaction asked for, once, right away; a provider that
 * cannot answer leaves each pending for its queued job (never lost).
 */
export async function runRefundsNow(deps: Deps, refundIds: readonly number[]): Promise<void> {
  for (const refundId of refundIds) {
    try {
      await runRefund(deps, { refundId });
    } catch (err) {
      deps.log.warn('refund waits for its job', { refundId, error: err instanceof Error ? err.message : String(err) });
    }
  }
}

/**
 * A provider told us about one of our refunds (WeChat Pay's REFUND.* notification, verified): applied
 * to the refund by its out_refund_no, once. False for a refund we do not know (refused, so it is sent again).
 */
export async function refundNotified(deps: Deps, result: RefundResult): Promise<boolean> {
  return (await applyRefundResult(deps, result)) !== null;
}

/**
 * Alipay's trade notification after a refund names the refund but not how it ended: the refund is
 * asked about (alipay.trade.fastpay.refund.query) and the answer applied. False for a refund we do not know.
 */
export async function refundNoticed(deps: Deps, outRefundNo: string): Promise<boolean> {
  const [row] = await deps.db.select({ id: refunds.id }).from(refunds).where(eq(refunds.outRefundNo, outRefundNo));
  if (!row) return false;
  const found = await refundWithTrade(deps, row.id);
  if (!found || found.payment.provider === 'balance') return false;
  const gateway = deps.gateways.payments[found.payment.provider];
  if (!gateway) return false;
  await applyRefundResult(deps, await gateway.queryRefund(found.outTradeNo ?? '', outRefundNo));
  return true;
}
