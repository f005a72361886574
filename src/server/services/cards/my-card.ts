import { and, eq } from 'drizzle-orm';
import { guards } from '../../db/guards';
import { Errors } from '../../../domain/errors';
import type { Db, Tx } from '../../db/client';
import { accounts, memberCards } from '../../db/schema/index';
import { ApiError } from '../../http/api-error';
import { passCardTime } from '../../jobs/time-passing';
import { seesNotOwned } from './holders';

export type CardRow = typeof memberCards.$inferSelect;

/**
 * Brings a card up to date by the clock before a decision on it, in a transaction of its own, so
 * what time has done stays written even when the decision is refused (decision 018).
 */
export async function catchUpCard(db: Db, now: Date, cardId: number): Promise<void> {
  await passCardTime(db, now, eq(memberCards.id, cardId));
}

/**
 * One of my cards, locked for a decision on it, brought up to date by the clock first (decision 018:
 * a planned freeze whose day has come has started, a freeze past its last day has ended, a card past
 * its validity has expired). Locks the member first, then the card: the booking decisions' order, so
 * a card operation and a booking with the card are serialised. Another member's card is 404; one the
 * member sees but does not own (a family sub card's main card, a card they gave as a gift) is 30002
 * "not owner" (decision 040).
 */
export async function lockMyCard(tx: Tx, now: Date, accountId: number, cardId: number): Promise<CardRow> {
  const mine = and(eq(memberCards.id, cardId), eq(memberCards.accountId, accountId));
  await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).for('no key update');
  const q = tx.select({ id: memberCards.id }).from(memberCards).where(mine);
  const [found] = await q.for('update');
  if (!found) await refuseNotMine(tx, accountId, cardId, 'id');
  await passCardTime(tx, now, eq(memberCards.id, cardId));
  const [card] = await tx.select().from(memberCards).where(mine);
  return card!;
}

/** Writes a card's new state where it still has the status it was decided on (decision 017). */
export async function writeCard(tx: Tx, card: CardRow, set: Partial<typeof memberCards.$inferInsert>): Promise<CardRow> {
  // the chart's state condition: a write decided on a status another transaction has since changed writes nothing
  const [row] = await tx
    .update(memberCards)
    .set(set)
    .where(and(eq(memberCards.id, card.id), guards.still(memberCards.status, card.status)))
    .returning();
  if (!row) throw new ApiError(Errors.cardStatusForbids);
  return row;
}

/** Refuses an operation on a card that is not the member's: 30002 "not owner" when they can see it (decision 040), else 404 as if absent. */
export async function refuseNotMine(db: Db | Tx, accountId: number, cardId: number, field: string): Promise<never> {
  if (await seesNotOwned(db, accountId, cardId)) throw new ApiError(Errors.cardNotOwner, { field });
  throw new ApiError(Errors.notFound, { field });
}
