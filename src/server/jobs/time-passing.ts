import { and, eq, isNotNull, lt, lte, not, type SQL } from 'drizzle-orm';
import { BOOKING_TIME_EVENTS, bookingTimeMoves, type BookingTimeEvent } from '../../../machines/domain/booking-transitions';
import { CARD_TIME_EVENTS, cardTimeMoves, type CardTimeEvent } from '../../../machines/domain/card-transitions';
import { shanghaiDate } from '../../domain/time';
import { couponExpiryMoves } from '../../../machines/domain/coupon-transitions';
import type { Db, Tx } from '../db/client';
import { bookings, classes, memberCards, memberCoupons } from '../db/schema/index';
import { instant } from '../db/instant';
import { classEndsAt } from '../services/booking/decide';
import { passScheduleTime } from '../services/schedule/teacher-schedule';

export const TIME_PASSING_JOB = 'time.passing';
/** How often the job runs: a state that time has passed is stored within this (and the runner's poll). */
export const TIME_PASSING_EVERY_MS = 60_000;

/**
 * States that pass with time are written, never computed on read (decision 018): this job applies
 * the charts' time events to every record whose time has come, on the injected clock. The moves
 * come from the charts (bookingTimeMoves, cardTimeMoves, couponExpiryMoves), so the job writes what the chart says;
 * what the API shows and what SQL filters count is then the one stored value.
 */

/** When each time event is due for a booking: its class has started, or has ended. */
const dueAt = (event: BookingTimeEvent, now: Date): SQL =>
  event === 'class.start' ? lte(classes.startsAt, now) : lte(classEndsAt, instant(now));

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
        .where(
          and(eq(classes.id, bookings.classId), eq(bookings.state, m.from), eq(bookings.promoted, m.promoted), dueAt(event, now), only),
        )
        .returning({ id: bookings.id });
      moved += rows.length;
    }
  }
  return moved;
}

/** A card with a freeze planned, as the chart's facts say it (cardFactsOf): in use, with freeze dates. */
const freezePlanned = and(eq(memberCards.status, 'in_use'), isNotNull(memberCards.frozenFrom))!;

/** When each time event is due for a card: its planned freeze's first day has come, its freeze's last day has passed, its validity has ended. */
function cardDue(event: CardTimeEvent, now: Date): SQL {
  const today = shanghaiDate(now);
  if (event === 'card.freezeStarts') return lte(memberCards.frozenFrom, today);
  if (event === 'card.freezeEnds') return lt(memberCards.frozenUntil, today);
  return lte(memberCards.validUntil, now);
}

/**
 * Moves cards on by the clock as the card chart says (decisions 018, 024): a planned freeze starts on
 * its first day, a freeze ends after its last (its dates are cleared), a card in use expires at its
 * validity end (a frozen one waits), in that order. `only` narrows it to some cards: a decision on one
 * card first brings it up to date the same way. Returns the cards moved.
 */
export async function passCardTime(db: Db | Tx, now: Date, only?: SQL): Promise<number> {
  let moved = 0;
  for (const event of CARD_TIME_EVENTS) {
    for (const m of cardTimeMoves(event)) {
      const rows = await db
        .update(memberCards)
        .set({ status: m.to, ...(event === 'card.freezeEnds' ? { frozenFrom: null, frozenUntil: null } : {}) })
        .where(and(eq(memberCards.status, m.from), m.freezePlanned ? freezePlanned : not(freezePlanned), cardDue(event, now), only))
        .returning({ id: memberCards.id });
      moved += rows.length;
    }
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
export async function passTime(db: Db, now: Date): Promise<{ bookings: number; cards: number; coupons: number; schedules: number }> {
  return db.transaction(async (tx) => ({
    bookings: await passBookingTime(tx, now),
    cards: await passCardTime(tx, now),
    coupons: await passCouponTime(tx, now),
    // a class still waiting for its teacher at its confirmation deadline (decision 029)
    schedules: await passScheduleTime(tx, now),
  }));
}
