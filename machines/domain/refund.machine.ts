import { setup } from 'xstate';

/** What can happen to one refund. */
export type RefundEvent =
  | { type: 'provider.accepted' }
  | { type: 'refund.succeeded' }
  | { type: 'refund.failed' }
  | { type: 'refund.retry' }
  | { type: 'refund.closed' }
  | { type: 'refund.release' }
  | { type: 'refund.settle' };

/**
 * One refund: money given back of one payment (decision 021), for one cause (an order cancelled, a
 * split undone, money that arrived for nothing, a wrong amount, a card refund). A balance refund is
 * a ledger credit and succeeds in the transaction that asks for it. A provider refund is asked of
 * the provider by a job: it may be accepted and still processing, succeed, or fail (the provider's
 * code and words are kept for staff and the member), and a failed one is tried again hourly until
 * it succeeds or staff settle it another way. Refunds made from the money staff were told to return
 * by hand before refunds existed wait `held` for staff. State names are the stored `refunds.state`
 * values. The server checks every change against this chart.
 */
export const refundMachine = setup({
  types: { events: {} as RefundEvent },
}).createMachine({
  id: 'refund',
  initial: 'pending',
  states: {
    pending: {
      description:
        'Asked for, not yet accepted by the provider: the refund job asks it (again under the same number after a transient error).',
      tags: ['inFlight'],
      on: { 'provider.accepted': 'processing', 'refund.succeeded': 'succeeded', 'refund.failed': 'failed', 'refund.closed': 'pending' },
    },
    processing: {
      description: 'The provider accepted it and is paying it out: its notification or the refund query says how it ended.',
      tags: ['inFlight'],
      on: { 'refund.succeeded': 'succeeded', 'refund.failed': 'failed', 'refund.closed': 'pending' },
    },
    failed: {
      description:
        'The provider refused or could not pay it out: its reason is shown to staff and the member; it is tried again hourly until it succeeds or staff settle it.',
      tags: ['attention'],
      on: { 'refund.retry': 'pending', 'refund.succeeded': 'succeeded', 'refund.settle': 'settled' },
    },
    held: {
      description:
        'Money staff were told to refund by hand before refunds existed (migrated): waits for staff to release it to the provider or settle it, so nothing is returned twice.',
      tags: ['attention'],
      on: { 'refund.release': 'pending', 'refund.settle': 'settled' },
    },
    succeeded: {
      description: 'The money is back with its payer (the balance credited, or the provider paid it out).',
      type: 'final',
      tags: ['returned'],
    },
    settled: {
      description: 'Staff gave the money back another way and recorded it: nothing more is asked of the provider.',
      type: 'final',
      tags: ['returned'],
    },
  },
});
