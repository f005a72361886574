import { sql } from 'drizzle-orm';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../../../src/server/db/client';

/**
 * Forced interleavings, from the test side: product code has no pause point of its own. The point a
 * race test needs is "after the decision's checks, before its first write", and a decision's checks
 * only read (a no-op write, such as a catch-up UPDATE that matches no row, changes nothing). So the
 * point is found on the database handle: the first INSERT, UPDATE or DELETE of a transaction that
 * would change a row. Each write is tried first inside a savepoint and rolled back (its row locks go
 * with it); the first one that changed a row runs `hook`, then runs for real.
 */

const WRITES = new Set(['insert', 'update', 'delete']);

/** How many rows a write answered (postgres.js: its `count`; PGlite: `affectedRows`; with `.returning()`: the rows). */
function rowsOf(result: unknown): number {
  const r = result as { count?: number; affectedRows?: number; length?: number } | null;
  return r?.count ?? r?.affectedRows ?? r?.length ?? 0;
}

interface Gate {
  fired: boolean;
  hook: () => Promise<void>;
}

/** A write builder whose execution (awaited, or `.execute()`) first passes the gate; every chained builder is gated too. */
function gatedWrite<T extends object>(builder: T, tx: Db, gate: Gate): T {
  const run = async (go: () => Promise<unknown>) => {
    if (gate.fired) return go();
    await tx.execute(sql`savepoint first_write`);
    // a write that fails here fails the same way for real, below
    const tried = await go().catch(() => undefined);
    await tx.execute(sql`rollback to savepoint first_write`);
    await tx.execute(sql`release savepoint first_write`);
    if (!gate.fired && rowsOf(tried) > 0) {
      gate.fired = true;
      await gate.hook();
    }
    return go();
  };
  const proxy: T = new Proxy(builder, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== 'function' || prop === 'constructor') return value;
      if (prop === 'then')
        return (onDone?: (v: unknown) => unknown, onFail?: (e: unknown) => unknown) =>
          run(() => new Promise((resolve, reject) => (value as PromiseLike<unknown>['then']).call(target, resolve, reject))).then(
            onDone,
            onFail,
          );
      if (prop === 'execute')
        return (...args: unknown[]) => run(() => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args));
      return (...args: unknown[]) => {
        const r = value.apply(target, args);
        return r === target
          ? proxy
          : r && typeof r === 'object' && typeof (r as { then?: unknown }).then === 'function'
            ? gatedWrite(r as object, tx, gate)
            : r;
      };
    },
  });
  return proxy;
}

/** A transaction handle whose writes pass the gate (nested transactions too). */
function gatedHandle<T extends object>(handle: T, gate: Gate): T {
  return new Proxy(handle, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof prop === 'string' && WRITES.has(prop))
        return (...args: unknown[]) =>
          gatedWrite((value as (...a: unknown[]) => object).apply(target, args), target as unknown as Db, gate);
      if (prop === 'transaction')
        return (work: (tx: object) => Promise<unknown>, config?: unknown) =>
          (value as (w: (tx: object) => Promise<unknown>, c?: unknown) => Promise<unknown>).call(
            target,
            (tx) => work(gatedHandle(tx, gate)),
            config,
          );
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * A database handle (the real one, or a negative control's `withoutLocks(db)`) on which `hook` runs
 * once, at the first write in a transaction that would change a row: for a decision, after its
 * checks and before its writes, with its locks (if it takes any) held. Later writes pass as usual.
 */
export function atFirstWrite(db: Db, hook: () => Promise<void>): Db {
  const gate: Gate = { fired: false, hook };
  return new Proxy(db, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (prop === 'transaction')
        return (work: (tx: object) => Promise<unknown>, config?: unknown) =>
          (value as (w: (tx: object) => Promise<unknown>, c?: unknown) => Promise<unknown>).call(
            target,
            (tx) => work(gatedHandle(tx, gate)),
            config,
          );
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * One forced interleaving of a decision and another request (decision 006, "Forced interleavings"):
 * `decide` is given a way to wrap its database handle (`at(db)`), and at the decision's first write
 * (after its checks) `other` starts inside the decision's window; the decision goes on once `other`
 * has answered, or after `holdMs` when `other` waits for the decision's locks. Answers whether the
 * decision went through and what `other` answered.
 */
export async function otherInsideDecision<T>(
  decide: (at: (db: Db) => Db) => Promise<unknown>,
  other: () => Promise<T>,
  holdMs: number,
): Promise<{ decided: boolean; other: T }> {
  let started: Promise<T> | undefined;
  const afterCheck = async () => {
    started = other();
    await Promise.race([started, sleep(holdMs)]);
  };
  const decided = await decide((db) => atFirstWrite(db, afterCheck)).then(
    () => true,
    () => false,
  );
  if (!started) throw new Error('the decision never reached its first write');
  return { decided, other: await started };
}
