import { eq, type AnyColumn, type SQL } from 'drizzle-orm';

/**
 * The write guards that back up the row locks: a state condition on an UPDATE ("the row still reads
 * what this decision read"), and an insert that yields to a unique index instead of failing. Under
 * the locks they never bite; they are the second line when a lock is missing.
 *
 * Why one object, called by property (`guards.still(...)`), and not plain functions or a lock option:
 * product code has one behaviour only, yet a race test's negative control must show the race with
 * every defence gone. The unlocked database handle (test/server/support/without-locks.ts) takes the
 * locks away from outside; these guards are taken away from outside too, by spying on this object's
 * methods for the control's duration (`withoutGuards`, there).
 */
export const guards = {
  /** The UPDATE's condition that the row still holds the value this decision read (a concurrent change matches nothing). */
  still(column: AnyColumn, value: unknown): SQL | undefined {
    return eq(column, value);
  },
  /** The insert yields to a unique index (a concurrent insert got there first: no row comes back) instead of failing. */
  orSkip<Q extends { onConflictDoNothing(): unknown }>(insert: Q): ReturnType<Q['onConflictDoNothing']> {
    return insert.onConflictDoNothing() as ReturnType<Q['onConflictDoNothing']>;
  },
};
