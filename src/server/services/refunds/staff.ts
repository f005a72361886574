import { and, desc, eq, inArray } from 'drizzle-orm';
import { ATTENTION_REFUND_STATES, nextRefundState } from '../../../../machines/domain/refund-transitions';
import type { RefundEvent } from '../../../../machines/domain/refund.machine';
import { Errors } from '../../../domain/errors';
import type { Db, Tx } from '../../db/client';
import { orders, paymentAttempts, payments, refunds } from '../../db/schema/index';
import type { Deps } from '../../env';
import { ApiError } from '../../http/api-error';
import type { Audit } from '../staff-audit/audit-log';
import { enqueueJob } from '../../jobs/queue';
import { decide } from '../../db/transaction';
import { syncOrderRefund } from './order-refund';
import { REFUND_RUN_AFTER_MS, REFUND_RUN_JOB } from './request';
import { runRefundsNow } from './run';

/**
 * Staff's part in refunds (decision 021): the refunds needing attention (tag `attention`: failed at
 * the provider, or held from before refunds existed), released to the provider or settled as given
 * back another way. Each change is the refund chart's, under the order's lock, from the state read.
 */

/** The refunds staff must look at, newest first. */
export async function refundsNeedingAttention(db: Db) {
  return db
    .select({
      refundId: refunds.id,
      orderNo: orders.orderNo,
      accountId: orders.accountId,
      to: payments.provider,
      outTradeNo: paymentAttempts.outTradeNo,
      providerTxnId: payments.providerTxnId,
      amountCents: refunds.amountCents,
      cause: refunds.cause,
      state: refunds.state,
      failureCode: refunds.failureCode,
      failureMessage: refunds.failureMessage,
      createdAt: refunds.createdAt,
    })
    .from(refunds)
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .leftJoin(paymentAttempts, eq(paymentAttempts.id, payments.attemptId))
    .where(inArray(refunds.state, ATTENTION_REFUND_STATES))
    .orderBy(desc(refunds.id))
    .limit(500);
}

/**
 * Moves one refund by staff's event under its order's lock; 404 unknown, 40023 when the chart refuses.
 * `also` writes what goes with the move in the same transaction.
 */
async function staffMove(
  deps: Deps,
  refundId: number,
  event: RefundEvent['type'],
  set: { settledBy?: number } = {},
  also?: (tx: Tx) => Promise<unknown>,
  audit?: Audit,
) {
  return decide(deps.db, async (tx) => {
    const [r] = await tx
      .select({ orderId: payments.orderId })
      .from(refunds)
      .innerJoin(payments, eq(payments.id, refunds.paymentId))
      .where(eq(refunds.id, refundId));
    if (!r) throw new ApiError(Errors.notFound, { field: 'refundId' });
    await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, r.orderId)).for('update');
    const [refund] = await tx.select().from(refunds).where(eq(refunds.id, refundId));
    const next = refund && nextRefundState(refund.state, event);
    if (!refund || !next) throw new ApiError(Errors.refundNotInState);
    const [row] = await tx
      .update(refunds)
      .set({ ...set, state: next, ...(next === 'settled' ? { settledAt: deps.clock.now() } : {}) })
      .where(and(eq(refunds.id, refundId), eq(refunds.state, refund.state)))
      .returning();
    await syncOrderRefund(tx, deps.clock.now(), r.orderId);
    await also?.(tx);
    await audit?.(tx, {
      action: event === 'refund.release' ? 'refund.release' : 'refund.settle',
      subjectKind: 'refund',
      subjectId: refundId,
    });
    return row!;
  });
}

/**
 * A held refund released to its provider: asked at once, and by its `refund.run` job (queued with the
 * move, as a new refund's is) should the provider not answer now. A balance one would succeed at once,
 * but none is ever held.
 */
export async function releaseRefund(deps: Deps, refundId: number, audit?: Audit) {
  const runAt = new Date(deps.clock.now().getTime() + REFUND_RUN_AFTER_MS);
  const row = await staffMove(
    deps,
    refundId,
    'refund.release',
    {},
    (tx) => enqueueJob(tx, { kind: REFUND_RUN_JOB, payload: { refundId }, runAt }),
    audit,
  );
  await runRefundsNow(deps, [refundId]);
  const [after] = await deps.db.select().from(refunds).where(eq(refunds.id, row.id));
  return after!;
}

/** A held or failed refund recorded as given back another way by this staff member: nothing more is asked of the provider. */
export async function settleRefund(deps: Deps, staffId: number, refundId: number, audit?: Audit) {
  return staffMove(deps, refundId, 'refund.settle', { settledBy: staffId }, undefined, audit);
}
