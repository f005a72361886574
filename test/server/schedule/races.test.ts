import { describe, expect, it } from 'vitest';
import { confirmClass, declineClass } from '../../../src/server/services/schedule/teacher-schedule';
import { DAY, newClass } from '../booking/support';
import { newStaff } from '../orders/support';
import { startTestServer, usePostgres } from '../support/harness';
import { withoutGuards, withoutLocks } from '../support/without-locks';
import { assign, newTeacher, noticesAbout, scheduleRow, teacherCall } from './support';

/**
 * A teacher's double tap or two devices answering at once, on PostgreSQL (PGlite is one connection):
 * the class's state changes once. An answer locks the class row and updates on the state it read
 * (decision 029); the negative control answers without the lock and the state condition, and both
 * answers then pass.
 */
describe.runIf(usePostgres)('teacher schedule races on PostgreSQL', async () => {
  const s = await startTestServer({ seed: true });
  let n = 0;

  async function asked() {
    const title = `竞态课${++n}`;
    const cls = await newClass(s, {
      teacherId: null,
      teacherState: 'not_started',
      title,
      titleEn: title,
      startsAt: new Date(s.clock.now().getTime() + 3 * DAY),
    });
    const staff = await newStaff(s);
    const teacher = await newTeacher(s);
    expect((await assign(s, staff.token, cls.id, teacher.id)).body.code).toBe(200);
    return { cls, title, staff, teacher };
  }

  it('two confirms at once: one 200, one 60050', async () => {
    for (let round = 0; round < 5; round++) {
      const { cls, teacher } = await asked();
      const answers = await Promise.all([
        teacherCall(s, teacher.token, 'confirm', cls.id),
        teacherCall(s, teacher.token, 'confirm', cls.id),
      ]);
      expect(answers.map((r) => r.body.code).sort()).toEqual([200, 60050]);
      expect((await scheduleRow(s, cls.id)).teacherState).toBe('confirmed');
    }
  });

  it('a confirm and a decline at once: one wins, the stored state is the winner’s, staff told only if the decline won', async () => {
    for (let round = 0; round < 6; round++) {
      const { cls, teacher, staff, title } = await asked();
      const [c, d] = await Promise.all([
        teacherCall(s, teacher.token, 'confirm', cls.id),
        teacherCall(s, teacher.token, 'decline', cls.id, { reason: '临时有事' }),
      ]);
      expect([c.body.code, d.body.code].sort()).toEqual([200, 60050]);
      const declined = d.body.code === 200;
      expect((await scheduleRow(s, cls.id)).teacherState).toBe(declined ? 'unconfirmed' : 'confirmed');
      expect(await noticesAbout(s, staff.id, title)).toBe(declined ? 1 : 0);
    }
  });

  it('negative control: without the lock and the state condition both answers pass', { retry: 2 }, async () => {
    let both = false;
    for (let round = 0; round < 30 && !both; round++) {
      const { cls, teacher } = await asked();
      const now = s.clock.now();
      const unsafe = withoutLocks(s.deps.db);
      const outcomes = await withoutGuards(() =>
        Promise.allSettled([
          confirmClass(unsafe, now, teacher.accountId, cls.id),
          declineClass(unsafe, now, teacher.accountId, cls.id, '临时有事'),
        ]),
      );
      both = outcomes.every((o) => o.status === 'fulfilled');
    }
    expect(both).toBe(true);
  });
});
