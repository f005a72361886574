import { setup } from 'xstate';

/** What can happen to one order (issue 4). */
export type OrderEvent =
  | { type: 'order.pay' }
  | { type: 'payment.succeeded' }
  | { type: 'payment.failed' }
  | { type: 'order.cancel' }
  | { type: 'friend.invite' }
  | { type: 'friend.paid' }
  | { type: 'refund.request' }
  | { type: 'refund.succeeded' }
  | { type: 'refund.failed' };

/**
 * The lifecycle of one order (spec §4 order states). An unpaid order is paid by balance at once
 * (`payment.succeeded`), or goes to `paying` with an outside provider until its notification or the
 * query fallback settles it; a failed payment may be retried or the order cancelled. While paying, no
 * second payment starts: paying by another method first closes the open trade at its provider, which
 * fails that payment (`payment.failed`), then pays again (decision 013). An unpaid order may be
 * cancelled; a paying one may not (a notification may still come; the expiry closes its trade first).
 * A friend may pay for an order (friend paying, then fully paid). A paid order may be refunded. State
 * names are the stored `orders.state` values. The server checks every change against this chart; the
 * app reads which actions an order offers.
 */
export const orderMachine = setup({
  types: {
    events: {} as OrderEvent,
  },
}).createMachine({
  id: 'order',
  initial: 'unpaid',
  states: {
    unpaid: {
      on: {
        'order.pay': 'paying',
        'payment.succeeded': 'paid',
        'order.cancel': 'cancelled',
        'friend.invite': 'friend_paying',
      },
    },
    paying: {
      on: {
        'payment.succeeded': 'paid',
        'payment.failed': 'payment_failed',
      },
    },
    payment_failed: {
      on: {
        'order.pay': 'paying',
        'payment.succeeded': 'paid',
        'order.cancel': 'cancelled',
      },
    },
    friend_paying: {
      on: {
        'friend.paid': 'fully_paid',
        'order.cancel': 'cancelled',
      },
    },
    paid: {
      on: { 'refund.request': 'refunding' },
    },
    fully_paid: {
      on: { 'refund.request': 'refunding' },
    },
    refunding: {
      on: {
        'refund.succeeded': 'refunded',
        'refund.failed': 'refund_failed',
      },
    },
    refund_failed: {
      on: { 'refund.request': 'refunding' },
    },
    cancelled: { type: 'final' },
    refunded: { type: 'final' },
  },
});
