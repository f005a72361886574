import { and, count, desc, eq, gt, inArray, isNull, lt } from 'drizzle-orm';
import { BOOKING_OPEN_STATES } from '../../../../machines/domain/booking-transitions';
import { cardFactsOf, nextCardStatus } from '../../../../machines/domain/card-transitions';
import {
  daysBetween,
  freezeDatesRefusal,
  freezeEndsAt,
  MAX_FREEZE_DAYS,
  shiftValidity,
  unusedFreezeDays,
} from '../../../domain/card-rules';
import type { Clock } from '../../../domain/clock';
import { Errors } from '../../../domain/errors';
import { shanghaiDate, shanghaiMidnight } from '../../../domain/time';
import type { Db, Tx } from '../../db/client';
import { bookings, cardFreezes, classes } from '../../db/schema/index';
import { ApiError } from '../../http/api-error';
import { decide } from '../../db/transaction';
import { instant } from '../../db/instant';
import { classEndsAt } from '../booking/decide';
import { catchUpCard, lockMyCard, writeCard, type CardRow } from './my-card';
import { freezeStatusRefusal, statusRefusal } from './operations';
import { transferUnfinished } from './transfer-rules';

/** Whether the card has a seat or queue place for a class that touches the days from `from` to `until` (spec §8 "scheduled or ongoing bookings"). */
async function bookedDuring(tx: Tx, cardId: number, from: string, until: string): Promise<boolean> {
  const [row] = await tx
    .select({ n: count() })
    .from(bookings)
    .innerJoin(classes, eq(classes.id, bookings.classId))
    .where(
      and(
        eq(bookings.cardId, cardId),
        inArray(bookings.state, BOOKING_OPEN_STATES),
        lt(classes.startsAt, freezeEndsAt(until)),
        gt(classEndsAt, instant(shanghaiMidnight(from))),
      ),
    );
  return (row?.n ?? 0) > 0;
}

/**
 * Freezes one of my cards from `from` to `until` (Shanghai dates, both frozen; spec §5, decision 024).
 * From today: the card is frozen now. From a later day: the freeze is planned (the card stays in use
 * and books no class on those days) and the time-passing job starts it. Either way its validity end
 * moves later by the days asked for at once; an early unfreeze takes back the days not frozen.
 */
export async function freezeCard(
  db: Db,
  clock: Clock,
  accountId: number,
  input: { id: number; from: string; until: string },
): Promise<CardRow> {
  const now = clock.now();
  await catchUpCard(db, now, input.id);
  return decide(db, async (tx) => {
    const card = await lockMyCard(tx, now, accountId, input.id);
    const today = shanghaiDate(now);
    const event = input.from === today ? 'card.freeze' : 'card.planFreeze';
    const status = nextCardStatus(card.status, event, cardFactsOf(card));
    if (!status) throw new ApiError(Errors[freezeStatusRefusal(cardFactsOf(card))]);
    if (await transferUnfinished(tx, card.id)) throw new ApiError(Errors.cardApplicationPending);
    const why = freezeDatesRefusal(input, today, card.validUntil);
    if (why)
      throw new ApiError(Errors[why], {
        field: why === 'freezeStartPast' || why === 'freezeAfterValidity' ? 'from' : 'until',
        values: { days: MAX_FREEZE_DAYS },
      });
    if (await bookedDuring(tx, card.id, input.from, input.until)) throw new ApiError(Errors.cardBookingsDuringFreeze);
    const validUntil = shiftValidity(card.validUntil, daysBetween(input.from, input.until));
    const row = await writeCard(tx, card, { status, frozenFrom: input.from, frozenUntil: input.until, validUntil });
    // the freeze as decided, for the card's timeline (decision 034)
    await tx.insert(cardFreezes).values({
      cardId: card.id,
      fromDate: input.from,
      untilDate: input.until,
      validUntilBefore: card.validUntil,
      validUntilAfter: validUntil,
      createdAt: now,
    });
    return row;
  });
}

/**
 * Unfreezes one of my cards before its freeze ends, or calls off a planned freeze (decision 024): the
 * days not frozen (from today, or all of a planned freeze) are taken back from its validity end.
 */
export async function unfreezeCard(db: Db, clock: Clock, accountId: number, cardId: number): Promise<CardRow> {
  const now = clock.now();
  await catchUpCard(db, now, cardId);
  return decide(db, async (tx) => {
    const card = await lockMyCard(tx, now, accountId, cardId);
    const status = nextCardStatus(card.status, 'card.unfreeze', cardFactsOf(card));
    if (!status) throw new ApiError(Errors[card.status === 'in_use' ? 'cardNotFrozen' : statusRefusal(card.status)]);
    const unused =
      card.frozenFrom && card.frozenUntil ? unusedFreezeDays({ from: card.frozenFrom, until: card.frozenUntil }, shanghaiDate(now)) : 0;
    const validUntil = shiftValidity(card.validUntil, -unused);
    const row = await writeCard(tx, card, { status, frozenFrom: null, frozenUntil: null, validUntil });
    // the freeze it ends early (or calls off), for the card's timeline (decision 034)
    const [open] = await tx
      .select({ id: cardFreezes.id })
      .from(cardFreezes)
      .where(and(eq(cardFreezes.cardId, card.id), isNull(cardFreezes.unfrozenAt)))
      .orderBy(desc(cardFreezes.id))
      .limit(1);
    if (open) await tx.update(cardFreezes).set({ unfrozenAt: now, unfrozenValidUntil: validUntil }).where(eq(cardFreezes.id, open.id));
    return row;
  });
}
