import { sql } from 'drizzle-orm';
import type { PgDialect } from 'drizzle-orm/pg-core';
import { vi } from 'vitest';
import type { Db } from '../../../src/server/db/client';
import { applySqlFunctions, sqlFunctionFiles } from '../../../src/server/db/functions';
import { guards } from '../../../src/server/db/guards';

/**
 * The race tests' negative controls: the same product code on a database handle that takes no locks,
 * so a control shows the race then goes through (the test can fail). Product code has no lock option;
 * the unsafe variant is built here, from outside:
 *   - `withoutLocks(db)`: a handle whose transactions drop every row lock (`.for(...)` on a select
 *     answers the same select, unlocked) and every advisory lock (`pg_advisory_xact_lock`);
 *   - `withUnlockedFunctions(db, run)`: for `run`, the live SQL functions as their files say, each
 *     `FOR UPDATE` taken out (a test-only build in the test's own database), then the files' versions back.
 * Both at once: `unlockedRace(db, run)` hands `run` the unlocked handle while the unlocked functions are in.
 * Where a service also guards its writes (src/server/db/guards.ts: an UPDATE's state condition, an
 * insert yielding to a unique index), the lock alone is not what the race test shows: `withoutGuards(run)`
 * takes those guards out too, for `run` only.
 */

const ADVISORY = /pg_advisory(_xact)?_lock/;

/** A select builder whose `.for(...)` is a no-op: every method keeps answering this proxy, so a chain stays unlocked. */
function unlockedBuilder<T extends object>(builder: T): T {
  const proxy: T = new Proxy(builder, {
    get(target, prop, receiver) {
      if (prop === 'for') return () => receiver;
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function' || prop === 'constructor') return value;
      return (...args: unknown[]) => {
        const r = value.apply(receiver, args);
        // `from` (and `$dynamic`) answer a new builder: keep it unlocked too
        return r === target
          ? receiver
          : r && typeof r === 'object' && typeof (r as { for?: unknown }).for === 'function'
            ? unlockedBuilder(r)
            : r;
      };
    },
  });
  return proxy;
}

/** A transaction (or database) handle whose selects take no row lock and whose advisory locks are skipped. */
function unlockedHandle<T extends object>(handle: T): T {
  return new Proxy(handle, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (prop === 'select' || prop === 'selectDistinct' || prop === 'selectDistinctOn')
        return (...args: unknown[]) => unlockedBuilder((value as (...a: unknown[]) => object).apply(target, args));
      if (prop === 'execute')
        return (query: Parameters<Db['execute']>[0]) => {
          const text = (target as unknown as { dialect: PgDialect }).dialect.sqlToQuery(query as never).sql;
          return ADVISORY.test(text) ? (value as Db['execute']).call(target, sql`select 1`) : (value as Db['execute']).call(target, query);
        };
      if (prop === 'transaction')
        return (work: (tx: object) => Promise<unknown>, config?: unknown) =>
          (value as (w: (tx: object) => Promise<unknown>, c?: unknown) => Promise<unknown>).call(
            target,
            (tx) => work(unlockedHandle(tx)),
            config,
          );
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** The database handle of a negative control: the same decisions, no row or advisory locks taken. */
export function withoutLocks(db: Db): Db {
  return unlockedHandle(db);
}

/** Runs `run` with the SQL functions built without their row locks, then puts the files' versions back. */
export async function withUnlockedFunctions<T>(db: Db, run: () => Promise<T>): Promise<T> {
  for (const f of sqlFunctionFiles()) {
    const unlocked = f.text.replace(/\s+FOR UPDATE\b/g, '');
    if (unlocked === f.text) continue;
    await db.execute(sql.raw(unlocked));
  }
  try {
    return await run();
  } finally {
    await applySqlFunctions(db);
  }
}

/** A negative control's race: `run` gets the unlocked handle while the unlocked SQL functions are in. */
export function unlockedRace<T>(db: Db, run: (unsafe: Db) => Promise<T>): Promise<T> {
  return withUnlockedFunctions(db, () => run(withoutLocks(db)));
}

/** Runs `run` with the write guards of src/server/db/guards.ts gone: no UPDATE state condition, a conflicting insert fails. */
export async function withoutGuards<T>(run: () => Promise<T>): Promise<T> {
  const still = vi.spyOn(guards, 'still').mockReturnValue(undefined);
  const orSkip = vi.spyOn(guards, 'orSkip').mockImplementation((insert) => insert as never);
  try {
    return await run();
  } finally {
    still.mockRestore();
    orSkip.mockRestore();
  }
}
