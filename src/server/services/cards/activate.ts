import { and, eq } from 'drizzle-orm';
import { cardFactsOf, nextCardStatus } from '../../../../machines/domain/card-transitions';
import type { Clock } from '../../../domain/clock';
import { validUntilFrom } from '../../../domain/booking-rules';
import { Errors } from '../../../domain/errors';
import type { Db } from '../../db/client';
import { memberCards } from '../../db/schema/index';
import { ApiError } from '../../http/api-error';
import { decide } from '../../db/transaction';
import { pendingApplications } from './applications';

/**
 * Activates one of my inactive cards by hand (spec §4: activate; the first booking does the same):
 * the card chart decides, and the validity runs from now for the product's days; not while a
 * transfer or refund of the card waits on staff.
 */
export async function activateCard(db: Db, clock: Clock, accountId: number, cardId: number) {
  return decide(db, async (tx) => {
    const [card] = await tx
      .select()
      .from(memberCards)
      .where(and(eq(memberCards.id, cardId), eq(memberCards.accountId, accountId)))
      .for('update');
    if (!card) throw new ApiError(Errors.notFound, { field: 'id' });
    // a transfer or refund waiting on staff was asked on the card as it is: its clock does not start meanwhile
    if ((await pendingApplications(tx, [card.id])).size > 0) throw new ApiError(Errors.cardApplicationPending);
    const status = nextCardStatus(card.status, 'card.activate', cardFactsOf(card));
    if (!status) throw new ApiError(Errors.cardStatusForbids);
    const now = clock.now();
    const [row] = await tx
      .update(memberCards)
      .set({ status, validFrom: now, validUntil: validUntilFrom(now, card.validityDays) })
      .where(eq(memberCards.id, card.id))
      .returning();
    return row!;
  });
}
