import { and, count, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { cardFamilyMembers, memberCards } from '../../db/schema/index';

/**
 * Who holds a card (decision 040): its owner, and the family sub-card holders its owner added (live
 * rows of card_family_members), who book with it and share its uses and validity. Only the owner
 * manages it.
 */
export function heldBy(accountId: number): SQL {
  return or(
    eq(memberCards.accountId, accountId),
    sql`exists (select 1 from ${cardFamilyMembers} where ${cardFamilyMembers.cardId} = ${memberCards.id} and ${cardFamilyMembers.accountId} = ${accountId} and ${cardFamilyMembers.removedAt} is null)`,
  )!;
}

/** Whether the member holds the card as a live family sub-card holder. */
export async function isFamilySub(db: Db | Tx, accountId: number, cardId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: cardFamilyMembers.id })
    .from(cardFamilyMembers)
    .where(and(eq(cardFamilyMembers.cardId, cardId), eq(cardFamilyMembers.accountId, accountId), isNull(cardFamilyMembers.removedAt)));
  return row !== undefined;
}

/**
 * Whether a card the member does not own is one they can see (spec §8 "not owner", decision 040): they
 * hold it as a family sub card, or they gave it as a gift. Any other member's card answers as absent.
 */
export async function seesNotOwned(db: Db | Tx, accountId: number, cardId: number): Promise<boolean> {
  if (await isFamilySub(db, accountId, cardId)) return true;
  const [gift] = await db
    .select({ id: memberCards.id })
    .from(memberCards)
    .where(and(eq(memberCards.id, cardId), eq(memberCards.giftedFromAccountId, accountId)));
  return gift !== undefined;
}

/** How many members share the card now (its live sub-card holders; decision 040). */
export async function familyShareCount(db: Db | Tx, cardId: number): Promise<number> {
  const [n] = await db
    .select({ n: count() })
    .from(cardFamilyMembers)
    .where(and(eq(cardFamilyMembers.cardId, cardId), isNull(cardFamilyMembers.removedAt)));
  return n?.n ?? 0;
}
