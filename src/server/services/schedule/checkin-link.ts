import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, asc, eq, gt } from 'drizzle-orm';
import { classEnd } from '../../../domain/booking-rules';
import { CHECKIN_OPENS_BEFORE_MS } from '../../../domain/checkin-rules';
import type { Db } from '../../db/client';
import { classes, clubs } from '../../db/schema/index';
import type { Locale } from '../../i18n';
import { instant } from '../../db/instant';
import { classEndsAt } from '../booking/decide';
import { loc } from '../catalog';
import { teacherOfAccount } from './teacher-schedule';

/**
 * The teacher's check-in QR (decision 029): a short-lived link to /signed for the teacher's
 * current or next class. The link's code is `<expiry ms>.<signature>`, the signature an HMAC of the
 * class id and the expiry keyed by the class's own random check-in code (which only its teacher and
 * staff can read), so no other secret is needed and a photo of the QR stops working when it expires.
 * The check-in service accepts it beside the class's plain code (the front desk's).
 */

/** How long one QR works; the screen renews it every minute, so a shown code always has a minute left. */
export const CHECKIN_LINK_TTL_MS = 2 * 60_000;
const SIGNED = /^(\d{13})\.([0-9a-f]{16})$/;

const signature = (classId: number, key: string, exp: number) =>
  createHmac('sha256', key).update(`${classId}.${exp}`).digest('hex').slice(0, 16);

/** The signed code of a class's link, valid until `exp` (ms). */
export const signedCode = (classId: number, key: string, exp: number): string => `${exp}.${signature(classId, key, exp)}`;

/** What a scanned code is for this class: its plain code or a signed code still valid; a signed code past its time; or neither. */
export function checkinCodeVerdict(cls: { id: number; checkinCode: string }, code: string, now: Date): 'ok' | 'expired' | 'wrong' {
  if (code === cls.checkinCode) return 'ok';
  const m = SIGNED.exec(code);
  if (!m) return 'wrong';
  const exp = Number(m[1]);
  const want = Buffer.from(signature(cls.id, cls.checkinCode, exp));
  if (!timingSafeEqual(want, Buffer.from(m[2]!))) return 'wrong';
  if (exp - now.getTime() > CHECKIN_LINK_TTL_MS) return 'wrong';
  return exp > now.getTime() ? 'ok' : 'expired';
}

/** The teacher's current or next class (not ended, open), with a link valid for the next two minutes; null when none is scheduled. */
export async function teacherCheckinLink(db: Db, now: Date, accountId: number, publicUrl: string, locale: Locale) {
  const t = await teacherOfAccount(db, accountId);
  const [r] = await db
    .select({ c: classes, clubName: clubs.name, clubNameEn: clubs.nameEn })
    .from(classes)
    .leftJoin(clubs, eq(clubs.id, classes.clubId))
    .where(and(eq(classes.teacherId, t.id), eq(classes.status, 'open'), gt(classEndsAt, instant(now))))
    .orderBy(asc(classes.startsAt), asc(classes.id))
    .limit(1);
  if (!r) return { class: null, url: null, expiresAt: null };
  const c = r.c;
  const exp = now.getTime() + CHECKIN_LINK_TTL_MS;
  return {
    class: {
      id: c.id,
      title: loc(locale, c.title, c.titleEn),
      clubName: r.clubName === null ? '' : loc(locale, r.clubName, r.clubNameEn),
      room: loc(locale, c.room, c.roomEn),
      startsAt: c.startsAt.toISOString(),
      endsAt: classEnd(c).toISOString(),
      opensAt: new Date(c.startsAt.getTime() - CHECKIN_OPENS_BEFORE_MS).toISOString(),
    },
    url: `${publicUrl}/signed?classId=${c.id}&code=${signedCode(c.id, c.checkinCode, exp)}`,
    expiresAt: new Date(exp).toISOString(),
  };
}
