import { expect } from 'vitest';
import { classMachine } from '../../../machines/domain/class.machine';
import { classRow, newClass } from '../booking/support';
import { startTestServer } from '../support/harness';
import { defineServerPaths } from '../support/server-paths';

/**
 * The class chart (classes.status) against the server: a class on the timetable is open and listed
 * (GET /customers/classes/schedule for its day) until the club cancels it, which the staff console
 * will do (issue 14); no endpoint cancels a class yet.
 */
const s = await startTestServer({ seed: true });

const DAY = '2026-11-21';

interface Class {
  classId: number;
}

async function listed(w: Class): Promise<boolean> {
  const list = (await s.call('GET', `/api/customers/classes/schedule?date=${DAY}`)).body.data as Array<{ id: number }>;
  return list.some((c) => c.id === w.classId);
}

defineServerPaths<Class>(s, {
  machine: classMachine,
  record: 'a class on the timetable',
  async start() {
    return { classId: (await newClass(s)).id };
  },
  events: {},
  notYetDriven: { 'class.cancel': 'issue 14 (the staff console cancels a class)' },
  async read(w) {
    return { stored: (await classRow(s, w.classId)).status, shown: (await listed(w)) ? 'open' : 'cancelled' };
  },
  states: {
    // on the member's timetable for its day
    open: async (w) => expect(await listed(w)).toBe(true),
    cancelled: () => {
      throw new Error('a club cancelling a class needs the staff console (issue 14): nothing can put a class in this state yet');
    },
  },
});
