/** Order states (spec §4), stored in orders.state; the chart is machines/domain/order.machine.ts. */
export const ORDER_STATES = [
  'unpaid',
  'paying',
  'paid',
  'payment_failed',
  'cancelled',
  'refunding',
  'refunded',
  'refund_failed',
  'friend_paying',
  'fully_paid',
] as const;
export type OrderState = (typeof ORDER_STATES)[number];

/**
 * The tabs of the member's order list (decision 096), the `status` filter of GET /orders/mine: every
 * order, those waiting for the member's money, the paid ones, those with a refund asked for, and the
 * cancelled ones. Which order states each holds is read from the order chart's tags
 * (machines/domain/order-transitions.ts, ORDER_LIST_STATES).
 */
export const ORDER_LIST_FILTERS = ['all', 'to_pay', 'paid', 'refunds', 'cancelled'] as const;
export type OrderListFilter = (typeof ORDER_LIST_FILTERS)[number];

/** Payment part states (decision 021), stored in payment_parts.state; the chart is machines/domain/payment-part.machine.ts. */
export const PAYMENT_PART_STATE_VALUES = ['unpaid', 'paid', 'dropped', 'given_back'] as const;

/** Friend-pay invitation states (decision 021), stored in friend_invitations.state; the chart is machines/domain/friend-pay-invitation.machine.ts. */
export const FRIEND_INVITATION_STATE_VALUES = ['open', 'paid', 'expired', 'withdrawn', 'refunded'] as const;

/** Refund states (decision 021), stored in refunds.state; the chart is machines/domain/refund.machine.ts. */
export const REFUND_STATE_VALUES = ['pending', 'processing', 'failed', 'held', 'succeeded', 'settled'] as const;

export const PAY_METHODS = ['balance', 'wechat', 'alipay'] as const;
export type PayMethod = (typeof PAY_METHODS)[number];

/** The way to pay chosen until the member picks another: the first offered that is not the balance (balance is a toggle). */
export const defaultPayMethod = (methods: readonly PayMethod[]): PayMethod | undefined =>
  methods.find((m) => m !== 'balance') ?? methods[0];

/**
 * The ways offered as choices on the checkout (decision 038): the providers, in the server's order
 * (the one the member paid with last first); the balance is the checkout's one switch, and a choice
 * only when the server offers nothing else.
 */
export const checkoutMethods = (methods: readonly PayMethod[]): PayMethod[] => {
  const providers = methods.filter((m) => m !== 'balance');
  return providers.length > 0 ? providers : [...methods];
};

/** What an order offers its member (its detail's `actions`): the rule is machines/domain/order-offers.ts. */
export const ORDER_ACTIONS = ['pay', 'cancel', 'split', 'unsplit', 'invite'] as const;
export type OrderAction = (typeof ORDER_ACTIONS)[number];

/** What one part of an order offers its member: pay it, send it to a friend, withdraw the friend's link. */
export const PART_ACTIONS = ['pay', 'invite', 'withdraw'] as const;
export type PartAction = (typeof PART_ACTIONS)[number];

/**
 * Who holds an unpaid part now (decision 058): the member's own trade open at a provider, a friend's
 * trade, a friend's open link with no trade yet, or nobody (null).
 */
export const PART_HOLDERS = ['memberTrade', 'friendTrade', 'friendLink'] as const;
export type PartHolder = (typeof PART_HOLDERS)[number];
