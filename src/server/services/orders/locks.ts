import { and, eq } from 'drizzle-orm';
import { Errors } from '../../../domain/errors';
import type { Tx } from '../../db/client';
import { accounts, orders } from '../../db/schema/index';
import { ApiError } from '../../http/api-error';
import type { OrderRow } from './read';

/**
 * Buying. Every change of money or stock is one transaction that first locks the buyer's
 * account row (so one member's balance and orders change one at a time), then the goods row (so
 * stock never goes below zero). Order states only move by the chart (machines/domain/order.machine.ts).
 * A unit of stock is reserved when the order is created and given back when it is cancelled.
 */

/** Locks the buyer's account row: one member's balance and orders change one at a time. */
export async function lockAccount(tx: Tx, accountId: number): Promise<void> {
  await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).for('no key update');
}

/** The caller's order by number, locked for update; another member's is not found. */
export async function lockMyOrder(tx: Tx, accountId: number, orderNo: string): Promise<OrderRow> {
  const [row] = await tx
    .select()
    .from(orders)
    .where(and(eq(orders.orderNo, orderNo), eq(orders.accountId, accountId)))
    .for('update');
  if (!row) throw new ApiError(Errors.notFound, { field: 'orderNo' });
  return row;
}
