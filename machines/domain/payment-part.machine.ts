import { setup } from 'xstate';

/** What can happen to one payment part (what one payer pays of one order). */
export type PaymentPartEvent = { type: 'part.paid' } | { type: 'part.end' };

/**
 * One part of an order's money (decision 021): the balance deduction made at checkout (seq 0, paid
 * at once), or one share of the amount to pay (the whole order's one share, or one of 2-10 split
 * parts). One payer pays it (the member by balance or a provider, or a friend). A part's amount
 * never changes: a split, merge or un-split drops parts and makes new ones. When the order no longer keeps a part (a split,
 * merge or un-split replaces it, the order is cancelled) the part ends: dropped when nothing was paid,
 * given back when it was, and then refunded to its payer. State names are the stored
 * `payment_parts.state` values; `live` parts make up the order, `outstanding` ones still wait for
 * money. The server checks every change against this chart.
 */
export const paymentPartMachine = setup({
  types: { events: {} as PaymentPartEvent },
}).createMachine({
  id: 'paymentPart',
  initial: 'unpaid',
  states: {
    unpaid: {
      description: 'Waiting for its payer: the member pays it by balance or a provider, or a friend is invited to.',
      tags: ['live', 'outstanding'],
      on: { 'part.paid': 'paid', 'part.end': 'dropped' },
    },
    paid: {
      description: "Its payment was applied: the money is the order's (the deduction is paid when the order is made).",
      tags: ['live'],
      on: { 'part.end': 'given_back' },
    },
    dropped: {
      description: 'Replaced or ended unpaid (a split, a merge, an un-split, the order cancelled): nothing to give back.',
      type: 'final',
    },
    given_back: {
      description: 'Paid, then the order no longer keeps it (cancelled, or the split undone): its payment is refunded to its payer.',
      type: 'final',
    },
  },
});
