import { performance } from 'node:perf_hooks';
import { perDatabase } from '../../db/per-database';

/**
 * What this process last heard from the database about a flash sale being sold out (decision 049),
 * so the crowd after the last place is refused without touching the database. It errs only toward
 * "not known": an entry is made only from an answer of the database (the sale's row read with
 * sell_number >= max_number, a conditional take that found no place, or a commit that took the last
 * one), and it is dropped
 *  - after SOLD_OUT_MEMORY_MS of real time: the bound on how late a place released by another server
 *    process (an unpaid order cancelled or expired) becomes buyable here;
 *  - at once when this process releases a place of any sale (releases are rare, so every entry of
 *    every database goes: the release runs on a transaction, which does not say its database);
 *  - when the injected clock is outside the sale's window (the answer is then 50021/50022, from the
 *    database as before).
 * Memory never says "a place is free", so it cannot sell more than the database allows: every sale
 * still goes through the conditional update.
 */
export const SOLD_OUT_MEMORY_MS = 1_000;

interface Entry {
  /** performance.now() after which the entry is no longer trusted */
  until: number;
  startsAt: number;
  endsAt: number;
  /** `releases` when the entry was made: a release since then voids it */
  epoch: number;
}

/** Places released by this process so far. */
let releases = 0;

/** One memory per database (tests run several servers, each on its own database, in one process). */
const memoryOf = perDatabase((): Map<number, Entry> => new Map());

/** The database said the sale of these goods is sold out (as of now). */
export function rememberSoldOut(db: object, sale: { goodsId: number; startsAt: Date; endsAt: Date }): void {
  memoryOf(db).set(sale.goodsId, {
    until: performance.now() + SOLD_OUT_MEMORY_MS,
    startsAt: sale.startsAt.getTime(),
    endsAt: sale.endsAt.getTime(),
    epoch: releases,
  });
}

/** A place of a sale came back (or may have, once the releasing transaction commits): ask the database again. */
export function forgetSoldOut(): void {
  releases += 1;
}

/** Whether this process knows, from the database less than SOLD_OUT_MEMORY_MS ago, that the live sale of these goods is sold out. */
export function knownSoldOut(db: object, goodsId: number, now: Date): boolean {
  const m = memoryOf(db);
  const e = m.get(goodsId);
  if (!e) return false;
  if (performance.now() >= e.until || e.epoch !== releases) {
    m.delete(goodsId);
    return false;
  }
  const t = now.getTime();
  return e.startsAt <= t && t < e.endsAt;
}
