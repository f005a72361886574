import type { OrderAction, OrderState, PartAction, PartHolder } from '../../src/domain/orders';
import { splittable } from '../../src/domain/split';
import { canApplyOrder, EVER_PAID_STATES } from './order-transitions';
import type { PaymentPartState } from './payment-part-transitions';

/**
 * What an order and each of its parts offer, and why anything else is refused (decision 058): the one
 * rule the order's page reads (`actions`) and the pay, split, unsplit, invite, withdraw and cancel
 * handlers check under the order's lock, so an offered action is never refused for the order's state.
 * Each part pays on its own: a trade open for one part (the member's or a friend's) holds that part
 * only. Refusals are named by their catalogue key (src/domain/errors.ts) so this module loads without
 * Lingui.
 */

/** One live share of an order as the rule sees it. */
export interface PartFacts {
  seq: number;
  state: PaymentPartState;
  /** who holds it while unpaid (a trade open, a friend's link), or null */
  holder: PartHolder | null;
}

/** What the server knows of an order when it decides what it offers. */
export interface OfferFacts {
  state: OrderState;
  /** past its pay deadline: it can only be cancelled */
  overdue: boolean;
  amountToPayCents: number;
  /** its live shares by seq (none when the balance deduction paid it all) */
  shares: readonly PartFacts[];
}

export type OfferRefusal =
  | 'orderCancelled'
  | 'orderAlreadyPaid'
  | 'orderExpired'
  | 'orderNotPayable'
  | 'orderNotCancellable'
  | 'orderAlreadySplit'
  | 'splitPartTooLarge'
  | 'friendAlreadyActed'
  | 'invitationOver'
  | 'friendPayNotNeeded'
  | 'invalidField';

const FRIEND_HOLDERS: ReadonlyArray<PartHolder | null> = ['friendTrade', 'friendLink'];

/** A friend holds the part (their link is open, or their trade). */
export const heldByFriend = (p: PartFacts): boolean => FRIEND_HOLDERS.includes(p.holder);

/** The order is paid as one (its one share, or nothing left after the deduction): its trade is the order's (`paying`). */
export const paidAsOne = (f: OfferFacts): boolean => f.shares.length <= 1;

/** What refuses any change of an order's money: cancelled, paid, past its deadline. */
function closedRefusal(f: OfferFacts): OfferRefusal | null {
  if (f.state === 'cancelled') return 'orderCancelled';
  if (EVER_PAID_STATES.includes(f.state)) return 'orderAlreadyPaid';
  if (f.overdue) return 'orderExpired';
  return null;
}

/**
 * Why the member may not pay this part now (null: they may). A friend's part is the friend's; the
 * member's own open trade is paid again (the same trade, or another method after closing it: decision
 * 013). The whole order's trade moves it to paying; a part's leaves it waiting for its other parts.
 */
export function partPayRefusal(f: OfferFacts, p: PartFacts): OfferRefusal | null {
  const closed = closedRefusal(f);
  if (closed) return closed;
  if (p.state === 'paid') return 'orderAlreadyPaid';
  if (p.state !== 'unpaid') return 'orderNotPayable';
  if (heldByFriend(p)) return 'friendAlreadyActed';
  if (paidAsOne(f))
    return (f.state === 'paying' && p.holder === 'memberTrade') || canApplyOrder(f.state, 'order.pay') ? null : 'orderNotPayable';
  return canApplyOrder(f.state, 'part.pay') ? null : 'orderNotPayable';
}

/**
 * Why this part may not be sent to a friend now (null: it may; asked again while its link is open, the
 * same link answers). A part the member is paying at a provider stays theirs until that trade ends.
 */
export function partInviteRefusal(f: OfferFacts, p: PartFacts): OfferRefusal | null {
  const closed = closedRefusal(f);
  if (closed) return closed;
  if (p.state === 'paid') return 'orderAlreadyPaid';
  if (p.state !== 'unpaid') return 'orderNotPayable';
  if (p.holder === 'friendLink' || p.holder === 'friendTrade') return null;
  if (p.holder === 'memberTrade' || !canApplyOrder(f.state, 'friend.invite')) return 'orderNotPayable';
  return null;
}

/** Why the friend's link for this part may not be withdrawn (null: it may, also while the friend's trade is open: it is ended first). */
export function partWithdrawRefusal(p: PartFacts): OfferRefusal | null {
  return heldByFriend(p) ? null : 'invitationOver';
}

/** Why `action` on the part is refused now; null when it is accepted. */
export function partRefusal(f: OfferFacts, p: PartFacts, action: PartAction): OfferRefusal | null {
  if (action === 'pay') return partPayRefusal(f, p);
  if (action === 'invite') return partInviteRefusal(f, p);
  return partWithdrawRefusal(p);
}

/** What one part offers its member: exactly the actions its refusals accept, less a repeated invitation (its link is shown instead). */
export function partOffers(f: OfferFacts, p: PartFacts): PartAction[] {
  const out: PartAction[] = [];
  if (!partPayRefusal(f, p)) out.push('pay');
  if (!partInviteRefusal(f, p) && p.holder === null) out.push('invite');
  if (!partWithdrawRefusal(p)) out.push('withdraw');
  return out;
}

/** Why `action` on the whole order is refused now; null when it is accepted. */
export function orderRefusal(f: OfferFacts, action: OrderAction): OfferRefusal | null {
  if (action === 'cancel') return canApplyOrder(f.state, 'order.cancel') ? null : 'orderNotCancellable';
  const closed = closedRefusal(f);
  if (closed) return closed;
  switch (action) {
    case 'pay':
      // nothing left after the deduction: the balance call settles it
      if (f.shares.length === 0) return f.amountToPayCents === 0 && canApplyOrder(f.state, 'payment.succeeded') ? null : 'orderNotPayable';
      if (f.shares.every((p) => p.state === 'paid')) return 'orderAlreadyPaid';
      return f.shares.some((p) => !partPayRefusal(f, p))
        ? null
        : f.shares.some((p) => p.state === 'unpaid' && heldByFriend(p))
          ? 'friendAlreadyActed'
          : 'orderNotPayable';
    case 'split': {
      if (f.shares.length > 1) return 'orderAlreadySplit';
      const [whole] = f.shares;
      if (!whole || whole.state !== 'unpaid' || whole.holder !== null || !canApplyOrder(f.state, 'order.pay'))
        return whole && heldByFriend(whole) ? 'friendAlreadyActed' : 'orderNotPayable';
      return splittable(f.amountToPayCents) ? null : 'splitPartTooLarge';
    }
    case 'unsplit':
      if (f.shares.length < 2) return 'invalidField';
      // the friends' links are withdrawn and every open trade ended first: money taken meanwhile is applied, then given back
      return canApplyOrder(f.state, 'part.pay') ? null : 'orderNotPayable';
    case 'invite':
      if (f.amountToPayCents <= 0) return 'friendPayNotNeeded';
      return f.shares.some((p) => !partInviteRefusal(f, p)) ? null : 'orderNotPayable';
  }
}

/** What the order offers its member (its page's buttons): exactly the actions its refusals accept. */
export function orderOffers(f: OfferFacts): OrderAction[] {
  const actions: OrderAction[] = ['pay', 'cancel', 'split', 'unsplit', 'invite'];
  return actions.filter((a) => {
    if (orderRefusal(f, a)) return false;
    // inviting is offered while a part is free for a friend (one with a friend shows its link)
    if (a === 'invite') return f.shares.some((p) => p.holder === null && !partInviteRefusal(f, p));
    return true;
  });
}
