import { and, eq, inArray } from 'drizzle-orm';
import { APPLIED_PAYMENT_STATUSES } from '../../../../machines/domain/payment-transitions';
import { Errors } from '../../../domain/errors';
import { MAX_SPLIT_PARTS, MIN_SPLIT_PARTS, partInRange } from '../../../domain/split';
import type { Tx } from '../../db/client';
import { accounts, payments } from '../../db/schema/index';
import type { Deps } from '../../env';
import { ApiError } from '../../http/api-error';
import { decide } from '../../db/transaction';
import { requestRefund } from '../refunds/request';
import { runRefundsNow } from '../refunds/run';
import { lockAccount, lockMyOrder } from './locks';
import { endTradesBeforeChange } from './close-attempt';
import { refundedInvitation, withdrawAllInvitations } from './invitation-rows';
import { mustOffer, offerFacts } from './offer-facts';
import { insertPart, movePart } from './parts';
import { openPayWindow } from './pay-window';
import { myOrder, type OrderRow } from './read';
import { move } from './state';

/** Split orders (spec §4, §8, §9; decision 021): what is left to pay divided into 2-10 parts, and undone. */

/** The spec §8 refusals of a split, in their order; null when the parts may replace the order's one share. */
function splitRefusal(order: OrderRow, parts: readonly number[]): ApiError | null {
  const field = (f: string) => new ApiError(Errors.invalidField, { field: f, values: { field: f } });
  if (parts.length > MAX_SPLIT_PARTS) return new ApiError(Errors.splitTooMany, { field: 'parts' });
  if (parts.length < MIN_SPLIT_PARTS) return field('parts');
  const bad = parts.findIndex((p) => !partInRange(p, order.amountToPayCents));
  if (bad >= 0) return new ApiError(Errors.splitPartTooLarge, { field: `parts[${bad}]` });
  if (parts.reduce((a, p) => a + p, 0) !== order.amountToPayCents) return field('parts');
  return null;
}

/** The member (live) may change the order's parts. */
async function memberLive(tx: Tx, accountId: number): Promise<void> {
  const [member] = await tx.select({ banned: accounts.banned }).from(accounts).where(eq(accounts.id, accountId));
  if (!member || member.banned) throw new ApiError(Errors.userMissing);
}

/**
 * Splits an unpaid order (no trade open) into 2-10 parts: its one unpaid share is dropped and the
 * parts inserted with the next numbers, under the order's lock (a second tap finds it split: 40015).
 * The order's state does not change.
 */
export async function splitOrder(deps: Deps, accountId: number, orderNo: string, parts: readonly number[]): Promise<OrderRow> {
  return decide(deps.db, async (tx) => {
    const order = await lockMyOrder(tx, accountId, orderNo);
    await memberLive(tx, accountId);
    const facts = await offerFacts(tx, order, deps.clock.now());
    mustOffer(facts, 'split');
    const refusal = splitRefusal(order, parts);
    if (refusal) throw refusal;
    await movePart(tx, deps.clock, facts.shares[0]!.part, 'part.end');
    for (const cents of parts) await insertPart(tx, deps.clock, order.id, 'share', cents);
    return order;
  });
}

/**
 * Undoes a split: the trades open on its parts are ended first (money a payer gave meanwhile is
 * applied, then given back like any paid part), the friends' links withdrawn, unpaid parts dropped,
 * paid ones given back and refunded to their payers (cause `split_undone`, key `unsplit:<partId>`; a
 * friend's link then reads refunded), and one share of the whole amount to pay is made. The order
 * waits for its member's money (with a new pay window when friends were paying).
 */
export async function unsplitOrder(deps: Deps, accountId: number, orderNo: string): Promise<OrderRow> {
  const before = await myOrder(deps.db, accountId, orderNo);
  mustOffer(await offerFacts(deps.db, before, deps.clock.now()), 'unsplit');
  await endTradesBeforeChange(deps, before);
  const refundsToRun: number[] = [];
  const order = await decide(deps.db, async (tx) => {
    refundsToRun.length = 0;
    // the account first: a part paid by balance comes back to the ledger
    await lockAccount(tx, accountId);
    const o = await lockMyOrder(tx, accountId, orderNo);
    await memberLive(tx, accountId);
    const facts = await offerFacts(tx, o, deps.clock.now());
    mustOffer(facts, 'unsplit');
    // a trade opened since the trades were ended: the member reads the order again
    if (facts.shares.some((p) => p.holder === 'memberTrade' || p.holder === 'friendTrade')) throw new ApiError(Errors.orderNotPayable);
    const shares = facts.shares.map((p) => p.part);
    await withdrawAllInvitations(tx, deps.clock, o.id);
    for (const part of shares) {
      // the chart says what ending it means: dropped (nothing paid) or given back (refunded below)
      if ((await movePart(tx, deps.clock, part, 'part.end')) !== 'given_back') continue;
      const paid = await tx
        .select()
        .from(payments)
        .where(and(eq(payments.partId, part.id), inArray(payments.status, APPLIED_PAYMENT_STATUSES)));
      for (const payment of paid) {
        const { refund, runAfterCommit } = await requestRefund(
          tx,
          deps.clock,
          payment,
          payment.amountCents,
          'split_undone',
          `unsplit:${part.id}`,
        );
        if (runAfterCommit) refundsToRun.push(refund.id);
      }
      await refundedInvitation(tx, deps.clock, part.id);
    }
    await insertPart(tx, deps.clock, o.id, 'share', o.amountToPayCents);
    // friends were paying: their links are over, the order waits for its member with a new pay window
    return o.state === 'friend_paying' ? openPayWindow(tx, deps.clock, o, move(o.state, 'invitation.ended', 'orderNotPayable')) : o;
  });
  await runRefundsNow(deps, refundsToRun);
  return order;
}
