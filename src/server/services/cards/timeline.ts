import { alias } from 'drizzle-orm/pg-core';
import { asc, eq } from 'drizzle-orm';
import type { CardHistoryItem } from '../../../contracts/cards';
import type { Db } from '../../db/client';
import {
  accounts,
  advisers,
  bookings,
  cardAdviserChanges,
  cardFamilyMembers,
  cardExtensions,
  cardFreezes,
  cardRefunds,
  cardTransfers,
  classes,
  clubs,
  orders,
} from '../../db/schema/index';
import type { Locale } from '../../i18n';
import { shownNames } from '../person/shown-name';
import { maskPhone } from './transfer';
import { loc } from '../catalog';
import type { CardRow } from './my-card';
import { moneyBreakdown } from '../orders/breakdown';

/** Within one instant, the order things happen in (the newest first reverses it). */
const RANK: Record<CardHistoryItem['kind'], number> = {
  transferIn: 0,
  bought: 1,
  adviser: 2,
  activated: 3,
  class: 4,
  returned: 5,
  freeze: 6,
  unfreeze: 7,
  extend: 8,
  transferOut: 9,
  transferOutcome: 10,
  refundRequested: 11,
  refundOutcome: 12,
  gifted: 13,
  familyAdded: 14,
  familyRemoved: 15,
};

const iso = (d: Date | null) => d?.toISOString() ?? null;
type Decided = 'approved' | 'rejected' | 'cancelled';
const decided = (state: string): state is Decided => state === 'approved' || state === 'rejected' || state === 'cancelled';

/**
 * A card's whole life as one timeline, newest first (decision 034), read from the stored
 * records rather than a log of its own: the order that bought it, its activation (by the booking
 * made at that instant), each class booked with it and each use given back by a cancel, each freeze
 * (card_freezes: its days and the end it moved) and its early end, each extension (card_extensions),
 * a transfer out (card_transfers: applied, then decided) or in (the application that issued it), a
 * refund request and its outcome (card_refunds), and each change of adviser (card_adviser_changes);
 * decision 040: the gift it arrived as (member_cards.gifted_at) and each family sub-card holder added
 * or removed (card_family_members, masked).
 * Only the card's own records: the other member of a transfer is not named.
 */
export async function cardTimeline(db: Db, c: CardRow, locale: Locale): Promise<CardHistoryItem[]> {
  const items: CardHistoryItem[] = [];
  const [bought] = await db.select().from(orders).where(eq(orders.issuedCardId, c.id));
  // a card received as a gift starts with the gift: the giver's order is the giver's (decision 040)
  if (c.giftedAt) items.push({ kind: 'gifted', at: c.giftedAt.toISOString() });
  else if (bought)
    items.push({
      kind: 'bought',
      at: (bought.paidAt ?? bought.createdAt).toISOString(),
      orderNo: bought.orderNo,
      money: await moneyBreakdown(db, bought),
    });

  const used = await db
    .select({
      b: bookings,
      title: classes.title,
      titleEn: classes.titleEn,
      startsAt: classes.startsAt,
      clubName: clubs.name,
      clubNameEn: clubs.nameEn,
    })
    .from(bookings)
    .innerJoin(classes, eq(classes.id, bookings.classId))
    .innerJoin(clubs, eq(clubs.id, classes.clubId))
    .where(eq(bookings.cardId, c.id))
    .orderBy(asc(bookings.id));
  const [received] = await db.select().from(cardTransfers).where(eq(cardTransfers.newCardId, c.id));
  const receivedAt = received ? (received.decidedAt ?? c.createdAt) : null;
  // a card received started on the giver's card, unless it was received before it started
  if (c.validFrom && (!receivedAt || c.validFrom > receivedAt)) {
    // the first booking activates an inactive card in its own decision: the same instant (decision 024)
    const by = used.find((u) => u.b.bookedAt?.getTime() === c.validFrom!.getTime());
    items.push({ kind: 'activated', at: c.validFrom.toISOString(), classTitle: by ? loc(locale, by.title, by.titleEn) : null });
  }
  for (const u of used) {
    if (!['booked', 'cancelled', 'checked_in', 'not_checked_in'].includes(u.b.state)) continue;
    const classTitle = loc(locale, u.title, u.titleEn);
    items.push({
      kind: 'class',
      at: (u.b.bookedAt ?? u.b.createdAt).toISOString(),
      bookingId: u.b.id,
      state: u.b.state,
      usesSpent: u.b.state === 'cancelled' ? 0 : u.b.usesSpent,
      classTitle,
      clubName: loc(locale, u.clubName, u.clubNameEn),
      classStartsAt: u.startsAt.toISOString(),
    });
    if (u.b.state === 'cancelled' && u.b.usesSpent > 0 && u.b.cancelledAt)
      items.push({ kind: 'returned', at: u.b.cancelledAt.toISOString(), bookingId: u.b.id, usesReturned: u.b.usesSpent, classTitle });
  }

  for (const f of await db.select().from(cardFreezes).where(eq(cardFreezes.cardId, c.id))) {
    items.push({
      kind: 'freeze',
      at: f.createdAt.toISOString(),
      from: f.fromDate,
      until: f.untilDate,
      validUntilBefore: iso(f.validUntilBefore),
      validUntilAfter: iso(f.validUntilAfter),
    });
    if (f.unfrozenAt)
      items.push({
        kind: 'unfreeze',
        at: f.unfrozenAt.toISOString(),
        from: f.fromDate,
        until: f.untilDate,
        validUntilAfter: iso(f.unfrozenValidUntil),
      });
  }
  for (const e of await db.select().from(cardExtensions).where(eq(cardExtensions.cardId, c.id))) {
    items.push({
      kind: 'extend',
      at: e.createdAt.toISOString(),
      validUntilBefore: iso(e.validUntilBefore),
      validUntilAfter: e.validUntilAfter.toISOString(),
    });
  }

  for (const t of await db.select().from(cardTransfers).where(eq(cardTransfers.cardId, c.id))) {
    items.push({ kind: 'transferOut', at: t.createdAt.toISOString(), transferId: t.id });
    if (decided(t.state) && t.decidedAt)
      items.push({ kind: 'transferOutcome', at: t.decidedAt.toISOString(), transferId: t.id, state: t.state, reason: t.reason });
  }
  if (receivedAt) {
    // the uses it was given with: what is left now and what its own bookings still hold
    const held = used.reduce((n, u) => n + (u.b.state === 'cancelled' ? 0 : u.b.usesSpent), 0);
    items.push({ kind: 'transferIn', at: receivedAt.toISOString(), usesLeft: c.usesLeft === null ? null : c.usesLeft + held });
  }

  for (const r of await db.select().from(cardRefunds).where(eq(cardRefunds.cardId, c.id))) {
    items.push({ kind: 'refundRequested', at: r.createdAt.toISOString(), refundId: r.id, quotedCents: r.quotedCents });
    if (decided(r.state) && r.decidedAt)
      items.push({
        kind: 'refundOutcome',
        at: r.decidedAt.toISOString(),
        refundId: r.id,
        state: r.state,
        amountCents: r.amountCents,
        reason: r.reason,
      });
  }

  const before = alias(advisers, 'from_adviser');
  const changes = await db
    .select({
      at: cardAdviserChanges.createdAt,
      from: before.name,
      fromEn: before.nameEn,
      to: advisers.name,
      toEn: advisers.nameEn,
      club: clubs.name,
      clubEn: clubs.nameEn,
    })
    .from(cardAdviserChanges)
    .innerJoin(advisers, eq(advisers.id, cardAdviserChanges.toAdviserId))
    .innerJoin(clubs, eq(clubs.id, advisers.clubId))
    .leftJoin(before, eq(before.id, cardAdviserChanges.fromAdviserId))
    .where(eq(cardAdviserChanges.cardId, c.id));
  for (const a of changes) {
    items.push({
      kind: 'adviser',
      at: a.at.toISOString(),
      from: a.from === null ? null : loc(locale, a.from, a.fromEn),
      to: loc(locale, a.to, a.toEn),
      clubName: loc(locale, a.club, a.clubEn),
    });
  }

  const family = await db
    .select({ f: cardFamilyMembers, phone: accounts.phone })
    .from(cardFamilyMembers)
    .innerJoin(accounts, eq(accounts.id, cardFamilyMembers.accountId))
    .where(eq(cardFamilyMembers.cardId, c.id));
  const names = await shownNames(
    db,
    family.map(({ f }) => f.accountId),
  );
  for (const { f, phone } of family) {
    // nameless (signed up in the app, no personal information): the masked phone instead
    const name = names.get(f.accountId) ?? maskPhone(phone);
    items.push({ kind: 'familyAdded', at: f.createdAt.toISOString(), name });
    if (f.removedAt) items.push({ kind: 'familyRemoved', at: f.removedAt.toISOString(), name });
  }

  return items.sort((a, b) => (a.at !== b.at ? (a.at < b.at ? 1 : -1) : RANK[b.kind] - RANK[a.kind]));
}
