import { and, eq, lte, type SQL } from 'drizzle-orm';
import { BOOKING_TIME_EVENTS, bookingTimeMoves, type BookingTimeEvent } from '../../../machines/domain/booking-transitions';
import { cardExpiryMoves } from '../../../machines/domain/card-transitions';
import { couponExpiryMoves } from '../../../machines/domain/coupon-transitions';
import type { Db, Tx } from '../db/client';
import { bookings, classes, memberCards, memberCoupons } from '../db/schema/index';
import { classEndsAt, instant } from '../services/booking/decide';

export const TIME_PASSING_JOB = 'time.passing';
/** How often the job runs: a state that time has passed is stored within this (and the runner's poll). */
export const TIME_PASSING_EVERY_MS = 60_000;

/**
 * States that pass with time are written, never computed on read (decision 018): this job applies
 * the charts' time events to every record whose time has come, on the injected clock. The moves
 * come from the charts (bookingTimeMoves, cardExpiryMoves, couponExpiryMoves), so the job writes what the chart says;
 * what the API shows and what SQL filters count is then the one stored value.
 */

/** When each time event is due for a booking: its class has started, or has ended. */
const dueAt = (event: BookingTimeEvent, now: Date): SQL => (event === 'class.start' ? lte(classes.startsAt, now) : lte(classEndsAt, instant(now)));

/**
 * Moves bookings on by the clock (a queue entry expires at its class's start; a seat not checked in
 * ends so at its class's end), the start before the end. `only` narrows it to some bookings: a
 * decision on one booking first brings it up to date the same way. Returns the bookings moved.
 */
export async function passBookingTime(db: Db | Tx, now: Date, only?: SQL): Promise<number> {
  let moved = 0;
  for (const event of BOOKING_TIME_EVENTS) {
    for (const m of bookingTimeMoves(event)) {
      const rows = await db
        .update(bookings)
        .set({ state: m.to })
        .from(classes)
        .where(and(eq(classes.id, bookings.classId), eq(bookings.state, m.from), eq(bookings.promoted, m.promoted), dueAt(event, now), only))
        .returning({ id: bookings.id });
      moved += rows.length;
    }
  }
  return moved;
}

/** Expires the cards whose validity has ended, as the card chart says (in use expires; frozen waits). */
export async function passCardTime(db: Db | Tx, now: Date, only?: SQL): Promise<number> {
  let moved = 0;
  for (const m of cardExpiryMoves()) {
    const rows = await db
      .update(memberCards)
      .set({ status: m.to })
      .where(and(eq(memberCards.status, m.from), lte(memberCards.validUntil, now), only))
      .returning({ id: memberCards.id });
    moved += rows.length;
  }
  return moved;
}

/** Expires the coupons whose validity has ended, as the coupon chart says (unused expires; used waits for its order). */
export async function passCouponTime(db: Db | Tx, now: Date, only?: SQL): Promise<number> {
  let moved = 0;
  for (const m of couponExpiryMoves()) {
    const rows = await db
      .update(memberCoupons)
      .set({ state: m.to })
      .where(and(eq(memberCoupons.state, m.from), lte(memberCoupons.validUntil, now), only))
      .returning({ id: memberCoupons.id });
    moved += rows.length;
  }
  return moved;
}

/** The job: everything time has passed, written; returns how many records each kind moved. */
export async function passTime(db: Db, now: Date): Promise<{ bookings: number; cards: number; coupons: number }> {
  return db.transaction(async (tx) => ({ bookings: await passBookingTime(tx, now), cards: await passCardTime(tx, now), coupons: await passCouponTime(tx, now) }));
}
