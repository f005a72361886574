import { and, count, desc, eq, sql } from 'drizzle-orm';
import { isLedgerReason } from '../../domain/balance-ledger';
import type { BalanceLedgerRow } from '../../contracts/payments';
import type { Db } from '../db/client';
import { balanceLedger, goods, orders } from '../db/schema/index';
import type { Locale } from '../i18n';
import { loc } from './catalog';

/**
 * My balance history (decision 021, /mine/balanceHistory): my ledger rows, newest first, a page, each
 * with my balance after it. That balance is the running sum of my whole ledger up to the row,
 * computed in a subquery before paging (`sum(change_cents) over (order by id)`), never stored; the
 * ledger's (account_id, id) index serves both the subquery and the count. An order and its goods are
 * joined through my id as well, so a row can never show another member's order.
 */
export async function myBalanceHistory(db: Db, accountId: number, locale: Locale, pagenum: number, pagesize: number) {
  const mine = eq(balanceLedger.accountId, accountId);
  const running = db
    .select({
      id: balanceLedger.id,
      changeCents: balanceLedger.changeCents,
      reason: balanceLedger.reason,
      orderId: balanceLedger.orderId,
      createdAt: balanceLedger.createdAt,
      balanceAfter: sql<string>`sum(${balanceLedger.changeCents}) over (order by ${balanceLedger.id})`.as('balance_after'),
    })
    .from(balanceLedger)
    .where(mine)
    .as('running');
  const rows = await db
    .select({
      id: running.id,
      changeCents: running.changeCents,
      reason: running.reason,
      createdAt: running.createdAt,
      balanceAfter: running.balanceAfter,
      orderId: orders.id,
      orderNo: orders.orderNo,
      name: goods.name,
      nameEn: goods.nameEn,
    })
    .from(running)
    .leftJoin(orders, and(eq(orders.id, running.orderId), eq(orders.accountId, accountId)))
    .leftJoin(goods, eq(goods.id, orders.goodsId))
    .orderBy(desc(running.id))
    .limit(pagesize)
    .offset(pagenum * pagesize);
  const [t] = await db.select({ n: count() }).from(balanceLedger).where(mine);
  const list = rows.map((r): BalanceLedgerRow => {
    // the ledger's CHECK (decision 021) allows only these reasons
    if (!isLedgerReason(r.reason)) throw new Error(`balance_ledger ${r.id}: unknown reason ${r.reason}`);
    return {
      id: r.id,
      changeCents: r.changeCents,
      reason: r.reason,
      orderId: r.orderId,
      orderNo: r.orderNo,
      goodsName: r.name === null ? null : loc(locale, r.name, r.nameEn),
      createdAt: r.createdAt.toISOString(),
      balanceAfterCents: Number(r.balanceAfter),
    };
  });
  return { list, total: t?.n ?? 0, pagenum, pagesize };
}
