import { setup } from 'xstate';

/** What can happen to one complaint. */
export type ComplaintEvent =
  | { type: 'complaint.overdue' }
  | { type: 'complaint.reply' }
  | { type: 'complaint.satisfied' }
  | { type: 'complaint.unsatisfied' };

/**
 * A member's complaint (spec §3 complaint: content, replied or not, satisfied or not; §5 content not
 * empty; decision 033). The member files it (optionally naming a club, with photos); staff of
 * that club reply from the console; the member is notified, reads the reply and says whether they are
 * satisfied. A complaint still unanswered 48 hours after it was filed is flagged to staff (the
 * `complaint.overdue` job moves it to `overdue`, first in their queue). State names are the stored
 * `complaints.state` values; the server checks every change against this chart.
 */
export const complaintMachine = setup({
  types: { events: {} as ComplaintEvent },
}).createMachine({
  id: 'complaint',
  initial: 'filed',
  states: {
    filed: {
      description: 'Filed, waiting for a reply: in the queue of the club\'s staff; the member sees "not replied".',
      tags: ['awaitingReply'],
      on: { 'complaint.overdue': 'overdue', 'complaint.reply': 'replied' },
    },
    overdue: {
      description: 'Unanswered for 48 hours: flagged to staff, first in their queue; the member still sees "not replied".',
      tags: ['awaitingReply'],
      on: { 'complaint.reply': 'replied' },
    },
    replied: {
      description: 'Staff replied: the member was notified, reads the reply and says whether they are satisfied.',
      on: { 'complaint.satisfied': 'satisfied', 'complaint.unsatisfied': 'unsatisfied' },
    },
    satisfied: { description: 'The member is satisfied with the reply.', tags: ['rated'], type: 'final' },
    unsatisfied: { description: 'The member is not satisfied with the reply (staff see it so).', tags: ['rated'], type: 'final' },
  },
});
