import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { activitySignups } from '../../../src/server/db/schema/index';
import { signUp as signUpService } from '../../../src/server/services/activities/signup';
import { newMember } from '../orders/support';
import { startTestServer, usePostgres } from '../support/harness';
import { withoutLocks } from '../support/without-locks';
import { newActivity, signUp } from './support';

/**
 * The last activity place (decision 033), on PostgreSQL only: PGlite is one connection, so its
 * transactions never overlap (STACK-NOTES.md). Each request runs on its own pooled connection. The
 * negative control runs the same sign-up without the activity's row lock and shows the test would
 * catch an oversell.
 */
describe.runIf(usePostgres)('activity sign-up races on PostgreSQL', async () => {
  const s = await startTestServer({ seed: true });
  const taken = async (id: number) => (await s.deps.db.select().from(activitySignups).where(eq(activitySignups.activityId, id))).length;
  const members = async (n: number) => Promise.all(Array.from({ length: n }, () => newMember(s)));

  it('gives the last place to exactly one of 20 members tapping at once; the others are told it is full', async () => {
    const a = await newActivity(s, 3);
    for (const m of await members(2)) expect((await signUp(s, m.token, a.id)).status).toBe(200);
    const racers = await members(20);
    const answers = await Promise.all(racers.map((m) => signUp(s, m.token, a.id)));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    expect(answers.filter((r) => r.status !== 200).map((r) => r.body.code)).toEqual(Array(19).fill(70151));
    expect(await taken(a.id)).toBe(3);
  });

  it('negative control: without the row lock the same race oversells the last place', { retry: 2 }, async () => {
    let oversold = 0;
    for (let round = 0; round < 5 && oversold === 0; round++) {
      const a = await newActivity(s, 1);
      const racers = await members(20);
      await Promise.allSettled(racers.map((m) => signUpService(withoutLocks(s.deps.db), s.clock, m.id, a.id)));
      oversold = (await taken(a.id)) - 1;
    }
    expect(oversold).toBeGreaterThan(0);
  });
});
