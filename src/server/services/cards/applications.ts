import { inArray, sql, type SQL } from 'drizzle-orm';
import { OPEN_CARD_REFUND_STATES } from '../../../../machines/domain/card-refund-transitions';
import { OPEN_TRANSFER_STATES } from '../../../../machines/domain/card-transfer-application-transitions';
import type { Db, Tx } from '../../db/client';
import { cardRefunds, cardTransfers, memberCards } from '../../db/schema/index';
import { stateIn } from '../../db/state-checks';

/** The application a card waits on: a transfer or a refund not yet decided (at most one: each refuses the other). */
export type PendingApplication = 'transfer' | 'refund';

/**
 * The card's unfinished application in SQL, for the card row in `card` (`member_cards.id` unless
 * told): 'transfer', 'refund' or null. Each kind's partial unique index on (card_id) answers it.
 */
export function pendingApplicationSql(card: SQL = sql`${memberCards.id}`): SQL<PendingApplication | null> {
  return sql<PendingApplication | null>`case
    when exists (select 1 from ${cardTransfers} where ${cardTransfers.cardId} = ${card} and ${stateIn(cardTransfers.state, OPEN_TRANSFER_STATES)}) then 'transfer'
    when exists (select 1 from ${cardRefunds} where ${cardRefunds.cardId} = ${card} and ${stateIn(cardRefunds.state, OPEN_CARD_REFUND_STATES)}) then 'refund'
  end`;
}

/** The unfinished application of each of these cards (absent: none). */
export async function pendingApplications(db: Db | Tx, cardIds: readonly number[]): Promise<Map<number, PendingApplication>> {
  if (cardIds.length === 0) return new Map();
  const rows = await db
    .select({ id: memberCards.id, pending: pendingApplicationSql() })
    .from(memberCards)
    .where(inArray(memberCards.id, [...cardIds]));
  return new Map(rows.flatMap((r) => (r.pending ? [[r.id, r.pending] as const] : [])));
}
