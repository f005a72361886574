import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { AWAITING_MONEY_STATES } from '../../../machines/domain/order-transitions';
import { LIVE_PART_STATES } from '../../../machines/domain/payment-part-transitions';
import { APPLIED_PAYMENT_STATUSES, PAYMENT_STATUSES_TO_REFUND } from '../../../machines/domain/payment-transitions';
import type { Db } from '../../../src/server/db/client';

/**
 * The money invariants of decision 021 ("Consequences"), checked after every race test and migration:
 * each query lists the rows that break one, so a failure names them. Refunds count whatever their
 * state (held, failed and pending ones are money owed and recorded, not lost).
 * - per payment: its refunds never exceed it; a payment to refund (mismatch, needs_refund) or one of
 *   a cancelled order is refunded in full;
 * - a paid or fully paid order kept its price less the coupon (applied − refunded = deduction + amount to pay);
 * - an order awaiting money: applied less refunded = its paid live parts (a part given back by an
 *   un-split is refunded), and its live shares sum to the amount to pay;
 * - each ledger row of an order is exactly one payment's debit or one refund's credit;
 * - no balance is below zero.
 */
const list = (xs: readonly string[]) => sql.raw(`(${xs.map((x) => `'${x}'`).join(', ')})`);

async function rows(db: Db, q: ReturnType<typeof sql>): Promise<unknown[]> {
  const r = await db.execute(q);
  return (Array.isArray(r) ? r : (r as { rows: unknown[] }).rows) as unknown[];
}

export async function moneyInvariantBreaches(db: Db): Promise<Record<string, unknown[]>> {
  const refunded = sql.raw(`(select coalesce(sum(r.amount_cents), 0) from refunds r where r.payment_id = p.id)`);
  return {
    refundsOverPayment: await rows(
      db,
      sql`select p.id, p.amount_cents, ${refunded} as refunded from payments p where ${refunded} > p.amount_cents`,
    ),
    notRefundedInFull: await rows(
      db,
      sql`select p.id, p.status, o.state, p.amount_cents, ${refunded} as refunded from payments p join orders o on o.id = p.order_id
          where p.amount_cents > 0 and (p.status in ${list(PAYMENT_STATUSES_TO_REFUND)} or (o.state = 'cancelled' and p.status in ${list(APPLIED_PAYMENT_STATUSES)}))
            and ${refunded} <> p.amount_cents`,
    ),
    paidOrderNotKept: await rows(
      db,
      sql`select o.id, o.balance_used_cents + o.amount_to_pay_cents as price, k.kept from orders o
          cross join lateral (select coalesce(sum(p.amount_cents - ${refunded}), 0) as kept from payments p where p.order_id = o.id and p.status in ${list(APPLIED_PAYMENT_STATUSES)}) k
          where o.state in ('paid', 'fully_paid') and k.kept <> o.balance_used_cents + o.amount_to_pay_cents`,
    ),
    awaitingOrderParts: await rows(
      db,
      sql`select o.id, o.amount_to_pay_cents, a.applied, a.paid_parts, a.shares from orders o
          cross join lateral (select
            (select coalesce(sum(p.amount_cents - ${refunded}), 0) from payments p where p.order_id = o.id and p.status in ${list(APPLIED_PAYMENT_STATUSES)}) as applied,
            (select coalesce(sum(t.amount_cents), 0) from payment_parts t where t.order_id = o.id and t.state = 'paid') as paid_parts,
            (select coalesce(sum(t.amount_cents), 0) from payment_parts t where t.order_id = o.id and t.kind = 'share' and t.state in ${list(LIVE_PART_STATES)}) as shares) a
          where o.state in ${list(AWAITING_MONEY_STATES)} and (a.applied <> a.paid_parts or a.shares <> o.amount_to_pay_cents)`,
    ),
    ledgerRowsNotOneMove: await rows(
      db,
      sql`select l.id, l.reason, l.change_cents from balance_ledger l
          where l.order_id is not null
            and (select count(*) from payments p where p.ledger_id = l.id) + (select count(*) from refunds r where r.ledger_id = l.id) <> 1`,
    ),
    balanceBelowZero: await rows(
      db,
      sql`select account_id, sum(change_cents) as balance from balance_ledger group by account_id having sum(change_cents) < 0`,
    ),
  };
}

/** Fails naming the rows that break a money invariant. */
export async function assertMoneyInvariants(db: Db): Promise<void> {
  const breaches = await moneyInvariantBreaches(db);
  expect(breaches).toEqual(Object.fromEntries(Object.keys(breaches).map((k) => [k, []])));
}
