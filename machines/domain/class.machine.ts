import { setup } from 'xstate';

/** What can happen to a scheduled class. */
export type ClassEvent = { type: 'class.cancel' };

/**
 * A class on the timetable: open (listed, bookable by its rules), until the club cancels it
 * (staff console, issue 14). State names are the stored `classes.status` values; the states a
 * member's timetable lists are tagged `listed`.
 */
export const classMachine = setup({
  types: { events: {} as ClassEvent },
}).createMachine({
  id: 'class',
  initial: 'open',
  states: {
    open: {
      tags: ['listed'],
      on: { 'class.cancel': 'cancelled' },
    },
    cancelled: { type: 'final' },
  },
});
