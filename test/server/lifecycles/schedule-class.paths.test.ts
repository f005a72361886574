import { expect } from 'vitest';
import { scheduleClassMachine } from '../../../machines/domain/schedule-class.machine';
import { classRow, newClass } from '../booking/support';
import { newStaff } from '../orders/support';
import { startTestServer } from '../support/harness';
import { defineServerPaths } from '../support/server-paths';

/**
 * The class chart (classes.status) against the server: a class on the timetable is open and listed
 * (GET /customers/classes/schedule for its day) until staff cancel it on the console
 * (POST /api/staff/classes/{id}/cancel, decision 041): then it is off the timetable, and a second
 * cancel is refused (70167).
 */
const s = await startTestServer({ seed: true });

const DAY = '2026-11-21';

interface Class {
  classId: number;
  staff: { id: number; token: string };
}

async function listed(w: Class): Promise<boolean> {
  const list = (await s.call('GET', `/api/customers/classes/schedule?date=${DAY}`)).body.data as Array<{ id: number }>;
  return list.some((c) => c.id === w.classId);
}

defineServerPaths<Class>(s, {
  machine: scheduleClassMachine,
  record: 'a class on the timetable',
  async start() {
    return { classId: (await newClass(s)).id, staff: await newStaff(s) };
  },
  events: {
    'class.cancel': async (w) => {
      const r = await s.call('POST', `/api/staff/classes/${w.classId}/cancel`, { token: w.staff.token, body: {} });
      expect(r.body.code).toBe(200);
    },
  },
  async read(w) {
    return { stored: (await classRow(s, w.classId)).status, shown: (await listed(w)) ? 'open' : 'cancelled' };
  },
  states: {
    // on the member's timetable for its day
    open: async (w) => expect(await listed(w)).toBe(true),
    // off the timetable, and the chart's final state: cancelling again is refused
    cancelled: async (w) => {
      expect(await listed(w)).toBe(false);
      expect((await s.call('POST', `/api/staff/classes/${w.classId}/cancel`, { token: w.staff.token, body: {} })).body.code).toBe(70167);
    },
  },
});
