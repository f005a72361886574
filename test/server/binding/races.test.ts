import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openIdBindings } from '../../../src/server/db/schema/index';
import { bindTeacher } from '../../../src/server/services/binding/teacher-bind';
import { startTestServer, usePostgres } from '../support/harness';
import { withoutLocks } from '../support/without-locks';
import { account, issue, newTeacher, openIdTicket, teacherAccountId } from './support';

/**
 * One bind code used by two open ids at the same instant, on PostgreSQL (PGlite is one connection:
 * its transactions never overlap). The binding locks the code's row, so the second decides after the
 * first committed and finds the code used (60003): exactly one open id is bound. The negative control
 * binds on a database handle that takes no locks (`without-locks.ts`), and both open ids get bound to the teacher.
 */
describe.runIf(usePostgres)('bind code races on PostgreSQL', async () => {
  const s = await startTestServer({ seed: true });
  const staff = await account(s, 'staff');

  async function race(viaApi: boolean) {
    const t = await newTeacher(s);
    const { code } = await issue(s, staff.token, t);
    const a = await openIdTicket(s);
    const b = await openIdTicket(s);
    const outcomes = viaApi
      ? (await Promise.all([a, b].map((me) => s.call('POST', '/api/bind/teacher', { body: { code, openid: me.ticket } })))).map(
          (r) => r.body.code as number,
        )
      : (
          await Promise.allSettled([a, b].map((me) => bindTeacher({ ...s.deps, db: withoutLocks(s.deps.db) }, { code, openid: me.ticket })))
        ).map((o) => (o.status === 'fulfilled' ? 200 : -1));
    const bound = await s.deps.db
      .select()
      .from(openIdBindings)
      .where(eq(openIdBindings.accountId, await teacherAccountId(s, t)));
    return { outcomes, bound: bound.length };
  }

  it('two open ids with one code at once: exactly one binds, the other is told the code is used (60003)', async () => {
    for (let round = 0; round < 10; round++) {
      const { outcomes, bound } = await race(true);
      expect(outcomes.sort()).toEqual([200, 60003]);
      expect(bound).toBe(1);
    }
  });

  it('negative control: without the locks the same race binds both open ids to the teacher', { retry: 2 }, async () => {
    let doubled = false;
    for (let round = 0; round < 30 && !doubled; round++) doubled = (await race(false)).bound === 2;
    expect(doubled).toBe(true);
  });
});
