import { setup } from 'xstate';

/** What can happen to one card refund request. */
export type CardRefundEvent = { type: 'cardRefund.approve' } | { type: 'cardRefund.reject' } | { type: 'cardRefund.cancel' };

/**
 * One member's request to refund a membership card (spec §4 card refund, §5 "refund requires agreeing
 * to the refund policy"; decision 030). The member asks, having agreed to the policy and seen
 * the amount; staff approve it (in one transaction the card becomes invalid, the order refunding, and
 * each payer's refund is asked for by the way they paid; the money's progress is the order's
 * refunding → refund done / refund failed) or reject it with a reason. The member may cancel it while
 * it waits. State names are the stored `card_refunds.state` values. The server checks every change
 * against this chart.
 */
export const cardRefundMachine = setup({
  types: { events: {} as CardRefundEvent },
}).createMachine({
  id: 'cardRefund',
  initial: 'pending',
  states: {
    pending: {
      description:
        'Pending review: in the staff queue; the member may cancel it; the card cannot be frozen, extended, transferred or refunded again meanwhile.',
      tags: ['open'],
      on: { 'cardRefund.approve': 'approved', 'cardRefund.reject': 'rejected', 'cardRefund.cancel': 'cancelled' },
    },
    approved: {
      description:
        "Approved by staff: the card is invalid and the money goes back to each payer the way they paid (the order's refund states say how far).",
      type: 'final',
    },
    rejected: { description: 'Rejected by staff with the reason the member reads; the card stays as it was.', type: 'final' },
    cancelled: { description: 'Cancelled by the member before a decision; the card stays as it was.', type: 'final' },
  },
});
