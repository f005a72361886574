import { perDatabase } from '../../db/per-database';

/**
 * At most PURCHASES_AT_ONCE order creations for the same goods run at once in this process; the rest
 * wait their turn here, first come first served (decision 049). For a flash sale this is what lets
 * the sold-out memory work: a crowd arrives all at once, before the database has said anything, and
 * without a gate every request would be past the memory check before the first place was taken. With
 * it, the crowd waits in memory while a few buy, and each waiter, let in, first asks the memory: once
 * the last place is gone the rest are refused without touching the sale. For other goods it costs
 * nothing: their creations take the goods row's lock (decision 008) and run one after another anyway.
 * A gate decides nothing: every place is still taken by the conditional update in the database.
 */
export const PURCHASES_AT_ONCE = 4;

interface Gate {
  running: number;
  waiting: (() => void)[];
}

/** One set of gates per database (tests run several servers, each on its own database, in one process). */
const gatesOf = perDatabase((): Map<number, Gate> => new Map());

/** Waits for a turn to create an order for these goods; answers the function that ends the turn (call it once). */
export async function turnFor(db: object, goodsId: number): Promise<() => void> {
  const byGoods = gatesOf(db);
  let gate = byGoods.get(goodsId);
  if (!gate) {
    gate = { running: 0, waiting: [] };
    byGoods.set(goodsId, gate);
  }
  const g = gate;
  if (g.running < PURCHASES_AT_ONCE) g.running += 1;
  else await new Promise<void>((resolve) => g.waiting.push(resolve)); // the leaving turn hands its place over
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    const next = g.waiting.shift();
    if (next) next();
    else {
      g.running -= 1;
      if (g.running === 0) byGoods.delete(goodsId);
    }
  };
}
