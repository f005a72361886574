import { and, asc, eq, inArray, max } from 'drizzle-orm';
import { partPaidEvent } from '../../../../machines/domain/order-transitions';
import {
  LIVE_PART_STATES,
  nextPartState,
  OUTSTANDING_PART_STATES,
  PAYMENT_PART_INITIAL,
  type PaymentPartState,
} from '../../../../machines/domain/payment-part-transitions';
import type { PaymentPartEvent } from '../../../../machines/domain/payment-part.machine';
import type { Clock } from '../../../domain/clock';
import { Errors } from '../../../domain/errors';
import type { Db, Tx } from '../../db/client';
import { paymentParts } from '../../db/schema/index';
import { ApiError } from '../../http/api-error';
import { guards } from '../../db/guards';

/** An order's payment parts (decision 021): who pays how much of it. The caller holds the order lock. */

export type PartRow = typeof paymentParts.$inferSelect;

/** Adds a part to an order: the deduction (seq 0, paid at once by the balance) or the next share. */
export async function insertPart(
  tx: Tx,
  clock: Clock,
  orderId: number,
  kind: 'deduction' | 'share',
  amountCents: number,
): Promise<PartRow> {
  let seq = 0;
  if (kind === 'share') {
    const [last] = await tx
      .select({ seq: max(paymentParts.seq) })
      .from(paymentParts)
      .where(eq(paymentParts.orderId, orderId));
    seq = (last?.seq ?? 0) + 1;
  }
  const [row] = await tx
    .insert(paymentParts)
    .values({ orderId, seq, kind, amountCents, state: PAYMENT_PART_INITIAL, createdAt: clock.now() })
    .returning();
  return row!;
}

/** The order's parts, by seq, locked (decision 021's lock order: the order, then its parts by seq). */
export async function partsOf(tx: Tx, orderId: number): Promise<PartRow[]> {
  return tx.select().from(paymentParts).where(eq(paymentParts.orderId, orderId)).orderBy(asc(paymentParts.seq)).for('update');
}

/**
 * The share a payment pays: the one named by `seq` (a split order's part), or the order's only unpaid
 * share; none when there is none to pay. 70003 (field partSeq) when the order has several unpaid
 * shares and none is named, or the one named is not an unpaid share.
 */
export async function payablePart(tx: Db | Tx, orderId: number, seq?: number): Promise<PartRow | undefined> {
  const unpaid = await tx
    .select()
    .from(paymentParts)
    .where(and(eq(paymentParts.orderId, orderId), eq(paymentParts.kind, 'share'), inArray(paymentParts.state, OUTSTANDING_PART_STATES)))
    .orderBy(asc(paymentParts.seq));
  if (seq === undefined) {
    if (unpaid.length > 1) throw new ApiError(Errors.invalidField, { field: 'partSeq', values: { field: 'partSeq' } });
    return unpaid[0];
  }
  const part = unpaid.find((p) => p.seq === seq);
  if (!part) throw new ApiError(Errors.invalidField, { field: 'partSeq', values: { field: 'partSeq' } });
  return part;
}

/** The order's live shares (what makes up its amount to pay now), by seq. */
export async function liveShares(tx: Db | Tx, orderId: number): Promise<PartRow[]> {
  return tx
    .select()
    .from(paymentParts)
    .where(and(eq(paymentParts.orderId, orderId), eq(paymentParts.kind, 'share'), inArray(paymentParts.state, LIVE_PART_STATES)))
    .orderBy(asc(paymentParts.seq));
}

/** The order chart's event once `paid` (a share of the order) is paid: more to pay, the last part of a split order, or the whole order. */
export async function partPaidEventOf(tx: Tx, orderId: number, paid: PartRow, byFriend = false) {
  const shares = await liveShares(tx, orderId);
  const outstandingShares = shares.filter((p) => p.id !== paid.id && OUTSTANDING_PART_STATES.includes(p.state)).length;
  return partPaidEvent({ outstandingShares, split: shares.length > 1, byFriend });
}

/**
 * Moves a part by the chart, guarded by the state read; refuses (40002) when the chart or a concurrent
 * change does.
 */
export async function movePart(
  tx: Tx,
  clock: Clock,
  part: { id: number; state: PaymentPartState },
  event: PaymentPartEvent['type'],
): Promise<PaymentPartState> {
  const next = nextPartState(part.state, event);
  if (!next) throw new ApiError(Errors.orderNotPayable);
  const [row] = await tx
    .update(paymentParts)
    .set({ state: next, settledAt: clock.now() })
    .where(and(eq(paymentParts.id, part.id), guards.still(paymentParts.state, part.state)))
    .returning({ id: paymentParts.id });
  if (!row) throw new ApiError(Errors.orderNotPayable);
  return next;
}
