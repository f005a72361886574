import { and, eq, inArray } from 'drizzle-orm';
import { balanceTakesPayment, canApplyOrder, EVER_PAID_STATES, type OrderState } from '../../../../machines/domain/order-transitions';
import { LIVE_PART_STATES, type PaymentPartState } from '../../../../machines/domain/payment-part-transitions';
import { APPLIED_PAYMENT_STATUSES } from '../../../../machines/domain/payment-transitions';
import { Errors } from '../../../domain/errors';
import { MAX_SPLIT_PARTS, MIN_SPLIT_PARTS, partInRange, splittable } from '../../../domain/split';
import type { Tx } from '../../db/client';
import { accounts, payments } from '../../db/schema/index';
import type { Deps } from '../../env';
import { ApiError } from '../../http/api-error';
import { decide } from '../booking/decide';
import { requestRefund } from '../refunds/request';
import { runRefundsNow } from '../refunds/run';
import { lockAccount, lockMyOrder, ROW, type LockOptions } from './locks';
import { insertPart, liveShares, movePart } from './parts';
import { myOrder, openAttempt, type OrderRow } from './read';

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

/**
 * What the order's page offers of splitting (the order's detail `actions`): to split it while it can
 * be paid (`pay` offered: unpaid or its payment failed, no trade open, within its pay window) and is
 * one unpaid share of at least 2 cents; to undo the split while it can be paid and is split. The
 * requests themselves are decided under the order's lock (splitOrder, unsplitOrder).
 */
export function splitActions(order: { actions: readonly string[]; amountToPayCents: number }, parts: ReadonlyArray<{ kind: string; state: PaymentPartState }>): Array<'split' | 'unsplit'> {
  if (!order.actions.includes('pay')) return [];
  const shares = parts.filter((p) => p.kind === 'share' && LIVE_PART_STATES.includes(p.state));
  if (shares.length > 1) return ['unsplit'];
  return shares.length === 1 && shares[0]!.state === 'unpaid' && splittable(order.amountToPayCents) ? ['split'] : [];
}

/**
 * Whether the order's page offers asking a friend (the detail's `invite` action): the chart takes
 * `friend.invite` (an order to pay, or one a friend already holds a part of: another part may go to
 * another friend), no trade is open at a provider (`paying`), and money is left to pay in an unpaid
 * share. The request itself is decided under the order's lock (inviteFriend).
 */
export function inviteActions(order: { state: OrderState; amountToPayCents: number }, parts: ReadonlyArray<{ kind: string; state: PaymentPartState }>): Array<'invite'> {
  if (order.state === 'paying' || order.amountToPayCents <= 0 || !canApplyOrder(order.state, 'friend.invite')) return [];
  return parts.some((p) => p.kind === 'share' && p.state === 'unpaid') ? ['invite'] : [];
}

/**
 * Whether the order's page offers paying a part from the balance although it does not offer paying
 * (the detail's `payBalance` action): a friend holds one part (the chart takes a part paid while
 * `friend_paying`, decision 021) and a part of the member's own is unpaid. Providers wait until no
 * friend is paying; the request itself is decided under the locks (payOrder).
 */
export function balancePayActions(order: { state: OrderState; actions: readonly string[] }, parts: ReadonlyArray<{ kind: string; state: PaymentPartState; withFriend: boolean }>): Array<'payBalance'> {
  if (order.actions.includes('pay') || order.state === 'paying' || !balanceTakesPayment(order.state)) return [];
  return parts.some((p) => p.kind === 'share' && p.state === 'unpaid' && !p.withFriend) ? ['payBalance'] : [];
}

/** The member (live) and the order's state allow changing its parts: 40013, 40014, 40011, then 40002 while a trade is open. */
async function mayChangeParts(tx: Tx, accountId: number, order: OrderRow): Promise<void> {
  const [member] = await tx.select({ banned: accounts.banned }).from(accounts).where(eq(accounts.id, accountId));
  if (!member || member.banned) throw new ApiError(Errors.userMissing);
  if (order.state === 'cancelled') throw new ApiError(Errors.orderCancelled);
  if (EVER_PAID_STATES.includes(order.state)) throw new ApiError(Errors.orderAlreadyPaid);
  if (order.state === 'paying' || !canApplyOrder(order.state, 'order.pay') || (await openAttempt(tx, order.id))) throw new ApiError(Errors.orderNotPayable);
}

/**
 * Splits an unpaid order (no trade open) into 2-10 parts: its one unpaid share is dropped and the
 * parts inserted with the next numbers, under the order's lock (a second tap finds it split: 40015).
 * The order's state does not change. `lock: 'none'` only for the race test's negative control.
 */
export async function splitOrder(deps: Deps, accountId: number, orderNo: string, parts: readonly number[], opts: LockOptions = ROW): Promise<OrderRow> {
  return decide(deps.db, async (tx) => {
    const order = opts.lock === 'row' ? await lockMyOrder(tx, accountId, orderNo) : await myOrder(tx, accountId, orderNo);
    await mayChangeParts(tx, accountId, order);
    const shares = await liveShares(tx, order.id);
    if (shares.length > 1) throw new ApiError(Errors.orderAlreadySplit);
    const refusal = splitRefusal(order, parts);
    if (refusal) throw refusal;
    const [whole] = shares;
    if (!whole || whole.state !== 'unpaid') throw new ApiError(Errors.orderNotPayable);
    await movePart(tx, deps.clock, whole, 'part.end', opts);
    for (const cents of parts) await insertPart(tx, deps.clock, order.id, 'share', cents);
    return order;
  });
}

/**
 * Undoes a split while nothing is being paid: unpaid parts are dropped, paid ones given back and
 * refunded to their payers (cause `split_undone`, key `unsplit:<partId>`), and one share of the whole
 * amount to pay is made. The order's state does not change.
 */
export async function unsplitOrder(deps: Deps, accountId: number, orderNo: string): Promise<OrderRow> {
  const refundsToRun: number[] = [];
  const order = await decide(deps.db, async (tx) => {
    refundsToRun.length = 0;
    // the account first: a part paid by balance comes back to the ledger
    await lockAccount(tx, accountId, ROW);
    const o = await lockMyOrder(tx, accountId, orderNo);
    await mayChangeParts(tx, accountId, o);
    const shares = await liveShares(tx, o.id);
    if (shares.length < 2) throw new ApiError(Errors.invalidField, { field: 'orderNo', values: { field: 'orderNo' } });
    for (const part of shares) {
      // the chart says what ending it means: dropped (nothing paid) or given back (refunded below)
      if ((await movePart(tx, deps.clock, part, 'part.end')) !== 'given_back') continue;
      const paid = await tx.select().from(payments).where(and(eq(payments.partId, part.id), inArray(payments.status, APPLIED_PAYMENT_STATUSES)));
      for (const payment of paid) {
        const { refund, runAfterCommit } = await requestRefund(tx, deps.clock, payment, payment.amountCents, 'split_undone', `unsplit:${part.id}`);
        if (runAfterCommit) refundsToRun.push(refund.id);
      }
    }
    await insertPart(tx, deps.clock, o.id, 'share', o.amountToPayCents);
    return o;
  });
  await runRefundsNow(deps, refundsToRun);
  return order;
}
