import { and, isNotNull, lt, or } from 'drizzle-orm';
import type { Clock } from '../../domain/clock';
import type { Db } from '../db/client';
import {
  devCaptchaTickets,
  devSmsOutbox,
  idempotencyKeys,
  jobs,
  loginFailures,
  oauthStates,
  pageViews,
  rateHits,
  openIdTickets,
  resetTickets,
  sessions,
  smsCodes,
  wechatStandInCodes,
} from '../db/schema/index';
import { IDEMPOTENCY_TTL_MS } from '../http/idempotency';

export const HOUSEKEEPING_JOB = 'housekeeping';
export const HOUSEKEEPING_EVERY_MS = 60 * 60_000;
const DAY = 24 * 60 * 60_000;

/**
 * Deletes rows whose purpose has passed: codes and failures beyond the longest cap window (a day,
 * kept two), spent tickets and states, idempotency keys past 24 h, long-dead sessions, finished jobs,
 * and page views past their retention (`pageViewDays`: personal data is kept no longer than its use).
 * Returns how many rows each table lost.
 */
export async function housekeeping(db: Db, clock: Clock, retention: { pageViewDays: number }): Promise<Record<string, number>> {
  const now = clock.now().getTime();
  const before = (ms: number) => new Date(now - ms);
  const count = async (p: Promise<unknown[]>) => (await p).length;
  return {
    smsCodes: await count(
      db
        .delete(smsCodes)
        .where(lt(smsCodes.createdAt, before(2 * DAY)))
        .returning({ id: smsCodes.id }),
    ),
    loginFailures: await count(
      db
        .delete(loginFailures)
        .where(lt(loginFailures.at, before(2 * DAY)))
        .returning({ id: loginFailures.id }),
    ),
    resetTickets: await count(
      db
        .delete(resetTickets)
        .where(lt(resetTickets.expiresAt, before(DAY)))
        .returning({ id: resetTickets.id }),
    ),
    openIdTickets: await count(
      db
        .delete(openIdTickets)
        .where(lt(openIdTickets.expiresAt, before(DAY)))
        .returning({ id: openIdTickets.id }),
    ),
    oauthStates: await count(
      db
        .delete(oauthStates)
        .where(lt(oauthStates.expiresAt, before(DAY)))
        .returning({ id: oauthStates.id }),
    ),
    wechatStandInCodes: await count(
      db
        .delete(wechatStandInCodes)
        .where(lt(wechatStandInCodes.expiresAt, before(DAY)))
        .returning({ code: wechatStandInCodes.code }),
    ),
    devCaptchaTickets: await count(
      db
        .delete(devCaptchaTickets)
        .where(lt(devCaptchaTickets.createdAt, before(DAY)))
        .returning({ id: devCaptchaTickets.id }),
    ),
    pageViews: await count(
      db
        .delete(pageViews)
        .where(lt(pageViews.at, before(retention.pageViewDays * DAY)))
        .returning({ id: pageViews.id }),
    ),
    devSmsOutbox: await count(
      db
        .delete(devSmsOutbox)
        .where(lt(devSmsOutbox.createdAt, before(2 * DAY)))
        .returning({ id: devSmsOutbox.id }),
    ),
    idempotencyKeys: await count(
      db
        .delete(idempotencyKeys)
        .where(lt(idempotencyKeys.createdAt, before(IDEMPOTENCY_TTL_MS)))
        .returning({ id: idempotencyKeys.id }),
    ),
    sessions: await count(
      db
        .delete(sessions)
        .where(or(lt(sessions.expiresAt, before(7 * DAY)), and(isNotNull(sessions.revokedAt), lt(sessions.revokedAt, before(7 * DAY)))))
        .returning({ id: sessions.id }),
    ),
    rateHits: await count(
      db
        .delete(rateHits)
        .where(lt(rateHits.windowStart, before(DAY)))
        .returning({ key: rateHits.key }),
    ),
    jobs: await count(
      db
        .delete(jobs)
        .where(and(isNotNull(jobs.doneAt), lt(jobs.doneAt, before(7 * DAY))))
        .returning({ id: jobs.id }),
    ),
  };
}
