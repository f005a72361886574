import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { jobs, loginFailures, pageViews, smsCodes } from '../../src/server/db/schema/index';
import { HOUSEKEEPING_JOB } from '../../src/server/jobs/housekeeping';
import { claimDueJobs, enqueueJob } from '../../src/server/jobs/queue';
import { runDueJobs, startJobRunner } from '../../src/server/jobs/runner';
import { startTestServer, usePostgres } from './support/harness';

describe('jobs: rows any process may claim, run by the injected clock', async () => {
  const s = await startTestServer();
  const { db } = s.deps;
  const HOUR = 3_600_000;

  it('runs a job only when it is due, once', async () => {
    const ran: unknown[] = [];
    const handlers = { probe: async (_d: unknown, payload: unknown) => void ran.push(payload) };
    await enqueueJob(db, { kind: 'probe', payload: { n: 1 }, runAt: new Date(s.clock.now().getTime() + HOUR) });
    expect(await runDueJobs(s.deps, handlers)).toBe(0);
    s.clock.advance(HOUR);
    expect(await runDueJobs(s.deps, handlers)).toBe(1);
    expect(await runDueJobs(s.deps, handlers)).toBe(0);
    expect(ran).toEqual([{ n: 1 }]);
  });

  it('retries a failed job later with backoff, keeping the error', async () => {
    let tries = 0;
    const handlers = {
      flaky: async () => {
        tries++;
        if (tries === 1) throw new Error('provider down');
      },
    };
    const id = await enqueueJob(db, { kind: 'flaky', runAt: s.clock.now() });
    expect(await runDueJobs(s.deps, handlers)).toBe(1);
    const [failed] = await db.select().from(jobs).where(eq(jobs.id, id));
    expect(failed!.doneAt).toBeNull();
    expect(failed!.lastError).toBe('provider down');
    expect(await runDueJobs(s.deps, handlers)).toBe(0);
    s.clock.advance(60_000);
    expect(await runDueJobs(s.deps, handlers)).toBe(1);
    const [done] = await db.select().from(jobs).where(eq(jobs.id, id));
    expect(done!.doneAt).not.toBeNull();
    expect(tries).toBe(2);
  });

  it('never hands one job to two claimers', async () => {
    for (let i = 0; i < 20; i++) await enqueueJob(db, { kind: 'race', runAt: s.clock.now() });
    const claims = await Promise.all(Array.from({ length: 5 }, () => claimDueJobs(db, s.clock, 20)));
    const ids = claims
      .flat()
      .filter((j) => j.kind === 'race')
      .map((j) => j.id);
    expect(ids.length).toBe(20);
    expect(new Set(ids).size).toBe(20);
    if (usePostgres) expect(claims.filter((c) => c.length > 0).length).toBeGreaterThanOrEqual(1);
  });

  it('gives a job whose worker died to another process after the lease', async () => {
    const id = await enqueueJob(db, { kind: 'lease', runAt: s.clock.now() });
    const first = await claimDueJobs(db, s.clock, 50);
    expect(first.map((j) => j.id)).toContain(id);
    expect((await claimDueJobs(db, s.clock, 50)).map((j) => j.id)).not.toContain(id);
    s.clock.advance(61_000);
    expect((await claimDueJobs(db, s.clock, 50)).map((j) => j.id)).toContain(id);
  });

  it('housekeeping removes spent rows, keeps what the caps still count, and schedules itself once; a start runs what is due at once', async () => {
    const now = s.clock.now();
    const old = new Date(now.getTime() - 3 * 24 * HOUR);
    await db.insert(smsCodes).values([
      { phone: '13800009999', codeHash: 'x', ip: '1', createdAt: old, expiresAt: old },
      { phone: '13800009999', codeHash: 'y', ip: '1', createdAt: now, expiresAt: now },
    ]);
    await db.insert(loginFailures).values([
      { phone: '13800009999', at: old },
      { phone: '13800009999', at: now },
    ]);
    // page views: kept 180 days (PAGE_VIEW_RETENTION_DAYS), then gone
    const day = 24 * HOUR;
    await db.insert(pageViews).values([
      { path: '/retention-old', accountId: null, at: new Date(now.getTime() - 181 * day) },
      { path: '/retention-kept', accountId: null, at: new Date(now.getTime() - 179 * day) },
    ]);
    // two processes start together: the housekeeping is scheduled once, and the first poll of one of
    // them runs it at once (it was due), which schedules the next
    const stop = await startJobRunner(s.deps, 3_600_000);
    const stop2 = await startJobRunner(s.deps, 3_600_000);
    await stop();
    await stop2();
    const rows = await db.select().from(jobs).where(eq(jobs.kind, HOUSEKEEPING_JOB));
    expect(rows.filter((j) => j.doneAt !== null).length, 'run at start, once').toBe(1);
    expect(rows.filter((j) => j.doneAt === null).length, 'the next one waiting').toBe(1);
    const codes = await db.select().from(smsCodes).where(eq(smsCodes.phone, '13800009999'));
    expect(codes.map((c) => c.codeHash)).toEqual(['y']);
    const fails = await db.select().from(loginFailures).where(eq(loginFailures.phone, '13800009999'));
    expect(fails.length).toBe(1);
    const views = await db.select({ path: pageViews.path }).from(pageViews);
    expect(views.map((v) => v.path).filter((p) => p.startsWith('/retention'))).toEqual(['/retention-kept']);
    // nothing else was due: a poll now runs nothing
    expect(await runDueJobs(s.deps)).toBe(0);
  });
});
