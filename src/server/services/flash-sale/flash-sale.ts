import { and, asc, desc, eq, gte, inArray, sql } from 'drizzle-orm';
import type { OrderState } from '../../../domain/orders';
import { Errors } from '../../../domain/errors';
import { flashSalePhase, flashSaleRefusal } from '../../../domain/flash-sale';
import type { Db, Tx } from '../../db/client';
import { flashSaleBuyers, flashSales, orders } from '../../db/schema/index';
import { ApiError } from '../../http/api-error';
import { translate, type Locale } from '../../i18n';
import { forgetSoldOut, knownSoldOut, rememberSoldOut } from './sold-out-memory';
import { rowsOf } from '../../db/rows';

/**
 * The flash-sale guard (decision 009). A purchase goes through the normal order creation; these
 * hooks make the sale's counter the one thing that decides who gets a place:
 * - `checkFlashSale` before the order transaction: a sold-out, upcoming or ended sale is refused
 *   with one read, no transaction and no lock (the fast path for the crowd after the last place);
 * - `takeFlashPlace` at the end of it: the buyer row, whose unique index makes "one per person" hold
 *   under any race, then one conditional UPDATE ... WHERE sell_number < max_number RETURNING
 *   (PostgreSQL re-checks the condition on the newest row version after waiting for the row lock,
 *   so two processes cannot both take the last place); a refusal rolls the whole order back;
 * - `releaseFlashPlace` when an unpaid order is cancelled or expires: the place comes back.
 */

export type FlashSaleRow = typeof flashSales.$inferSelect;

/**
 * The race tests' negative control: FLASH_SALE_GUARD=off drops the `sell_number < max_number`
 * condition and the sold-out check. Honoured only in a process started in demo mode (APP_MODE=demo).
 */
export function flashGuardOn(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.APP_MODE !== 'demo' || env.FLASH_SALE_GUARD !== 'off';
}
const GUARD = flashGuardOn();

export async function saleOfGoods(db: Db | Tx, goodsId: number): Promise<FlashSaleRow | undefined> {
  const [row] = await db.select().from(flashSales).where(eq(flashSales.goodsId, goodsId));
  return row;
}

/**
 * Whether this process heard from the database less than a second ago that the live sale of these
 * goods is sold out (decision 049): the crowd after the last place is then refused with 50003 without
 * any database work. Never with the guard off (the negative control must reach the update).
 */
export function soldOutFromMemory(db: Db, goodsId: number, now: Date, guard = GUARD): boolean {
  return guard && knownSoldOut(db, goodsId, now);
}

/** Whether purchases wait at the goods' gate (decision 049): not with the guard off, whose race must stay as wide as before. */
export function gateOn(guard = GUARD): boolean {
  return guard;
}

/** The database said the sale is sold out (a take found no place, or took the last one): this process remembers it for a second. */
export function saleFilledUp(db: Db, sale: FlashSaleRow): void {
  rememberSoldOut(db, sale);
}

/**
 * Refuses buying goods whose sale is not live (sold out 50003, not started 50021, ended 50022);
 * answers the sale (null for goods without one) for `takeFlashPlace`. A sale this process knows to be
 * sold out (from the database, within the last second) is refused without reading it.
 */
export async function checkFlashSale(db: Db, goodsId: number, now: Date, guard = GUARD): Promise<FlashSaleRow | null> {
  if (soldOutFromMemory(db, goodsId, now, guard)) throw new ApiError(Errors.goodsSoldOut);
  const sale = await saleOfGoods(db, goodsId);
  if (!sale) return null;
  const phase = flashSalePhase(sale, now);
  const why = phase === 'sold_out' && !guard ? null : flashSaleRefusal(phase);
  if (phase === 'sold_out' && guard) rememberSoldOut(db, sale);
  if (why) throw new ApiError(why);
  return sale;
}

/**
 * Takes one place for the buyer as the LAST statements of the order's transaction, or refuses:
 * already holds one (50005, the unique buyer row), lost the last place (50020), outside the window
 * (50021/50022). The sale's row and its goods' sold count move in one statement, so the hot rows
 * stay locked only for that statement and the commit (decision 009). Answers whether that was the
 * last place (the caller remembers the sale as sold out once the transaction has committed).
 */
export async function takeFlashPlace(tx: Tx, sale: FlashSaleRow, accountId: number, now: Date, guard = GUARD): Promise<{ last: boolean }> {
  const [buyer] = await tx
    .insert(flashSaleBuyers)
    .values({ flashSaleId: sale.id, accountId, createdAt: now })
    .onConflictDoNothing()
    .returning({ id: flashSaleBuyers.id });
  if (!buyer) throw new ApiError(Errors.goodsLimitPerPerson);
  const at = sql`${now.toISOString()}::timestamptz`;
  const taken = rowsOf<{ id: number; last: boolean }>(
    await tx.execute(sql`with taken as (
        update flash_sales set sell_number = sell_number + 1
        where id = ${sale.id} and starts_at <= ${at} and ends_at > ${at}${guard ? sql` and sell_number < max_number` : sql``}
        returning id, goods_id, sell_number >= max_number as last)
      update goods set sold = goods.sold + 1 from taken where goods.id = taken.goods_id returning taken.id, taken.last`),
  );
  if (taken.length > 0) return { last: guard && taken[0]!.last === true };
  const phase = flashSalePhase(sale, now);
  if (phase === 'upcoming' || phase === 'ended') throw new ApiError(flashSaleRefusal(phase)!);
  throw new ApiError(Errors.flashSaleTooSlow);
}

/** Gives the member's place back (their unpaid order was cancelled or expired). */
export async function releaseFlashPlace(tx: Tx, goodsId: number, accountId: number): Promise<void> {
  const sale = await saleOfGoods(tx, goodsId);
  if (!sale) return;
  const gone = await tx
    .delete(flashSaleBuyers)
    .where(and(eq(flashSaleBuyers.flashSaleId, sale.id), eq(flashSaleBuyers.accountId, accountId)))
    .returning({ id: flashSaleBuyers.id });
  if (gone.length > 0) {
    // this process asks the database again from now on (other processes within SOLD_OUT_MEMORY_MS)
    forgetSoldOut();
    await tx
      .update(flashSales)
      .set({ sellNumber: sql`greatest(${flashSales.sellNumber} - 1, 0)` })
      .where(eq(flashSales.id, sale.id));
  }
}

/** A sale by id, or without one the live or next sale (else the last that ended). */
export async function findFlashSale(db: Db, id: number | undefined, now: Date): Promise<FlashSaleRow | undefined> {
  if (id !== undefined) {
    const [row] = await db.select().from(flashSales).where(eq(flashSales.id, id));
    return row;
  }
  const rows = await db.select().from(flashSales).orderBy(asc(flashSales.startsAt), asc(flashSales.id));
  return rows.find((r) => r.endsAt.getTime() > now.getTime()) ?? rows.at(-1);
}

/** Whether the member holds a place in the sale. */
export async function holdsPlace(db: Db, saleId: number, accountId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: flashSaleBuyers.id })
    .from(flashSaleBuyers)
    .where(and(eq(flashSaleBuyers.flashSaleId, saleId), eq(flashSaleBuyers.accountId, accountId)));
  return row !== undefined;
}

/** The member's newest order of the sale's goods since it opened: the order that holds their place. */
export async function placeOrder(db: Db, sale: FlashSaleRow, accountId: number): Promise<{ orderNo: string; state: OrderState } | null> {
  const [row] = await db
    .select({ orderNo: orders.orderNo, state: orders.state })
    .from(orders)
    .where(and(eq(orders.accountId, accountId), eq(orders.goodsId, sale.goodsId), gte(orders.createdAt, sale.startsAt)))
    .orderBy(desc(orders.id))
    .limit(1);
  return row ?? null;
}

/** The flash sales of these goods, by goods id (one query for a catalogue page). */
export async function salesOfGoods(db: Db, goodsIds: readonly number[]): Promise<Map<number, FlashSaleRow>> {
  if (goodsIds.length === 0) return new Map();
  const rows = await db
    .select()
    .from(flashSales)
    .where(inArray(flashSales.goodsId, [...goodsIds]));
  return new Map(rows.map((r) => [r.goodsId, r]));
}

/**
 * A catalogue entry of goods sold through a flash sale, as the sale has it: its sellNumber and
 * maxNumber, and not buyable (with the sale's message) when it is sold out, upcoming or over.
 * A refusal of the goods themselves (off shelf) comes first.
 */
export function withFlashSale<T extends { isUable: boolean; message: string | null; sellNumber: number; maxNumber: number | null }>(
  out: T,
  sale: FlashSaleRow | undefined,
  now: Date,
  locale: Locale,
): T {
  if (!sale) return out;
  const why = out.isUable ? flashSaleRefusal(flashSalePhase(sale, now)) : null;
  return {
    ...out,
    sellNumber: sale.sellNumber,
    maxNumber: sale.maxNumber,
    isUable: out.isUable && why === null,
    message: why ? translate(locale, why.message) : out.message,
  };
}
