import { sql } from 'drizzle-orm';
import type { Deps } from '../env';
import { HOUSEKEEPING_EVERY_MS, HOUSEKEEPING_JOB, housekeeping } from './housekeeping';
import { runOrderExpiry } from '../services/orders/expiry';
import { ORDER_EXPIRE_JOB } from '../services/orders/pay-window';
import { INVITATION_EXPIRE_JOB, runInvitationExpiry } from '../services/orders/invitations';
import { PAYMENT_QUERY_JOB, runPaymentQuery } from '../services/orders/settle';
import { REFUND_RUN_JOB } from '../services/refunds/request';
import { REFUND_QUERY_JOB, runRefund, runRefundQuery } from '../services/refunds/run';
import { COMPLAINT_OVERDUE_JOB, flagOverdueComplaint } from '../services/complaints/complaints';
import { passTime, TIME_PASSING_EVERY_MS, TIME_PASSING_JOB } from './time-passing';
import { claimDueJobs, completeJob, enqueueJob, failJob, hasPendingJob } from './queue';
import { catalogChanged } from '../http/catalog-cache';
import { rewrapOldDataKeys } from '../services/person-privacy/rewrap-keys';

/** What a job kind does; later issues add kinds (friend-pay expiry, payment-query fallback). */
export type JobHandler = (deps: Deps, payload: unknown) => Promise<void>;

/** The job kinds this server runs. */
export const jobHandlers: Record<string, JobHandler> = {
  [HOUSEKEEPING_JOB]: async (deps) => {
    const removed = await housekeeping(deps.db, deps.clock, deps.config.retention);
    deps.log.info('housekeeping', removed);
    // decision 055: data keys still wrapped by a rotated-out key move to the current one
    const keys = await rewrapOldDataKeys(deps.db, deps.gateways.keys);
    if (keys.rewrapped > 0) deps.log.info('data keys rewrapped', { rewrapped: keys.rewrapped, keyId: deps.gateways.keys.currentKeyId });
    if (Object.keys(keys.failed).length > 0)
      deps.log.error('data keys not rewrapped: their key is not in DATA_KEY or DATA_KEYS_PREVIOUS', { failed: keys.failed });
    await enqueueJob(deps.db, { kind: HOUSEKEEPING_JOB, runAt: new Date(deps.clock.now().getTime() + HOUSEKEEPING_EVERY_MS) });
  },
  // states that pass with time (a queue entry at its class's start, a seat at its end, a card or a coupon at its validity end), written through the charts (decision 018)
  [TIME_PASSING_JOB]: async (deps) => {
    const moved = await passTime(deps.db, deps.clock.now());
    if (moved.bookings + moved.cards + moved.coupons + moved.schedules > 0) deps.log.info('time passing', moved);
    await enqueueJob(deps.db, { kind: TIME_PASSING_JOB, runAt: new Date(deps.clock.now().getTime() + TIME_PASSING_EVERY_MS) });
  },
  // an order whose payment notification never came is settled by asking the provider
  [PAYMENT_QUERY_JOB]: runPaymentQuery,
  // an unpaid order not paid in time is cancelled (decision 008)
  [ORDER_EXPIRE_JOB]: runOrderExpiry,
  // a provider refund is asked for, and asked about until it ends (decision 021)
  [REFUND_RUN_JOB]: runRefund,
  // a friend-pay invitation not paid within its hour ends (decision 021)
  [INVITATION_EXPIRE_JOB]: runInvitationExpiry,
  [REFUND_QUERY_JOB]: runRefundQuery,
  // a complaint unanswered for 48 hours is flagged to staff (decision 033)
  [COMPLAINT_OVERDUE_JOB]: (deps, payload) => flagOverdueComplaint(deps.db, deps.clock, payload),
};

/** Claims and runs the due jobs once; returns how many ran. Tests call this with the test clock. */
export async function runDueJobs(deps: Deps, handlers: Record<string, JobHandler> = jobHandlers): Promise<number> {
  const claimed = await claimDueJobs(deps.db, deps.clock);
  for (const job of claimed) {
    const handler = handlers[job.kind];
    try {
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      await handler(deps, job.payload);
      await completeJob(deps.db, deps.clock, job.id);
    } catch (err) {
      deps.log.error('job failed', { id: job.id, kind: job.kind, error: err instanceof Error ? err.message : String(err) });
      await failJob(deps.db, deps.clock, job, err instanceof Error ? err.message : String(err));
    }
  }
  // a job may change the catalogue (an expired order gives its stock back): forget cached answers
  if (claimed.length > 0) catalogChanged(deps);
  return claimed.length;
}

/** The jobs that schedule themselves again each time they run. */
const RECURRING_JOBS = [HOUSEKEEPING_JOB, TIME_PASSING_JOB];

/** Schedules each recurring job once, to run now, unless it waits already (any number of processes may call this). */
export async function scheduleRecurringJobs(deps: Deps): Promise<void> {
  // an advisory lock makes check-then-insert atomic across processes starting together
  await deps.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('jobs:schedule'))`);
    for (const kind of RECURRING_JOBS) {
      if (!(await hasPendingJob(tx, kind))) await enqueueJob(tx, { kind, runAt: deps.clock.now() });
    }
  });
}

/**
 * Schedules the recurring jobs once and polls for due jobs: the first poll at once (what came due
 * while no process ran is done as this one starts, not a poll later), then every `pollMs`. The stop
 * function ends the polling and resolves once a poll under way has ended (the database may close then).
 */
export async function startJobRunner(deps: Deps, pollMs = 5_000): Promise<() => Promise<void>> {
  await scheduleRecurringJobs(deps);
  let running: Promise<void> | null = null;
  const poll = () => {
    if (running) return;
    running = runDueJobs(deps)
      .then(() => undefined)
      .catch((err: unknown) => deps.log.error('job runner', { error: err instanceof Error ? err.message : String(err) }))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(poll, pollMs);
  timer.unref();
  poll();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
