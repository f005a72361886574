import { and, asc, count, eq, gt, inArray, isNull } from 'drizzle-orm';
import { BOOKING_OPEN_STATES } from '../../../../machines/domain/booking-transitions';
import { cardShareable } from '../../../../machines/domain/card-transitions';
import type { CardFamily } from '../../../contracts/cards';
import type { Clock } from '../../../domain/clock';
import { shownNames } from '../person/shown-name';
import { Errors } from '../../../domain/errors';
import type { Db, Tx } from '../../db/client';
import { accounts, bookings, cardFamilyMembers, cardTypeRules, classes, memberCards, notifications } from '../../db/schema/index';
import { ApiError } from '../../http/api-error';
import { decide } from '../../db/transaction';
import { instant } from '../../db/instant';
import { classEndsAt } from '../booking/decide';
import { catchUpCard, lockMyCard, refuseNotMine, type CardRow } from './my-card';
import { statusRefusal } from './operations';
import { maskPhone } from './transfer';
import { recipientByPhone, transferUnfinished } from './transfer-rules';

/** How many sub-card holders a card of this type shares with (card_type_rules.family_slots; 0: not a family main card). */
export async function familySlotsOf(db: Db | Tx, cardType: string): Promise<number> {
  const [rule] = await db
    .select({ slots: cardTypeRules.familySlots })
    .from(cardTypeRules)
    .where(eq(cardTypeRules.cardType, cardType as CardRow['cardType']));
  return rule?.slots ?? 0;
}

/** The live sub-card holders of a card, oldest first. */
async function liveSubs(db: Db | Tx, cardId: number) {
  return db
    .select({
      id: cardFamilyMembers.id,
      accountId: cardFamilyMembers.accountId,
      createdAt: cardFamilyMembers.createdAt,
      name: accounts.name,
      phone: accounts.phone,
    })
    .from(cardFamilyMembers)
    .innerJoin(accounts, eq(accounts.id, cardFamilyMembers.accountId))
    .where(and(eq(cardFamilyMembers.cardId, cardId), isNull(cardFamilyMembers.removedAt)))
    .orderBy(asc(cardFamilyMembers.id));
}

/** A family main card's sharing as its holder sees it (decision 040): the places and the sub-card holders (masked), or 30050 for a card that is not a family main card. */
async function familyView(db: Db | Tx, card: CardRow): Promise<CardFamily> {
  const slots = await familySlotsOf(db, card.cardType);
  const members = await liveSubs(db, card.id);
  const names = await shownNames(
    db,
    members.map((m) => m.accountId),
  );
  return {
    cardId: card.id,
    slots,
    members: members.map((m) => ({
      id: m.id,
      name: names.get(m.accountId) ?? '',
      phone: maskPhone(m.phone),
      since: m.createdAt.toISOString(),
    })),
    canAdd: slots > members.length && cardShareable(card.status),
  };
}

/** GET /customers/cards/family: the sharing of one of my family main cards; a sub holder is 30002 not owner, another member's card 404. */
export async function myCardFamily(db: Db, accountId: number, cardId: number): Promise<CardFamily> {
  const [card] = await db
    .select()
    .from(memberCards)
    .where(and(eq(memberCards.id, cardId), eq(memberCards.accountId, accountId)));
  if (!card) return refuseNotMine(db, accountId, cardId, 'id');
  if ((await familySlotsOf(db, card.cardType)) <= 0) throw new ApiError(Errors.familyNotMainCard);
  return familyView(db, card);
}

/** The bookings and queue places a sub-card holder has ahead on the card (spec §8 "scheduled or ongoing bookings"). */
async function subBookingsAhead(tx: Tx, cardId: number, accountId: number, now: Date): Promise<boolean> {
  const [ahead] = await tx
    .select({ n: count() })
    .from(bookings)
    .innerJoin(classes, eq(classes.id, bookings.classId))
    .where(
      and(
        eq(bookings.cardId, cardId),
        eq(bookings.accountId, accountId),
        inArray(bookings.state, BOOKING_OPEN_STATES),
        gt(classEndsAt, instant(now)),
      ),
    );
  return (ahead?.n ?? 0) > 0;
}

/**
 * The holder of a family main card adds a sub-card holder by phone (decision 040): the card type's
 * data says how many it shares with (30050 none, 30051 full); the card must still be usable by the
 * card chart (a transferred or invalid card refuses with its status; an unfinished application
 * 30004); the phone a member (30036), not the holder (30052), not already sharing it (30053). Under the
 * member's and the card's locks (the booking decisions' order), so two adds of the last place at once
 * are decided one after the other. Both members are told.
 */
export async function addFamilySub(db: Db, clock: Clock, accountId: number, input: { id: number; phone: string }): Promise<CardFamily> {
  const now = clock.now();
  await catchUpCard(db, now, input.id);
  return decide(db, async (tx) => {
    const card = await lockMyCard(tx, now, accountId, input.id);
    const slots = await familySlotsOf(tx, card.cardType);
    if (slots <= 0) throw new ApiError(Errors.familyNotMainCard);
    if (!cardShareable(card.status)) throw new ApiError(Errors[statusRefusal(card.status)]);
    if (await transferUnfinished(tx, card.id)) throw new ApiError(Errors.cardApplicationPending);
    const to = await recipientByPhone(tx, input.phone);
    if (!to) throw new ApiError(Errors.noSuchMember, { field: 'phone' });
    if (to.id === accountId) throw new ApiError(Errors.familyToSelf, { field: 'phone' });
    const subs = await liveSubs(tx, card.id);
    if (subs.some((m) => m.accountId === to.id)) throw new ApiError(Errors.familyAlready, { field: 'phone' });
    if (subs.length >= slots) throw new ApiError(Errors.familyFull);
    await tx.insert(cardFamilyMembers).values({ cardId: card.id, accountId: to.id, addedBy: accountId, createdAt: now });
    const [holder] = await tx.select({ phone: accounts.phone }).from(accounts).where(eq(accounts.id, accountId));
    await tx.insert(notifications).values({
      accountId: to.id,
      title: '您成为亲情卡副卡持有人',
      titleEn: 'You hold a family sub card',
      body: `${maskPhone(holder?.phone ?? '')} 把您添加为「${card.name}」的副卡持有人，您可以用它预约课程。`,
      bodyEn: `${maskPhone(holder?.phone ?? '')} added you to "${card.nameEn ?? card.name}" as a sub-card holder: you can book classes with it.`,
      createdAt: now,
    });
    return familyView(tx, card);
  });
}

/**
 * The holder removes a sub-card holder (decision 040): one live on this card (30055 naming subId),
 * with no booking or queue place ahead on it (30054: they cancel first, since a seat booked with the
 * card could not be cancelled by them once removed). The row stays with who removed it and when.
 */
export async function removeFamilySub(db: Db, clock: Clock, accountId: number, input: { id: number; subId: number }): Promise<CardFamily> {
  const now = clock.now();
  await catchUpCard(db, now, input.id);
  return decide(db, async (tx) => {
    const card = await lockMyCard(tx, now, accountId, input.id);
    const [sub] = await tx
      .select()
      .from(cardFamilyMembers)
      .where(and(eq(cardFamilyMembers.id, input.subId), eq(cardFamilyMembers.cardId, card.id), isNull(cardFamilyMembers.removedAt)));
    if (!sub) throw new ApiError(Errors.familySubNotFound, { field: 'subId' });
    if (await subBookingsAhead(tx, card.id, sub.accountId, now)) throw new ApiError(Errors.familySubBookingsAhead);
    const [done] = await tx
      .update(cardFamilyMembers)
      .set({ removedAt: now, removedBy: accountId })
      .where(and(eq(cardFamilyMembers.id, sub.id), isNull(cardFamilyMembers.removedAt)))
      .returning({ id: cardFamilyMembers.id });
    if (!done) throw new ApiError(Errors.familySubNotFound, { field: 'subId' });
    await tx.insert(notifications).values({
      accountId: sub.accountId,
      title: '亲情卡副卡已解除',
      titleEn: 'Family sub card removed',
      body: `您已不再是「${card.name}」的副卡持有人。`,
      bodyEn: `You no longer hold a sub card of "${card.nameEn ?? card.name}".`,
      createdAt: now,
    });
    return familyView(tx, card);
  });
}
