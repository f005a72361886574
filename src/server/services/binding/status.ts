import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Clock } from '../../../domain/clock';
import { Errors } from '../../../domain/errors';
import type { Db } from '../../db/client';
import { accounts, openIdBindings, openIdTickets, teachers } from '../../db/schema/index';
import type { Caller } from '../../env';
import { ApiError } from '../../http/api-error';
import type { Logger } from '../../logger';
import { hashSecret } from '../auth-tokens';
import { teacherRequestByKey } from './requests';
import type { BindStatus } from '../../../contracts/binding';
import type { Locale } from '../../i18n';
import { loc } from '../catalog';

/**
 * GET /bind/status, what /bindPage shows: whether the silent login left an open id here, the
 * logged-in teacher's or staff member's binding, and the new-teacher request this browser sent.
 * The lookup failing (the database unreachable) is spec §8's "query failed" (60009, 503), which the
 * app answers with a retry, never a 500.
 */
export async function bindStatus(
  deps: { db: Db; clock: Clock; log: Logger },
  caller: Caller | undefined,
  ticket: string | undefined,
  key: string | undefined,
  locale: Locale = 'zh',
): Promise<BindStatus> {
  const { db, clock } = deps;
  try {
    const t = ticket?.trim();
    const live = t
      ? await db
          .select({ id: openIdTickets.id })
          .from(openIdTickets)
          .where(
            and(
              eq(openIdTickets.ticketHash, hashSecret(t)),
              eq(openIdTickets.scope, 'base'),
              isNull(openIdTickets.usedAt),
              gt(openIdTickets.expiresAt, clock.now()),
            ),
          )
          .limit(1)
      : [];
    let binding: BindStatus['binding'] = null;
    if (caller && caller.role !== 'member') {
      const [b] = await db
        .select({
          since: openIdBindings.createdAt,
          name: accounts.name,
          teacherId: teachers.id,
          teacherName: teachers.name,
          teacherNameEn: teachers.nameEn,
        })
        .from(openIdBindings)
        .innerJoin(accounts, eq(accounts.id, openIdBindings.accountId))
        .leftJoin(teachers, eq(teachers.accountId, accounts.id))
        .where(eq(openIdBindings.accountId, caller.accountId))
        .limit(1);
      // a teacher is named as the catalogue names them, in English where it has an English name
      const name = b && b.teacherName !== null ? loc(locale, b.teacherName, b.teacherNameEn) : (b?.name ?? null);
      if (b) binding = { role: caller.role as 'teacher' | 'staff', name, teacherId: b.teacherId, since: b.since.toISOString() };
    }
    return { openIdPresent: live.length > 0, binding, request: await teacherRequestByKey(db, key) };
  } catch (err) {
    deps.log.error('binding lookup failed', { error: err instanceof Error ? err.message : String(err) });
    throw new ApiError(Errors.bindQueryFailed);
  }
}
