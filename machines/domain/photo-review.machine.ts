import { setup } from 'xstate';

/** What happens to a member's check-in photo. */
export type PhotoReviewEvent =
  | { type: 'photo.upload' }
  | { type: 'photo.pass' }
  | { type: 'photo.reject' }
  | { type: 'photo.allowAnother' };

/**
 * The member's check-in photo (spec §4 photo review: under review, rejected, passed; decision 007).
 * A member with no photo uploads one; staff pass or reject it; a rejected member uploads again.
 * Under review or passed, another upload goes through the front desk (spec §5 "upload only once
 * unless staff are contacted"): staff allow another from the console (decision 042), and until the
 * member sends it the passed photo still counts. The same photo is the member's avatar (/mine/setavatar,
 * decision 042). The server checks uploads and reviews against this chart. A member with
 * no photo has no row (`none`, tagged `noRecord`); the other states are the stored `member_photos.state`.
 */
export const photoReviewMachine = setup({
  types: { events: {} as PhotoReviewEvent },
}).createMachine({
  id: 'photoReview',
  initial: 'none',
  states: {
    none: {
      description: 'No photo yet: the member is asked for a front photo. Never stored.',
      tags: ['noRecord'],
      on: { 'photo.upload': 'reviewing' },
    },
    reviewing: {
      description: 'Uploaded: staff review it; the member sees it under review and cannot upload another.',
      on: { 'photo.pass': 'passed', 'photo.reject': 'rejected' },
    },
    rejected: {
      description: 'Staff rejected it with a reason the member sees; the member can upload again.',
      on: { 'photo.upload': 'reviewing' },
    },
    passed: {
      description: "Staff passed it: the photo the front desk checks at check-in and the member's avatar on Mine.",
      on: { 'photo.allowAnother': 'reopened' },
    },
    reopened: {
      description:
        'Passed, and staff allowed another upload (the member asked them): the photo still counts until the member uploads a new one.',
      on: { 'photo.upload': 'reviewing' },
    },
  },
});
