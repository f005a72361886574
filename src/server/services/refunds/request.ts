import { and, eq, sql } from 'drizzle-orm';
import { nextRefundState, REFUND_INITIAL } from '../../../../machines/domain/refund-transitions';
import type { Clock } from '../../../domain/clock';
import type { Tx } from '../../db/client';
import { balanceLedger, refunds, type payments, type RefundCause } from '../../db/schema/index';
import { enqueueJob } from '../../jobs/queue';
import { changeBalance } from '../orders/balance';

/**
 * The one refund path (decision 021): every cause (a cancel, an un-split, money for nothing, a wrong
 * amount, a card refund) asks for a refund of one payment here. Balance money comes back at once (a
 * ledger credit, the refund succeeded, one transaction); a provider's is asked by the `refund.run`
 * job (services/refunds/run.ts), run once right after the commit by the caller (runRefundsNow).
 */

export type PaymentRow = typeof payments.$inferSelect;
export type RefundRow = typeof refunds.$inferSelect;

/** The job that asks the provider for a pending refund (and tries a failed one again). */
export const REFUND_RUN_JOB = 'refund.run';
/** When the job first runs after the refund is asked for (the request runs it once itself, right after its commit). */
export const REFUND_RUN_AFTER_MS = 60_000;

/** A refund asked for, and whether a provider must be asked now (the caller runs it after its commit). */
export interface RequestedRefund {
  refund: RefundRow;
  /** a provider refund asked for by this call: run it after the commit */
  runAfterCommit: boolean;
}

/** Refunds asked for more than was paid (a bug in the caller): never written. */
export class RefundOverPaid extends Error {
  constructor(paymentId: number, amountCents: number, left: number) {
    super(`refund of ${amountCents} for payment ${paymentId} is over what is left (${left})`);
    this.name = 'RefundOverPaid';
  }
}

/** The ledger reason of a balance refund: money a cancel or un-split gives back, or refunded otherwise. */
const ledgerReason = (cause: RefundCause) => (cause === 'order_cancelled' || cause === 'split_undone' ? 'cancel' : 'refund');

/**
 * Asks for a refund of `amountCents` of `payment`, once per `(payment, key)`: asking again answers the
 * same refund. The caller holds the order's lock (and, for a balance payment, the payer's account
 * lock first: the ledger changes). Never more than paid: the payment's refunds, whatever their state,
 * plus this one stay within its amount.
 */
export async function requestRefund(
  tx: Tx,
  clock: Clock,
  payment: PaymentRow,
  amountCents: number,
  cause: RefundCause,
  key: string,
): Promise<RequestedRefund> {
  const [existing] = await tx
    .select()
    .from(refunds)
    .where(and(eq(refunds.paymentId, payment.id), eq(refunds.key, key)));
  if (existing) return { refund: existing, runAfterCommit: false };
  const [done] = await tx
    .select({ cents: sql<string>`coalesce(sum(${refunds.amountCents}), 0)` })
    .from(refunds)
    .where(eq(refunds.paymentId, payment.id));
  const left = payment.amountCents - Number(done?.cents ?? 0);
  if (amountCents <= 0 || amountCents > left) throw new RefundOverPaid(payment.id, amountCents, left);
  const now = clock.now();
  const [row] = await tx
    .insert(refunds)
    .values({ paymentId: payment.id, amountCents, cause, key, state: REFUND_INITIAL, createdAt: now })
    .returning();
  if (payment.provider === 'balance') {
    const [debit] = await tx
      .select({ accountId: balanceLedger.accountId })
      .from(balanceLedger)
      .where(eq(balanceLedger.id, payment.ledgerId!));
    const ledgerId = await changeBalance(tx, clock, debit!.accountId, amountCents, ledgerReason(cause), payment.orderId);
    const [back] = await tx
      .update(refunds)
      .set({ state: nextRefundState(row!.state, 'refund.succeeded')!, ledgerId, settledAt: now })
      .where(eq(refunds.id, row!.id))
      .returning();
    return { refund: back!, runAfterCommit: false };
  }
  await enqueueJob(tx, { kind: REFUND_RUN_JOB, payload: { refundId: row!.id }, runAt: new Date(now.getTime() + REFUND_RUN_AFTER_MS) });
  return { refund: row!, runAfterCommit: true };
}
