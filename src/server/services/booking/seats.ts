import { and, asc, eq, gt, lt } from 'drizzle-orm';
import { LONGEST_CLASS_MS } from '../../../domain/booking-rules';
import type { Db, Tx } from '../../db/client';
import { bookings, classes } from '../../db/schema/index';

/** A member's booked seat, with its class's time: what a clash is looked for among (`clashOf`). */
export interface BookedSeat {
  bookingId: number;
  classId: number;
  title: string;
  titleEn: string | null;
  startsAt: Date;
  durationMin: number;
}

/**
 * The member's booked seats in classes that may overlap `from`..`to` (starting before `to`, and less
 * than the longest class before `from`), by start. The schedule's clash marks and the booking's
 * refusal read the same seats and ask the same rule.
 */
export async function bookedSeatsNear(db: Db | Tx, accountId: number, from: Date, to: Date): Promise<BookedSeat[]> {
  return db
    .select({
      bookingId: bookings.id,
      classId: classes.id,
      title: classes.title,
      titleEn: classes.titleEn,
      startsAt: classes.startsAt,
      durationMin: classes.durationMin,
    })
    .from(bookings)
    .innerJoin(classes, eq(classes.id, bookings.classId))
    .where(
      and(
        eq(bookings.accountId, accountId),
        eq(bookings.state, 'booked'),
        lt(classes.startsAt, to),
        gt(classes.startsAt, new Date(from.getTime() - LONGEST_CLASS_MS)),
      ),
    )
    .orderBy(asc(classes.startsAt));
}
