import { setup } from 'xstate';

/** What can happen to one friend-pay invitation. */
export type FriendInvitationEvent =
  | { type: 'invitation.paid' }
  | { type: 'invitation.expire' }
  | { type: 'invitation.withdraw' }
  | { type: 'invitation.refund' };

/**
 * One invitation for a friend to pay one part of an order (decision 021): a link with a token the
 * member shares, open for an hour. The friend's payment of the part ends it paid; the hour passing
 * ends it expired; the member withdrawing or merging it, the order cancelled, or the part paid
 * another way ends it withdrawn. When the order no longer keeps the part the friend paid (the split
 * undone, the order cancelled), their money goes back to them and the link says so (refunded).
 * State names are the stored `friend_invitations.state` values; at
 * most one open invitation per part. The server checks every change against this chart.
 */
export const friendPayInvitationMachine = setup({
  types: { events: {} as FriendInvitationEvent },
}).createMachine({
  id: 'friendPayInvitation',
  initial: 'open',
  states: {
    open: {
      description: 'Shared with a friend and not yet paid: the friend may pay the part until the hour is over.',
      tags: ['open'],
      on: { 'invitation.paid': 'paid', 'invitation.expire': 'expired', 'invitation.withdraw': 'withdrawn' },
    },
    paid: { description: 'The friend paid the part: the member sees who paid.', on: { 'invitation.refund': 'refunded' } },
    refunded: {
      description:
        "The order no longer keeps the part the friend paid (the split undone, the order cancelled): the friend's money is on its way back to them.",
      type: 'final',
    },
    expired: { description: 'Not paid within the hour: the friend can no longer pay it.', type: 'final' },
    withdrawn: {
      description: 'Ended by the member (withdrawn or merged), the order cancelled, or the part paid another way.',
      type: 'final',
    },
  },
});
