import { and, asc, eq } from 'drizzle-orm';
import { cardFactsOf, nextCardStatus } from '../../../../machines/domain/card-transitions';
import type { CardAdviser } from '../../../contracts/cards';
import type { Clock } from '../../../domain/clock';
import { Errors } from '../../../domain/errors';
import type { Db, Tx } from '../../db/client';
import { advisers, cardAdviserChanges, clubs } from '../../db/schema/index';
import { ApiError } from '../../http/api-error';
import type { Locale } from '../../i18n';
import { decide } from '../../db/transaction';
import { loc } from '../catalog';
import { catchUpCard, lockMyCard, writeCard, type CardRow } from './my-card';
import { statusRefusal } from './operations';
import { transferUnfinished } from './transfer-rules';

/** An adviser as the card page and the picker show it, with the club's name in the member's language. */
async function adviserRows(db: Db | Tx, where: ReturnType<typeof eq>, locale: Locale): Promise<CardAdviser[]> {
  const rows = await db
    .select({
      id: advisers.id,
      name: advisers.name,
      nameEn: advisers.nameEn,
      clubId: advisers.clubId,
      clubName: clubs.name,
      clubNameEn: clubs.nameEn,
    })
    .from(advisers)
    .innerJoin(clubs, eq(clubs.id, advisers.clubId))
    .where(where)
    .orderBy(asc(advisers.sort), asc(advisers.id));
  return rows.map((r) => ({
    id: r.id,
    name: loc(locale, r.name, r.nameEn),
    clubId: r.clubId,
    clubName: loc(locale, r.clubName, r.clubNameEn),
  }));
}

/** The card's adviser (decision 034); null when none is chosen. */
export async function adviserOfCard(db: Db | Tx, adviserId: number | null, locale: Locale): Promise<CardAdviser | null> {
  if (adviserId === null) return null;
  const [a] = await adviserRows(db, eq(advisers.id, adviserId), locale);
  return a ?? null;
}

/** The advisers a member may choose in one club (the active ones), in the club's order; 30047 for a club that does not exist. */
export async function clubAdvisers(db: Db, clubId: number, locale: Locale): Promise<CardAdviser[]> {
  const [club] = await db.select({ id: clubs.id }).from(clubs).where(eq(clubs.id, clubId));
  if (!club) throw new ApiError(Errors.adviserClubNotFound, { field: 'clubId' });
  return adviserRows(db, and(eq(advisers.clubId, clubId), eq(advisers.active, true))!, locale);
}

/**
 * Changes one of my cards' adviser (spec §4 "change adviser", §5 "needs club and adviser"; decision
 * 034): the club and then one of its active advisers, both required (30045 clubId, 30046 adviserId);
 * a club that does not exist 30047, an adviser not of that club 30048, the card's adviser already
 * 30049. The card chart decides by status (a transferred or invalid card refuses: its 30xxx), an
 * unfinished transfer application refuses 30004. The change is stored with who, from, to and when,
 * under the member and card locks, so two changes at once are stored one after the other.
 */
export async function changeCardAdviser(
  db: Db,
  clock: Clock,
  accountId: number,
  input: { id: number; clubId?: number | null; adviserId?: number | null },
): Promise<CardRow> {
  const { clubId, adviserId } = input;
  if (clubId == null) throw new ApiError(Errors.adviserClubRequired, { field: 'clubId' });
  if (adviserId == null) throw new ApiError(Errors.adviserRequired, { field: 'adviserId' });
  const now = clock.now();
  await catchUpCard(db, now, input.id);
  return decide(db, async (tx) => {
    const card = await lockMyCard(tx, now, accountId, input.id);
    const status = nextCardStatus(card.status, 'card.changeAdviser', cardFactsOf(card));
    if (!status) throw new ApiError(Errors[statusRefusal(card.status)]);
    if (await transferUnfinished(tx, card.id)) throw new ApiError(Errors.cardApplicationPending);
    const [club] = await tx.select({ id: clubs.id }).from(clubs).where(eq(clubs.id, clubId));
    if (!club) throw new ApiError(Errors.adviserClubNotFound, { field: 'clubId' });
    const [adviser] = await tx
      .select({ id: advisers.id })
      .from(advisers)
      .where(and(eq(advisers.id, adviserId), eq(advisers.clubId, clubId), eq(advisers.active, true)));
    if (!adviser) throw new ApiError(Errors.adviserNotInClub, { field: 'adviserId' });
    if (card.adviserId === adviser.id) throw new ApiError(Errors.adviserUnchanged, { field: 'adviserId' });
    await tx
      .insert(cardAdviserChanges)
      .values({ cardId: card.id, changedBy: accountId, fromAdviserId: card.adviserId, toAdviserId: adviser.id, createdAt: now });
    return writeCard(tx, card, { status, adviserId: adviser.id });
  });
}
