import { and, count, eq } from 'drizzle-orm';
import type { Clock } from '../../../domain/clock';
import { Errors } from '../../../domain/errors';
import type { ActivityDetail } from '../../../contracts/catalog';
import type { Db, Tx } from '../../db/client';
import { activities, activitySignups } from '../../db/schema/index';
import type { Locale } from '../../i18n';
import { ApiError } from '../../http/api-error';
import { decide } from '../../db/transaction';
import { activityOut, loc } from '../catalog';

type ActivityRow = typeof activities.$inferSelect;

const takenOf = async (db: Db | Tx, activityId: number): Promise<number> =>
  (await db.select({ n: count() }).from(activitySignups).where(eq(activitySignups.activityId, activityId)))[0]?.n ?? 0;

/** Why the member cannot sign up now, or null (the order a member would read them: no sign-up, over, mine already, full). */
function refusalOf(a: ActivityRow, now: Date, taken: number, mine: boolean): keyof typeof Errors | null {
  if (a.places === null) return 'activityNoSignup';
  if (a.endsAt.getTime() <= now.getTime()) return 'activityClosed';
  if (mine) return 'activityAlreadySigned';
  if (taken >= a.places) return 'activityFull';
  return null;
}

/** One activity with its full text and, when it takes sign-ups, its places left and whether I have one (decision 033). */
export async function activityDetail(db: Db, now: Date, id: number, locale: Locale, accountId?: number): Promise<ActivityDetail> {
  const [a] = await db.select().from(activities).where(eq(activities.id, id));
  if (!a) throw new ApiError(Errors.notFound);
  const taken = a.places === null ? 0 : await takenOf(db, a.id);
  const [mine] =
    accountId === undefined
      ? []
      : await db
          .select({ id: activitySignups.id })
          .from(activitySignups)
          .where(and(eq(activitySignups.activityId, id), eq(activitySignups.accountId, accountId)));
  const why = refusalOf(a, now, taken, mine !== undefined);
  return {
    ...activityOut(a, locale),
    body: loc(locale, a.body, a.bodyEn),
    placesLeft: a.places === null ? null : Math.max(0, a.places - taken),
    signedUp: mine !== undefined,
    signup: a.places === null ? null : { allowed: why === null, code: why === null ? null : Errors[why].code },
  };
}

/**
 * Signs the member up to an activity that takes sign-ups (decision 033): places counted like class
 * seats (decision 006), the activity row locked while they are counted, so the last place goes to one
 * member and never more than `places` sign up. Refusals: 70150 no sign-up, 70153 over, 70152 already
 * signed up, 70151 full; an unknown activity 404.
 */
export async function signUp(db: Db, clock: Clock, accountId: number, activityId: number): Promise<void> {
  await decide(db, async (tx) => {
    const [a] = await tx.select().from(activities).where(eq(activities.id, activityId)).for('update');
    if (!a) throw new ApiError(Errors.notFound, { field: 'id' });
    const [mine] = await tx
      .select({ id: activitySignups.id })
      .from(activitySignups)
      .where(and(eq(activitySignups.activityId, a.id), eq(activitySignups.accountId, accountId)));
    const why = refusalOf(a, clock.now(), await takenOf(tx, a.id), mine !== undefined);
    if (why) throw new ApiError(Errors[why]);
    await tx.insert(activitySignups).values({ activityId: a.id, accountId, createdAt: clock.now() });
  });
}
