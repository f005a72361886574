import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { accountClosings, auditLog } from '../../../src/server/db/schema/index';
import { requestClosing } from '../../../src/server/services/account-closing/account-closing';
import { newMember, newStaff } from '../orders/support';
import { startTestServer, usePostgres } from '../support/harness';
import { withoutLocks } from '../support/without-locks';
import { askClosing, confirmClosing } from './closing-support';

/**
 * Closing races on PostgreSQL (decision 057; PGlite is one connection): two asks at once open one
 * request (the account's lock; without it the partial unique index, and the loser is 10035, never a
 * 500); two confirms at once erase once and audit once (the request's row lock; the loser is 10036).
 */
describe.runIf(usePostgres)('account closing races on PostgreSQL', async () => {
  const s = await startTestServer({ seed: true });
  const answer = (r: { status: number; body: { code: number } }) => (r.status === 200 ? '200' : `${r.status} ${r.body.code}`);
  const open = async (accountId: number) =>
    (await s.deps.db.select().from(accountClosings).where(eq(accountClosings.accountId, accountId))).filter((r) => r.state === 'requested');

  it('two asks at once: one request, the other 10035', async () => {
    for (let i = 0; i < 6; i++) {
      const m = await newMember(s);
      const answers = await Promise.all([askClosing(s, m.token), askClosing(s, m.token)]);
      expect(answers.map(answer).sort()).toEqual(['200', '409 10035']);
      expect(await open(m.id)).toHaveLength(1);
    }
  });

  it('without the lock the unique index still keeps one request, and the loser is 10035, not a 500', async () => {
    for (let i = 0; i < 6; i++) {
      const m = await newMember(s);
      const send = () =>
        requestClosing(withoutLocks(s.deps.db), s.clock, m.id, null).then(
          () => '200',
          (err: { def?: { http: number; code: number } }) => (err.def ? `${err.def.http} ${err.def.code}` : String(err)),
        );
      expect((await Promise.all([send(), send()])).sort()).toEqual(['200', '409 10035']);
      expect(await open(m.id)).toHaveLength(1);
    }
  });

  it('two confirms at once: erased once, audited once, the other 10036', async () => {
    for (let i = 0; i < 4; i++) {
      const m = await newMember(s);
      const id = (await askClosing(s, m.token)).body.data.id as number;
      const [a, b] = [await newStaff(s), await newStaff(s)];
      const answers = await Promise.all([confirmClosing(s, a.token, id), confirmClosing(s, b.token, id)]);
      expect(answers.map(answer).sort()).toEqual(['200', '409 10036']);
      const entries = (await s.deps.db.select().from(auditLog).where(eq(auditLog.subjectId, id))).filter(
        (e) => e.action === 'account-closing.confirm',
      );
      expect(entries).toHaveLength(1);
    }
  });
});
