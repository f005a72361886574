import { count, desc, eq, sql } from 'drizzle-orm';
import type { Clock } from '../../../domain/clock';
import { Errors } from '../../../domain/errors';
import type { Db, Tx } from '../../db/client';
import { balanceLedger } from '../../db/schema/index';
import { ApiError } from '../../http/api-error';
import { decide } from '../booking/decide';
import { lockAccount, ROW } from './locks';

/** The member's balance: a ledger of changes (every change is a row; the balance is their sum). */

/** The balance: the sum of the ledger. */
export async function balanceOf(db: Db | Tx, accountId: number): Promise<number> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${balanceLedger.changeCents}), 0)` })
    .from(balanceLedger)
    .where(eq(balanceLedger.accountId, accountId));
  return Number(row?.total ?? 0);
}

/** Adds a ledger row under the account lock the caller holds; refuses to go below zero. */
export async function changeBalance(tx: Tx, clock: Clock, accountId: number, changeCents: number, reason: string, orderId: number | null): Promise<void> {
  if (changeCents === 0) return;
  if (changeCents < 0 && (await balanceOf(tx, accountId)) + changeCents < 0) throw new ApiError(Errors.balanceNotEnough);
  await tx.insert(balanceLedger).values({ accountId, changeCents, reason, orderId, createdAt: clock.now() });
}

/** A top-up or grant (staff work and tests). */
export async function creditBalance(db: Db, clock: Clock, accountId: number, cents: number, reason = 'topup'): Promise<void> {
  await decide(db, async (tx) => {
    await lockAccount(tx, accountId, ROW);
    await changeBalance(tx, clock, accountId, cents, reason, null);
  });
}

/** My ledger, newest first, a page. */
export async function balanceHistory(db: Db, accountId: number, pagenum: number, pagesize: number) {
  const list = await db
    .select()
    .from(balanceLedger)
    .where(eq(balanceLedger.accountId, accountId))
    .orderBy(desc(balanceLedger.id))
    .limit(pagesize)
    .offset(pagenum * pagesize);
  const [t] = await db.select({ n: count() }).from(balanceLedger).where(eq(balanceLedger.accountId, accountId));
  return { list, total: t?.n ?? 0 };
}
