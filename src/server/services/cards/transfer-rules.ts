import { and, asc, count, eq, gt, inArray, ne } from 'drizzle-orm';
import { BOOKING_OPEN_STATES } from '../../../../machines/domain/booking-transitions';
import { cardFactsOf, nextCardStatus } from '../../../../machines/domain/card-transitions';
import { OPEN_CARD_REFUND_STATES } from '../../../../machines/domain/card-refund-transitions';
import { OPEN_TRANSFER_STATES } from '../../../../machines/domain/card-transfer-application-transitions';
import { TRANSFER_GROUP_WINDOW_DAYS } from '../../../domain/card-transfer';
import { Errors, type ErrorName } from '../../../domain/errors';
import { daysAfter } from '../../../domain/time';
import { isValidPhone } from '../../../domain/validation';
import type { Db, Tx } from '../../db/client';
import { accounts, bookings, cardRefunds, cardTransfers, classes, clubs } from '../../db/schema/index';
import { ApiError } from '../../http/api-error';
import { instant } from '../../db/instant';
import { classEndsAt } from '../booking/decide';
import type { CardRow } from './my-card';
import { familyShareCount } from './holders';
import { statusRefusal } from './operations';

/** Why a card cannot be transferred now, with the values its message names (the club's phone). */
export interface TransferRefusal {
  why: ErrorName;
  values?: Record<string, string>;
}

/** The phone line a member is told to call about a group-buy card: its club's, else the chain's first club. */
async function clubPhone(db: Db | Tx, clubId: number | null): Promise<string> {
  const q = db.select({ phone: clubs.phone }).from(clubs);
  const [row] = clubId === null ? await q.orderBy(asc(clubs.sort), asc(clubs.id)).limit(1) : await q.where(eq(clubs.id, clubId));
  return row?.phone ?? '';
}

/**
 * Spec §5's transfer rules on one card, in the order a member would fix them (decision 026): once per
 * card (received by transfer), the card's status by the chart, a freeze planned, a shared (family) card, a group-buy
 * card within its period or the 3 days after, an unfinished application (other than `except`, the one
 * being approved), and bookings still ahead or running on the card. Null when the card may be
 * transferred now.
 */
export async function transferRefusal(db: Db | Tx, card: CardRow, now: Date, except?: number): Promise<TransferRefusal | null> {
  const facts = cardFactsOf(card);
  if (!nextCardStatus(card.status, 'card.transfer', facts)) {
    // the chart's guards: received by transfer (once per card), a freeze planned (decision 024: called off first); else the status
    const plain = nextCardStatus(card.status, 'card.transfer', { receivedByTransfer: false, freezePlanned: false }) !== null;
    return { why: !plain ? statusRefusal(card.status) : facts.receivedByTransfer ? 'transferOnlyOnce' : 'freezePlanned' };
  }
  // spec §5 "shared main card not transferable": a family main card while it has sub-card holders (decision 040), a family sub card never
  if (card.cardType === 'family-sub' || (await familyShareCount(db, card.id)) > 0) return { why: 'sharedMainCardNotTransferable' };
  if (card.groupEndsAt) {
    if (now < card.groupEndsAt) return { why: 'groupPurchaseNotOver', values: { phone: await clubPhone(db, card.clubId) } };
    if (now.getTime() < daysAfter(card.groupEndsAt, TRANSFER_GROUP_WINDOW_DAYS).getTime())
      return { why: 'transferWindow', values: { phone: await clubPhone(db, card.clubId) } };
  }
  const [open] = await db
    .select({ n: count() })
    .from(cardTransfers)
    .where(
      and(
        eq(cardTransfers.cardId, card.id),
        inArray(cardTransfers.state, OPEN_TRANSFER_STATES),
        except === undefined ? undefined : ne(cardTransfers.id, except),
      ),
    );
  if ((open?.n ?? 0) > 0 || (await refundUnfinished(db, card.id))) return { why: 'cardApplicationPending' };
  const [ahead] = await db
    .select({ n: count() })
    .from(bookings)
    .innerJoin(classes, eq(classes.id, bookings.classId))
    .where(and(eq(bookings.cardId, card.id), inArray(bookings.state, BOOKING_OPEN_STATES), gt(classEndsAt, instant(now))));
  if ((ahead?.n ?? 0) > 0) return { why: 'transferBookingsAhead' };
  return null;
}

/** Whether the card has an application not yet decided, a transfer or a refund (spec §8 "unfinished application": the card is not frozen or extended meanwhile). */
export async function transferUnfinished(db: Db | Tx, cardId: number): Promise<boolean> {
  return (await transferOpen(db, cardId)) || (await refundUnfinished(db, cardId));
}

/** Whether the card has a transfer application not yet decided. */
export async function transferOpen(db: Db | Tx, cardId: number): Promise<boolean> {
  const [open] = await db
    .select({ n: count() })
    .from(cardTransfers)
    .where(and(eq(cardTransfers.cardId, cardId), inArray(cardTransfers.state, OPEN_TRANSFER_STATES)));
  return (open?.n ?? 0) > 0;
}

/** Whether the card has a refund request not yet decided (decision 030: an unfinished application, as a transfer's). */
export async function refundUnfinished(db: Db | Tx, cardId: number, except?: number): Promise<boolean> {
  const [open] = await db
    .select({ n: count() })
    .from(cardRefunds)
    .where(
      and(
        eq(cardRefunds.cardId, cardId),
        inArray(cardRefunds.state, OPEN_CARD_REFUND_STATES),
        except === undefined ? undefined : ne(cardRefunds.id, except),
      ),
    );
  return (open?.n ?? 0) > 0;
}

/** Whether the card has a booking or queue place for a class not yet over (spec §8 "scheduled or ongoing bookings"). */
export async function bookingsAhead(db: Db | Tx, cardId: number, now: Date): Promise<boolean> {
  const [ahead] = await db
    .select({ n: count() })
    .from(bookings)
    .innerJoin(classes, eq(classes.id, bookings.classId))
    .where(and(eq(bookings.cardId, cardId), inArray(bookings.state, BOOKING_OPEN_STATES), gt(classEndsAt, instant(now))));
  return (ahead?.n ?? 0) > 0;
}

/** Throws the refusal as the API answers it. */
export function refuseTransfer(r: TransferRefusal): never {
  throw new ApiError(Errors[r.why], r.values ? { values: r.values } : {});
}

/**
 * The member a phone belongs to, when it is a member who may receive a card (not banned); else
 * undefined. A phone that is not a mainland mobile number at all is refused first (10010 naming phone),
 * so a typo is told as a typo rather than as "no such member".
 */
export async function recipientByPhone(db: Db | Tx, phone: string) {
  if (!isValidPhone(phone)) throw new ApiError(Errors.invalidPhone, { field: 'phone' });
  const [row] = await db
    .select({ id: accounts.id, name: accounts.name, phone: accounts.phone })
    .from(accounts)
    .where(and(eq(accounts.phone, phone.trim()), eq(accounts.role, 'member'), eq(accounts.banned, false)));
  return row;
}
