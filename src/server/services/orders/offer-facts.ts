import { and, asc, eq, inArray } from 'drizzle-orm';
import { OPEN_INVITATION_STATES } from '../../../../machines/domain/friend-pay-invitation-transitions';
import {
  orderOffers,
  orderRefusal,
  partOffers,
  partRefusal,
  type OfferFacts,
  type OfferRefusal,
  type PartFacts,
} from '../../../../machines/domain/order-offers';
import { OPEN_ATTEMPT_STATES } from '../../../../machines/domain/payment-attempt-transitions';
import { Errors } from '../../../domain/errors';
import type { OrderAction, PartAction, PartHolder } from '../../../domain/orders';
import type { Db, Tx } from '../../db/client';
import { friendInvitations, paymentAttempts } from '../../db/schema/index';
import { ApiError } from '../../http/api-error';
import { liveShares, type PartRow } from './parts';
import type { OrderRow } from './read';
import { pastExpiry } from './state';

/**
 * The facts the offers rule (machines/domain/order-offers.ts) decides on, read from an order's rows:
 * its live shares and who holds each (an open trade, a friend's open link). Handlers read them under
 * the order's lock and refuse by the same rule the order's page is offered by.
 */

export type SharedPart = PartFacts & { part: PartRow; payFailed: boolean };
export type SharedFacts = Omit<OfferFacts, 'shares'> & { shares: readonly SharedPart[] };

/**
 * Who holds each unpaid share now: an open trade (a friend's when it came by an invitation), else an
 * open link; and the shares whose latest trade failed.
 */
async function holdersOf(db: Db | Tx, orderId: number): Promise<{ holders: Map<number, PartHolder>; failed: Set<number> }> {
  const trades = await db
    .select({ partId: paymentAttempts.partId, invitationId: paymentAttempts.invitationId, state: paymentAttempts.state })
    .from(paymentAttempts)
    .where(eq(paymentAttempts.orderId, orderId))
    .orderBy(asc(paymentAttempts.seq));
  const links = await db
    .select({ partId: friendInvitations.partId })
    .from(friendInvitations)
    .where(and(eq(friendInvitations.orderId, orderId), inArray(friendInvitations.state, OPEN_INVITATION_STATES)));
  const holders = new Map<number, PartHolder>(links.map((l) => [l.partId, 'friendLink' as const]));
  const failed = new Set<number>();
  for (const t of trades) {
    if (OPEN_ATTEMPT_STATES.includes(t.state)) holders.set(t.partId, t.invitationId === null ? 'memberTrade' : 'friendTrade');
    // the latest trade of each part decides (trades come by seq)
    if (t.state === 'failed') failed.add(t.partId);
    else failed.delete(t.partId);
  }
  return { holders, failed };
}

/** The offers rule's facts for an order as it is now. */
export async function offerFacts(db: Db | Tx, o: OrderRow, now: Date): Promise<SharedFacts> {
  const { holders, failed } = await holdersOf(db, o.id);
  const shares = (await liveShares(db, o.id)).map((part) => {
    const holder = part.state === 'unpaid' ? (holders.get(part.id) ?? null) : null;
    return { part, seq: part.seq, state: part.state, holder, payFailed: part.state === 'unpaid' && holder === null && failed.has(part.id) };
  });
  return { state: o.state, overdue: pastExpiry(o, now), amountToPayCents: o.amountToPayCents, shares };
}

/** The refusal as the API answers it. */
export function refusal(r: OfferRefusal, field = 'orderNo'): ApiError {
  if (r === 'invalidField') return new ApiError(Errors.invalidField, { field, values: { field } });
  return new ApiError(Errors[r]);
}

/** Throws the rule's refusal of `action` on the order. */
export function mustOffer(f: OfferFacts, action: OrderAction): void {
  const r = orderRefusal(f, action);
  if (r) throw refusal(r);
}

/**
 * The share a payment or a link is for: the one named by `seq`, or the order's only unpaid one (none
 * left: undefined). 70003 (field partSeq) when several are unpaid and none is named, or the one named is
 * not a share of the order.
 */
export function shareNamed(f: SharedFacts, seq: number | undefined): SharedPart | undefined {
  if (seq === undefined) {
    const unpaid = f.shares.filter((p) => p.state === 'unpaid');
    if (unpaid.length > 1) throw refusal('invalidField', 'partSeq');
    return unpaid[0] ?? (f.shares.length === 1 ? f.shares[0] : undefined);
  }
  const found = f.shares.find((p) => p.seq === seq);
  if (!found) throw refusal('invalidField', 'partSeq');
  return found;
}

/** Throws the rule's refusal of `action` on the part. */
export function mustOfferPart(f: OfferFacts, p: PartFacts, action: PartAction): void {
  const r = partRefusal(f, p, action);
  if (r) throw refusal(r);
}

/** What the order's page shows of its offers: the order's actions, and each share's holder and actions by seq. */
export function offersOf(f: SharedFacts) {
  return {
    actions: orderOffers(f),
    parts: new Map(f.shares.map((p) => [p.seq, { holder: p.holder, actions: partOffers(f, p), payFailed: p.payFailed }])),
  };
}
