import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { accounts } from '../../../src/server/db/schema/index';
import { createFirstAdmin, FirstAdminRefused, randomPassword } from '../../../src/server/setup/first-admin';
import { startTestServer } from '../support/harness';

describe('the first administrator (create-admin)', () => {
  it('is a staff account with a random password, created once, that logs in and reaches the staff console', async () => {
    const s = await startTestServer();
    const { id, password } = await createFirstAdmin(
      s.deps.db,
      s.clock,
      { phone: ' 13900000001 ', name: '陈店长' },
      s.deps.config.passwordScryptN,
    );
    const [row] = await s.deps.db.select().from(accounts).where(eq(accounts.id, id));
    expect(row).toMatchObject({ phone: '13900000001', name: '陈店长', role: 'staff' });
    expect(row!.passwordHash).not.toContain(password);
    expect(password).not.toMatch(/0001|1390/);
    const login = await s.call('POST', '/api/oauth/login', { body: { username: '13900000001', password, loginType: 'password' } });
    expect(login.body.code).toBe(200);
    expect((await s.call('GET', '/api/staff/bind-codes', { token: login.body.token })).status).toBe(200);
    // a second run is refused whatever the phone: later staff come from the staff console
    await expect(createFirstAdmin(s.deps.db, s.clock, { phone: '13900000002', name: '李四' })).rejects.toThrow(
      /a staff account exists already/,
    );
  });

  it('refuses a bad phone, a bad name and a phone that already has an account, writing nothing', async () => {
    const s = await startTestServer();
    await expect(createFirstAdmin(s.deps.db, s.clock, { phone: '12345', name: '陈店长' })).rejects.toThrow(
      /^--phone: not a mainland mobile number/,
    );
    await expect(createFirstAdmin(s.deps.db, s.clock, { phone: '13900000003', name: '12345' })).rejects.toBeInstanceOf(FirstAdminRefused);
    await s.deps.db.insert(accounts).values({ phone: '13900000004', role: 'member', createdAt: s.clock.now() });
    await expect(createFirstAdmin(s.deps.db, s.clock, { phone: '13900000004', name: '陈店长' })).rejects.toThrow(/already has an account/);
    expect(await s.deps.db.select().from(accounts).where(eq(accounts.role, 'staff'))).toEqual([]);
  });

  it('makes passwords of 12 characters from a look-alike-free alphabet, never twice the same', () => {
    const seen = new Set(Array.from({ length: 200 }, () => randomPassword()));
    expect(seen.size).toBe(200);
    for (const p of seen) expect(p).toMatch(/^[a-hjkmnp-zA-HJ-NP-Y3467]{12}$/);
  });
});
