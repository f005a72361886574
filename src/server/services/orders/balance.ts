import { eq, sql } from 'drizzle-orm';
import { recordedPaymentStatus } from '../../../../machines/domain/payment-transitions';
import type { LedgerReason } from '../../../domain/balance-ledger';
import type { Clock } from '../../../domain/clock';
import { Errors } from '../../../domain/errors';
import type { Db, Tx } from '../../db/client';
import { balanceLedger, payments } from '../../db/schema/index';
import { ApiError } from '../../http/api-error';
import { decide } from '../../db/transaction';
import { lockAccount } from './locks';
import { movePart, type PartRow } from './parts';

/** The member's balance: a ledger of changes (every change is a row; the balance is their sum). */

/** The balance: the sum of the ledger. */
export async function balanceOf(db: Db | Tx, accountId: number): Promise<number> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${balanceLedger.changeCents}), 0)` })
    .from(balanceLedger)
    .where(eq(balanceLedger.accountId, accountId));
  return Number(row?.total ?? 0);
}

/**
 * Each `order` or `split_part` ledger row is one balance payment's (`payments.ledger_id`), each
 * `cancel` or `refund` row one refund's (`refunds.ledger_id`), decision 021; the reasons are
 * src/domain/balance-ledger.ts's.
 */

/** Adds a ledger row under the account lock the caller holds; refuses to go below zero. The row's id, none for a zero change. */
export async function changeBalance(
  tx: Tx,
  clock: Clock,
  accountId: number,
  changeCents: number,
  reason: LedgerReason,
  orderId: number | null,
): Promise<number | null> {
  if (changeCents === 0) return null;
  if (changeCents < 0 && (await balanceOf(tx, accountId)) + changeCents < 0) throw new ApiError(Errors.balanceNotEnough);
  const [row] = await tx
    .insert(balanceLedger)
    .values({ accountId, changeCents, reason, orderId, createdAt: clock.now() })
    .returning({ id: balanceLedger.id });
  return row!.id;
}

/**
 * Pays a part from the member's balance: the ledger debit, its `payments` row (provider `balance`) and
 * the part paid, in the caller's transaction (which holds the account and order locks); 40004 when
 * the balance is short. The payment's id.
 */
export async function payPartByBalance(
  tx: Tx,
  clock: Clock,
  accountId: number,
  part: PartRow,
  reason: 'order' | 'split_part',
): Promise<number> {
  const ledgerId = await changeBalance(tx, clock, accountId, -part.amountCents, reason, part.orderId);
  const status = recordedPaymentStatus('payment.applied')!;
  const [row] = await tx
    .insert(payments)
    .values({
      orderId: part.orderId,
      partId: part.id,
      provider: 'balance',
      ledgerId,
      amountCents: part.amountCents,
      status,
      source: 'balance',
      createdAt: clock.now(),
    })
    .returning({ id: payments.id });
  await movePart(tx, clock, part, 'part.paid');
  return row!.id;
}

/** A top-up or grant (staff work and tests). */
export async function creditBalance(
  db: Db,
  clock: Clock,
  accountId: number,
  cents: number,
  reason: 'topup' | 'grant' = 'topup',
): Promise<void> {
  await decide(db, async (tx) => {
    await lockAccount(tx, accountId);
    await changeBalance(tx, clock, accountId, cents, reason, null);
  });
}
