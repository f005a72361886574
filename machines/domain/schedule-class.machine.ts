import { setup } from 'xstate';

/** What can happen to a scheduled class. */
export type ClassEvent = { type: 'class.cancel' };

/**
 * A class on the timetable: open (listed, bookable by its rules), until the club cancels it
 * (staff console). State names are the stored `classes.status` values; the states a
 * member's timetable lists are tagged `listed`.
 */
export const scheduleClassMachine = setup({
  types: { events: {} as ClassEvent },
}).createMachine({
  id: 'scheduleClass',
  initial: 'open',
  states: {
    open: {
      description: 'On the schedule: members see it and book or queue for it; what they are offered follows the clock and the seats left.',
      tags: ['listed'],
      on: { 'class.cancel': 'cancelled' },
    },
    cancelled: { description: 'Called off by the club: no longer listed or bookable.', type: 'final' },
  },
});
