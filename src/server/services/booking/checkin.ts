import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { BOOKING_SEAT_STATES, nextBookingState } from '../../../../machines/domain/booking-transitions';
import { checkinRefusal, usesOwed } from '../../../domain/checkin-rules';
import type { Clock } from '../../../domain/clock';
import { Errors } from '../../../domain/errors';
import type { Db, Tx } from '../../db/client';
import { bookings, classes, memberCards } from '../../db/schema/index';
import { ApiError } from '../../http/api-error';
import type { Audit } from '../staff-audit/audit-log';
import { passBookingTime } from '../../jobs/time-passing';
import { checkinCodeVerdict } from '../schedule/checkin-link';
import { decide } from '../../db/transaction';

export interface CheckinResult {
  bookingId: number;
  classId: number;
  state: 'checked_in';
  checkedInAt: string;
  /** uses the door took (a seat that had not paid its class yet) */
  usesSpent: number;
}

type BookingRow = typeof bookings.$inferSelect;
type ClassRow = typeof classes.$inferSelect;

/** Who checks a seat in: the member scanning the class's code, or staff marking a booking. */
export type CheckinBy =
  | { kind: 'member'; accountId: number; classId: number; code: string }
  | { kind: 'staff'; accountId: number; bookingId: number };

/**
 * Checks a seat in (decision 007), in one transaction: class row, then the booking, then its card,
 * locked in the order every booking decision uses (decision 006). The booking chart accepts
 * `booking.checkin` only from booked. The seat is first brought up to date by the time-passing job's own
 * step (decision 018: a seat whose class has ended is written not checked in), so a check-in never
 * acts on a state time has passed; the clock then says whether check-in has opened. A seat that has
 * not paid its class yet (a count card) pays it now.
 */
export async function checkIn(db: Db, clock: Clock, by: CheckinBy, audit?: Audit): Promise<CheckinResult> {
  return decide(db, async (tx) => {
    const now = clock.now();
    const found = by.kind === 'member' ? await memberSeat(tx, by, now) : await staffSeat(tx, by.bookingId);
    const { cls } = found;
    let { seat } = found;
    if (seat && (await passBookingTime(tx, now, eq(bookings.id, seat.id))) > 0)
      [seat] = await tx.select().from(bookings).where(eq(bookings.id, seat.id));
    const why = checkinRefusal(seat?.state ?? null, cls.startsAt, now);
    if (why) throw new ApiError(Errors[why]);
    const next = nextBookingState(seat!.state, 'booking.checkin', { promoted: seat!.promoted });
    if (next !== 'checked_in') throw new ApiError(Errors.bookingFailed);

    const [card] = await tx.select().from(memberCards).where(eq(memberCards.id, seat!.cardId)).for('update');
    const owed = card ? usesOwed(card, cls.usesCost, seat!.usesSpent) : 0;
    if (owed > 0) {
      if ((card!.usesLeft ?? 0) < owed) throw new ApiError(Errors.checkinNoUses);
      await tx
        .update(memberCards)
        .set({ usesLeft: sql`${memberCards.usesLeft} - ${owed}` })
        .where(eq(memberCards.id, card!.id));
    }
    const [done] = await tx
      .update(bookings)
      .set({ state: next, checkedInAt: now, checkedInBy: by.accountId, usesSpent: seat!.usesSpent + owed })
      .where(and(eq(bookings.id, seat!.id), eq(bookings.state, 'booked')))
      .returning({ id: bookings.id });
    if (!done) throw new ApiError(Errors.checkinAlready);
    await audit?.(tx, { action: 'booking.checkin', subjectKind: 'booking', subjectId: done.id });
    return { bookingId: seat!.id, classId: cls.id, state: 'checked_in', checkedInAt: now.toISOString(), usesSpent: owed };
  });
}

/** The member's seat in the class whose code they scanned; a wrong code says nothing about seats. */
async function memberSeat(
  tx: Tx,
  by: Extract<CheckinBy, { kind: 'member' }>,
  now: Date,
): Promise<{ cls: ClassRow; seat: BookingRow | undefined }> {
  const [cls] = await tx.select().from(classes).where(eq(classes.id, by.classId)).for('update');
  // the class's plain code (front desk) or the teacher's QR link, signed and short-lived (decision 029)
  const verdict = cls ? checkinCodeVerdict(cls, by.code, now) : 'wrong';
  if (verdict === 'expired') throw new ApiError(Errors.checkinLinkExpired, { field: 'code' });
  if (!cls || verdict === 'wrong') throw new ApiError(Errors.checkinCodeWrong, { field: 'code' });
  const [seat] = await tx
    .select()
    .from(bookings)
    .where(and(eq(bookings.classId, cls.id), eq(bookings.accountId, by.accountId), inArray(bookings.state, BOOKING_SEAT_STATES)))
    .orderBy(desc(bookings.id))
    .limit(1)
    .for('update');
  return { cls, seat };
}

/** A booking staff mark: any member's (the front desk checks people in by name). */
async function staffSeat(tx: Tx, bookingId: number): Promise<{ cls: ClassRow; seat: BookingRow }> {
  const [head] = await tx.select({ classId: bookings.classId }).from(bookings).where(eq(bookings.id, bookingId));
  if (!head) throw new ApiError(Errors.notFound, { field: 'bookingId' });
  const [cls] = await tx.select().from(classes).where(eq(classes.id, head.classId)).for('update');
  const [seat] = await tx.select().from(bookings).where(eq(bookings.id, bookingId)).for('update');
  return { cls: cls!, seat: seat! };
}
