import { and, asc, eq, isNull, lte, or, sql } from 'drizzle-orm';
import type { Clock } from '../../domain/clock';
import type { Db, Tx } from '../db/client';
import { jobs } from '../db/schema/index';

/** A claimed job: its row is leased to one process until `lockedUntil`. */
export interface ClaimedJob {
  id: number;
  kind: string;
  payload: unknown;
  attempts: number;
}

/** How long a claim lasts before another process may take the job over (a crashed worker). */
export const JOB_LEASE_MS = 60_000;

/** Adds a job to run at `runAt` (DESIGN.md §1: jobs are rows any process may claim). */
export async function enqueueJob(db: Db | Tx, job: { kind: string; payload?: unknown; runAt: Date }): Promise<number> {
  const [row] = await db
    .insert(jobs)
    .values({ kind: job.kind, payload: job.payload ?? {}, runAt: job.runAt })
    .returning({ id: jobs.id });
  return row!.id;
}

/**
 * Claims up to `limit` due jobs with FOR UPDATE SKIP LOCKED, so N processes never run the same job
 * twice, and a job whose lease ran out (its worker died) can be claimed again.
 */
export async function claimDueJobs(db: Db, clock: Clock, limit = 10): Promise<ClaimedJob[]> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: jobs.id, kind: jobs.kind, payload: jobs.payload, attempts: jobs.attempts })
      .from(jobs)
      .where(and(isNull(jobs.doneAt), lte(jobs.runAt, now), or(isNull(jobs.lockedUntil), lte(jobs.lockedUntil, now))))
      .orderBy(asc(jobs.runAt), asc(jobs.id))
      .limit(limit)
      .for('update', { skipLocked: true });
    for (const j of due) {
      await tx
        .update(jobs)
        .set({ lockedUntil: new Date(now.getTime() + JOB_LEASE_MS), attempts: sql`${jobs.attempts} + 1` })
        .where(eq(jobs.id, j.id));
    }
    return due.map((j) => ({ ...j, attempts: j.attempts + 1 }));
  });
}

/** Marks a job done. */
export async function completeJob(db: Db, clock: Clock, id: number): Promise<void> {
  await db.update(jobs).set({ doneAt: clock.now(), lockedUntil: null, lastError: null }).where(eq(jobs.id, id));
}

/** Gives a failed job back with exponential backoff (1 min, 2, 4, … capped at 1 h). */
export async function failJob(db: Db, clock: Clock, job: ClaimedJob, error: string): Promise<void> {
  const delay = Math.min(60_000 * 2 ** (job.attempts - 1), 3_600_000);
  await db
    .update(jobs)
    .set({ lockedUntil: null, runAt: new Date(clock.now().getTime() + delay), lastError: error.slice(0, 2000) })
    .where(eq(jobs.id, job.id));
}

/** True when a job of this kind is waiting (not done), so a recurring job is scheduled once. */
export async function hasPendingJob(db: Db | Tx, kind: string): Promise<boolean> {
  const rows = await db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.kind, kind), isNull(jobs.doneAt)))
    .limit(1);
  return rows.length > 0;
}
