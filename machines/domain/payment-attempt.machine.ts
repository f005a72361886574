import { setup } from 'xstate';

/** What can happen to one payment attempt (one out_trade_no at one provider). */
export type PaymentAttemptEvent = { type: 'provider.paid' } | { type: 'provider.failed' } | { type: 'attempt.close' };

/**
 * One attempt to collect an order's money at a provider (decision 013). It is open from the moment
 * it is made (before the provider answers) until the provider says it was paid or failed (its
 * notification, the query fallback, or its refusal to create the trade), or we close the trade there
 * (the member pays by another method, the order expires, or the member never got the trade). A
 * failed or closed trade is final at the provider, yet money it took on the way is still recorded:
 * a paid answer after a failure or a close makes the attempt paid (the payment then needs a refund).
 * State names are the stored `payment_attempts.state` values; `open` is tagged `open` (at most one
 * per order, decision 013). The server checks every change against this chart.
 */
export const paymentAttemptMachine = setup({
  types: { events: {} as PaymentAttemptEvent },
}).createMachine({
  id: 'paymentAttempt',
  initial: 'open',
  states: {
    open: {
      description:
        'A trade at a provider (its own out_trade_no) the member may still pay: at most one per order; a repeated tap gets the same trade.',
      tags: ['open'],
      on: {
        'provider.paid': 'paid',
        'provider.failed': 'failed',
        'attempt.close': 'closed',
      },
    },
    failed: {
      description: "The provider said this trade failed, or it never started: a late 'paid' from the provider is still taken.",
      on: { 'provider.paid': 'paid' },
    },
    closed: {
      description: "Closed by us at the provider (the member switched method, or the order ended): a late 'paid' is still recorded.",
      on: { 'provider.paid': 'paid' },
    },
    paid: { description: 'The provider took the money for this trade.', type: 'final' },
  },
});
