import { setup } from 'xstate';

/** What can happen to one card-transfer application. */
export type TransferEvent =
  | { type: 'transfer.take' }
  | { type: 'transfer.approve' }
  | { type: 'transfer.reject' }
  | { type: 'transfer.cancel' };

/**
 * One application to transfer a membership card to another member (spec §3, §4 transfer application,
 * decision 026). The member applies with the recipient's name, ID number, ID photo and photo; staff
 * take it for review, then approve it (the card becomes transferred and the recipient gets a card
 * with what was left) or reject it with a reason. The member may cancel it while it waits. State
 * names are the stored `card_transfers.state` values. The server checks every change against this chart.
 */
export const cardTransferApplicationMachine = setup({
  types: { events: {} as TransferEvent },
}).createMachine({
  id: 'cardTransferApplication',
  initial: 'pending',
  states: {
    pending: {
      description: 'Pending review: in the staff queue; the member may cancel it; the card cannot be applied for again.',
      tags: ['open'],
      on: { 'transfer.take': 'reviewing', 'transfer.cancel': 'cancelled' },
    },
    reviewing: {
      description: 'Under review: a staff member took it; it is approved or rejected with a reason; the member can no longer cancel it.',
      tags: ['open'],
      on: { 'transfer.approve': 'approved', 'transfer.reject': 'rejected' },
    },
    approved: {
      description:
        'Approved: the card is transferred and the recipient holds a new card with its uses and validity end; both were notified.',
      type: 'final',
    },
    rejected: {
      description: 'Rejected by staff with the reason the member reads; the card stays the member’s and may be applied for again.',
      type: 'final',
    },
    cancelled: { description: 'Cancelled by the member before review; the card stays theirs.', type: 'final' },
  },
});
