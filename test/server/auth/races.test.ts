import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { loginFailures, sessions, smsCodes } from '../../../src/server/db/schema/index';
import { startTestServer } from '../support/harness';
import { memberWithPassword, rows, sendCode } from './support';

// Meaningful on PostgreSQL (TEST_DB=postgres); PGlite runs requests one after another.
describe('concurrent requests cannot overrun the rules', async () => {
  const s = await startTestServer();

  it('ten simultaneous code requests for one phone send exactly one code', async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        s.call('GET', '/api/oauth/valid-code?phone=13400000001', { headers: { 'x-forwarded-for': '192.0.2.50' } }),
      ),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    expect(answers.filter((r) => r.body.code === 10007)).toHaveLength(9);
    expect(await s.deps.db.select().from(smsCodes).where(eq(smsCodes.phone, '13400000001'))).toHaveLength(1);
  });

  it('one code spent by ten simultaneous logins opens exactly one session', async () => {
    s.clock.advance(120_000);
    const code = await sendCode(s, '13400000002');
    const before = await rows(s, sessions);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        s.call('POST', '/api/oauth/login', { body: { username: '13400000002', password: code, loginType: 'code' } }),
      ),
    );
    expect(answers.filter((r) => r.body.code === 200)).toHaveLength(1);
    expect(await rows(s, sessions)).toBe(before + 1);
  });

  it('fifteen simultaneous wrong passwords record exactly ten failures; the rest are 10015', async () => {
    await memberWithPassword(s, '13400000003', 'right-pw');
    const answers = await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        s.call('POST', '/api/oauth/login', { body: { username: '13400000003', password: `wrong-${i}`, loginType: 'password' } }),
      ),
    );
    expect(answers.filter((r) => r.body.code === 10002)).toHaveLength(10);
    expect(answers.filter((r) => r.body.code === 10015)).toHaveLength(5);
    expect(await s.deps.db.select().from(loginFailures).where(eq(loginFailures.phone, '13400000003'))).toHaveLength(10);
  });
});
