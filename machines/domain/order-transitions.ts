import type { OrderListFilter, OrderState } from '../../src/domain/orders';
import { nextFlatState, storedStates, storedStatesTagged } from './chart-states';
import { orderMachine, type OrderEvent } from './order.machine';

export type { OrderState };

/**
 * Where an order in `state` goes on `event`, by the chart; null when the chart refuses the change.
 * Pure (xstate's getNextSnapshot): the server's one way to accept or refuse an order change.
 */
export function nextOrderState(state: OrderState, event: OrderEvent['type']): OrderState | null {
  return nextFlatState<OrderState>(orderMachine, state, event);
}

/** Whether the chart allows `event` in `state`. */
export function canApplyOrder(state: OrderState, event: OrderEvent['type']): boolean {
  return nextOrderState(state, event) !== null;
}

/** Every value `orders.state` may hold, from the chart. */
export const ORDER_STORED_STATES = storedStates<OrderState>(orderMachine);

/** Orders still waiting for money (tag `awaitingMoney`): a member has one at a time. */
export const AWAITING_MONEY_STATES = storedStatesTagged<OrderState>(orderMachine, 'awaitingMoney');

/** Orders the 15-minute pay window ends (tag `payWindow`): past their expiresAt they cannot be paid. */
export const PAY_WINDOW_STATES = storedStatesTagged<OrderState>(orderMachine, 'payWindow');

/** Of those, the ones cancelled at their deadline in one transaction: the chart lets them be cancelled and no provider is deciding (a paying one's trade is settled or closed first). */
export const EXPIRING_STATES = PAY_WINDOW_STATES.filter((s) => canApplyOrder(s, 'order.cancel') && !canApplyOrder(s, 'payment.failed'));

/** Orders whose goods the member holds (tag `bought`): the new-customer rule and the limit per person count them. */
export const BOUGHT_STATES = storedStatesTagged<OrderState>(orderMachine, 'bought');

/** Orders that were ever paid (tag `everPaid`): the member's purchase history. */
export const EVER_PAID_STATES = storedStatesTagged<OrderState>(orderMachine, 'everPaid');

/** Orders a member may ask an invoice for (tag `invoiceable`): paid, and no refund under way (decision 044). */
export const INVOICEABLE_STATES = storedStatesTagged<OrderState>(orderMachine, 'invoiceable');

/** Orders a refund was asked for (tag `refundAsked`): under way, failed or done. */
export const REFUND_ASKED_STATES = storedStatesTagged<OrderState>(orderMachine, 'refundAsked');

/**
 * The order states under each tab of the member's order list (decision 096), from the chart's tags:
 * to pay is waiting for money; paid is ever paid with no refund asked; refunds is a refund asked;
 * cancelled is every state neither waiting for money nor ever paid (closed with nothing charged).
 * The four tabs after `all` share no state and together hold every one.
 */
export const ORDER_LIST_STATES: Readonly<Record<OrderListFilter, readonly OrderState[]>> = {
  all: ORDER_STORED_STATES,
  to_pay: AWAITING_MONEY_STATES,
  paid: EVER_PAID_STATES.filter((s) => !REFUND_ASKED_STATES.includes(s)),
  refunds: REFUND_ASKED_STATES,
  cancelled: ORDER_STORED_STATES.filter((s) => !AWAITING_MONEY_STATES.includes(s) && !EVER_PAID_STATES.includes(s)),
};

/** What the server knows when a part of an order has just been paid (decision 021). */
export interface PartPaidFacts {
  /** live shares still unpaid after this one */
  outstandingShares: number;
  /** the order is split (more than one live share) */
  split: boolean;
  /** a friend paid it (through an invitation) */
  byFriend: boolean;
}

/** The order chart's event for a part just paid: more to pay, the last part paid by a friend or of a split order, or the whole order. */
export function partPaidEvent(f: PartPaidFacts): 'part.paid' | 'split.paid' | 'friend.paid' | 'payment.succeeded' {
  if (f.outstandingShares > 0) return 'part.paid';
  if (f.byFriend) return 'friend.paid';
  return f.split ? 'split.paid' : 'payment.succeeded';
}
