import { OPEN_INVITATION_STATES } from '../../../../machines/domain/friend-pay-invitation-transitions';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { OUTSTANDING_PART_STATES, LIVE_PART_STATES } from '../../../../machines/domain/payment-part-transitions';
import { APPLIED_PAYMENT_STATUSES, TAKEN_PAYMENT_STATUSES } from '../../../../machines/domain/payment-transitions';
import { IN_FLIGHT_REFUND_STATES, RETURNED_REFUND_STATES } from '../../../../machines/domain/refund-transitions';
import type { Db, Tx } from '../../db/client';
import { paymentAttempts, paymentParts, payments, refunds } from '../../db/schema/index';
import { stateIn } from '../../db/state-checks';

/**
 * An order's money, summed from its rows (decision 021): no column holds a paid, refunded or
 * outstanding total. The state lists come from the charts' tags.
 */
export interface OrderMoney {
  /** payments applied to the order's parts (tag `applied`) */
  appliedCents: number;
  /** all the money payers gave for it, applied or not (tag `taken`) */
  takenCents: number;
  /** refunds whose money is back with the payer (tag `returned`) */
  refundedCents: number;
  /** refunds on their way (tag `inFlight`) */
  refundingCents: number;
  /** the live parts still waiting for money (tag `outstanding`) */
  outstandingCents: number;
  /** the live parts' sum (the deduction and the shares that make up the order now) */
  liveCents: number;
}

const NONE: OrderMoney = { appliedCents: 0, takenCents: 0, refundedCents: 0, refundingCents: 0, outstandingCents: 0, liveCents: 0 };

/** The one money query: each order's sums, by order id (an order without money rows has zeros). */
export async function orderMoney(db: Db | Tx, orderIds: readonly number[]): Promise<Map<number, OrderMoney>> {
  const out = new Map<number, OrderMoney>(orderIds.map((id) => [id, { ...NONE }]));
  if (orderIds.length === 0) return out;
  const sum = (cond: ReturnType<typeof sql>, cents: ReturnType<typeof sql>) =>
    sql<string>`coalesce(sum(case when ${cond} then ${cents} end), 0)`;
  const paid = await db
    .select({
      orderId: payments.orderId,
      applied: sum(stateIn(payments.status, APPLIED_PAYMENT_STATUSES), sql`${payments.amountCents}`),
      taken: sum(stateIn(payments.status, TAKEN_PAYMENT_STATUSES), sql`${payments.amountCents}`),
    })
    .from(payments)
    .where(inArray(payments.orderId, [...orderIds]))
    .groupBy(payments.orderId);
  const back = await db
    .select({
      orderId: payments.orderId,
      refunded: sum(stateIn(refunds.state, RETURNED_REFUND_STATES), sql`${refunds.amountCents}`),
      refunding: sum(stateIn(refunds.state, IN_FLIGHT_REFUND_STATES), sql`${refunds.amountCents}`),
    })
    .from(refunds)
    .innerJoin(payments, sql`${payments.id} = ${refunds.paymentId}`)
    .where(inArray(payments.orderId, [...orderIds]))
    .groupBy(payments.orderId);
  const parts = await db
    .select({
      orderId: paymentParts.orderId,
      outstanding: sum(stateIn(paymentParts.state, OUTSTANDING_PART_STATES), sql`${paymentParts.amountCents}`),
      live: sum(stateIn(paymentParts.state, LIVE_PART_STATES), sql`${paymentParts.amountCents}`),
    })
    .from(paymentParts)
    .where(inArray(paymentParts.orderId, [...orderIds]))
    .groupBy(paymentParts.orderId);
  for (const r of paid) Object.assign(out.get(r.orderId)!, { appliedCents: Number(r.applied), takenCents: Number(r.taken) });
  for (const r of back) Object.assign(out.get(r.orderId)!, { refundedCents: Number(r.refunded), refundingCents: Number(r.refunding) });
  for (const r of parts) Object.assign(out.get(r.orderId)!, { outstandingCents: Number(r.outstanding), liveCents: Number(r.live) });
  return out;
}

/** What an order's detail shows of its money: its parts (and how each was paid), its sums and its refunds. */
export async function orderMoneyDetail(db: Db | Tx, orderId: number) {
  const parts = await db
    .select({
      seq: paymentParts.seq,
      kind: paymentParts.kind,
      amountCents: paymentParts.amountCents,
      state: paymentParts.state,
      paidBy: payments.provider,
      // a friend's payment: the name the messaging app's user-info authorization gave (decision 021)
      friendName: sql<
        string | null
      >`case when ${paymentAttempts.invitationId} is not null then coalesce(${paymentAttempts.payerNickname}, '') end`,
      // sent to a friend whose link is still open: the friend's to pay now
      withFriend: sql<boolean>`exists (select 1 from friend_invitations fi where fi.part_id = "payment_parts"."id" and fi.state in (${sql.join(
        OPEN_INVITATION_STATES.map((st) => sql`${st}`),
        sql`, `,
      )}))`,
    })
    .from(paymentParts)
    .leftJoin(payments, and(eq(payments.partId, paymentParts.id), stateIn(payments.status, APPLIED_PAYMENT_STATUSES)))
    .leftJoin(paymentAttempts, eq(paymentAttempts.id, payments.attemptId))
    .where(eq(paymentParts.orderId, orderId))
    .orderBy(asc(paymentParts.seq));
  const back = await db
    .select({
      amountCents: refunds.amountCents,
      cause: refunds.cause,
      state: refunds.state,
      to: payments.provider,
      failureMessage: refunds.failureMessage,
      createdAt: refunds.createdAt,
      settledAt: refunds.settledAt,
    })
    .from(refunds)
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .where(eq(payments.orderId, orderId))
    .orderBy(asc(refunds.id));
  const money = (await orderMoney(db, [orderId])).get(orderId)!;
  return {
    parts,
    money,
    refunds: back.map((r) => ({ ...r, createdAt: r.createdAt.toISOString(), settledAt: r.settledAt?.toISOString() ?? null })),
  };
}
