import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { APPLIED_PAYMENT_STATUSES } from '../../../../machines/domain/payment-transitions';
import { IN_FLIGHT_REFUND_STATES, RETURNED_REFUND_STATES } from '../../../../machines/domain/refund-transitions';
import type { MoneyBack, MoneyBreakdown, MoneyPayer } from '../../../contracts/orders';
import type { Db, Tx } from '../../db/client';
import { openIdBindings, type orders, paymentAttempts, payments, refunds } from '../../db/schema/index';
import { stateIn } from '../../db/state-checks';
import { shownNames } from '../person/shown-name';
import { orderMoney } from './money';

type OrderRow = typeof orders.$inferSelect;

/** One applied payment with who paid it and what went back of it: the rows a breakdown is summed from. */
export interface PaidRow {
  paymentId: number;
  orderId: number;
  partId: number;
  method: MoneyPayer['method'];
  amountCents: number;
  friendKey: string | null;
  /** a friend's payment: the invitation it paid */
  invitationId: number | null;
  friendName: string | null;
  refundedCents: number;
  refundingCents: number;
  /** every refund asked of it, whatever its state (what a new refund may no longer give back) */
  askedCents: number;
}

/** The applied payments of these orders, oldest first, each with its payer and refunds. */
export async function paidRows(db: Db | Tx, orderIds: readonly number[]): Promise<PaidRow[]> {
  if (orderIds.length === 0) return [];
  const rows = await db
    .select({
      paymentId: payments.id,
      orderId: payments.orderId,
      partId: payments.partId,
      method: payments.provider,
      amountCents: payments.amountCents,
      invitationId: paymentAttempts.invitationId,
      openId: paymentAttempts.payerOpenId,
      nickname: paymentAttempts.payerNickname,
    })
    .from(payments)
    .leftJoin(paymentAttempts, eq(paymentAttempts.id, payments.attemptId))
    .where(and(inArray(payments.orderId, [...orderIds]), stateIn(payments.status, APPLIED_PAYMENT_STATUSES)))
    .orderBy(asc(payments.id));
  const sum = (states: readonly string[]) =>
    sql<string>`coalesce(sum(case when ${stateIn(refunds.state, states)} then ${refunds.amountCents} end), 0)`;
  const back = rows.length
    ? await db
        .select({
          paymentId: refunds.paymentId,
          refunded: sum(RETURNED_REFUND_STATES),
          refunding: sum(IN_FLIGHT_REFUND_STATES),
          asked: sql<string>`sum(${refunds.amountCents})`,
        })
        .from(refunds)
        .where(
          inArray(
            refunds.paymentId,
            rows.map((r) => r.paymentId),
          ),
        )
        .groupBy(refunds.paymentId)
    : [];
  const backOf = new Map(back.map((b) => [b.paymentId, b]));
  const friendNames = await friendShownNames(
    db,
    rows.filter((r) => r.invitationId !== null && !r.nickname?.trim() && r.openId).map((r) => r.openId!),
  );
  return rows.map((r) => {
    const friend = r.invitationId !== null;
    return {
      paymentId: r.paymentId,
      orderId: r.orderId,
      partId: r.partId,
      method: r.method,
      amountCents: r.amountCents,
      friendKey: friend ? (r.openId ?? `invitation:${r.invitationId}`) : null,
      invitationId: r.invitationId,
      // the name the friend chose to show (decision 099), else the one other members see, masked
      friendName: friend ? r.nickname?.trim() || (r.openId ? (friendNames.get(r.openId) ?? null) : null) : null,
      refundedCents: Number(backOf.get(r.paymentId)?.refunded ?? 0),
      refundingCents: Number(backOf.get(r.paymentId)?.refunding ?? 0),
      askedCents: Number(backOf.get(r.paymentId)?.asked ?? 0),
    };
  });
}

/** A friend's shown name (masked) by the account their messaging-app open id is bound to. */
async function friendShownNames(db: Db | Tx, openIds: readonly string[]): Promise<Map<string, string | null>> {
  if (openIds.length === 0) return new Map();
  const bound = await db
    .select({ openId: openIdBindings.openId, accountId: openIdBindings.accountId })
    .from(openIdBindings)
    .where(inArray(openIdBindings.openId, [...new Set(openIds)]));
  const names = await shownNames(
    db,
    bound.map((b) => b.accountId),
  );
  return new Map(bound.map((b) => [b.openId, names.get(b.accountId) ?? null]));
}

/** The payer line a payment belongs to: one per payer and method. */
const payerKey = (r: PaidRow) => `${r.friendKey ?? 'me'}|${r.method}`;

/** Payments summed into payer lines, in the order each payer first paid. */
export function payerLines(rows: readonly PaidRow[]): MoneyPayer[] {
  const lines = new Map<string, MoneyPayer>();
  for (const r of rows) {
    const key = payerKey(r);
    const line = lines.get(key) ?? {
      who: r.friendKey ? ('friend' as const) : ('me' as const),
      name: r.friendName,
      method: r.method,
      paidCents: 0,
      refundedCents: 0,
      refundingCents: 0,
    };
    line.paidCents += r.amountCents;
    line.refundedCents += r.refundedCents;
    line.refundingCents += r.refundingCents;
    lines.set(key, line);
  }
  return [...lines.values()];
}

/** Shares of an amount given back, per payment, summed into payer lines (what a refund returns to whom). */
export function backLines(rows: readonly PaidRow[], shares: readonly number[]): MoneyBack[] {
  const lines = new Map<string, MoneyBack>();
  rows.forEach((r, i) => {
    const cents = shares[i] ?? 0;
    if (cents <= 0) return;
    const key = payerKey(r);
    const line = lines.get(key) ?? { who: r.friendKey ? 'friend' : 'me', name: r.friendName, method: r.method, cents: 0 };
    line.cents += cents;
    lines.set(key, line);
  });
  return [...lines.values()];
}

/** Payer lines and what is still to pay, made into the one shape every screen shows. */
export function breakdownOf(
  scope: MoneyBreakdown['scope'],
  goodsTotalCents: number,
  couponCents: number,
  payers: MoneyPayer[],
  toPayCents: number,
): MoneyBreakdown {
  const total = (k: 'paidCents' | 'refundedCents' | 'refundingCents') => payers.reduce((n, p) => n + p[k], 0);
  return {
    scope,
    goodsTotalCents,
    couponCents,
    paidCents: total('paidCents'),
    refundedCents: total('refundedCents'),
    refundingCents: total('refundingCents'),
    toPayCents,
    payers,
  };
}

/**
 * The one money breakdown of each order (decision 101), by order id: every answer that shows an
 * order's money carries this, so the same number means the same thing on every screen.
 */
export async function moneyBreakdowns(db: Db | Tx, rows: readonly OrderRow[]): Promise<Map<number, MoneyBreakdown>> {
  const ids = rows.map((o) => o.id);
  const paid = await paidRows(db, ids);
  const sums = await orderMoney(db, ids);
  return new Map(
    rows.map((o) => [
      o.id,
      breakdownOf(
        'order',
        o.priceCents,
        o.couponDeductionCents,
        payerLines(paid.filter((p) => p.orderId === o.id)),
        sums.get(o.id)?.outstandingCents ?? 0,
      ),
    ]),
  );
}

/** One order's breakdown (see moneyBreakdowns). */
export async function moneyBreakdown(db: Db | Tx, o: OrderRow): Promise<MoneyBreakdown> {
  return (await moneyBreakdowns(db, [o])).get(o.id)!;
}
