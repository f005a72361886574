import { ne, sql, type SQL } from 'drizzle-orm';
import { BOOKING_SEAT_STATES } from '../../../machines/domain/booking-transitions';
import type { Db, Tx } from './client';
import { bookings, classes } from './schema/index';

/** A class's seats as its bookings hold them (the chart's `seat` states), for `classes.booked_count`. */
export function seatCountSql(): SQL<number> {
  // spelled with table names: drizzle leaves a column unqualified inside a select list, where "id" would be the booking's
  const states = sql.join(
    BOOKING_SEAT_STATES.map((state) => sql`${state}`),
    sql`, `,
  );
  return sql<number>`(select count(*)::int from ${bookings} where ${bookings}.class_id = ${classes}.id and ${bookings}.state in (${states}))`;
}

/**
 * The classes whose stored booked count differs from the seats their bookings hold (the
 * seed once left 71 of them). The seed checks it after seeding; the crash and race tests after load.
 */
export async function seatCountsThatDisagree(db: Db | Tx): Promise<Array<{ classId: number; bookedCount: number; seats: number }>> {
  const seats = seatCountSql();
  const rows = await db
    .select({ classId: classes.id, bookedCount: classes.bookedCount, seats })
    .from(classes)
    .where(ne(classes.bookedCount, seats));
  return rows.map((r) => ({ ...r, seats: Number(r.seats) }));
}
