import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { accounts } from '../../../src/server/db/schema/index';
import { newMember } from '../booking/support';
import { newStaff } from '../orders/support';
import { startTestServer } from '../support/harness';
import { sendCode } from './support';

/**
 * Members registered by staff at the front desk (decision 045): a default password the configured rule
 * gives the phone (here: prefix "yg" and the last 6 digits); a login with it says so, so the app leads
 * to changing it; the login page reads how it is formed, never a password.
 */
describe('default passwords', async () => {
  const s = await startTestServer({ config: { defaultPassword: { prefix: 'yg', digits: 6 } } });
  const register = (token: string | undefined, body: unknown, headers: Record<string, string> = {}) => s.call('POST', '/api/staff/members', { token, body, headers });
  const login = (phone: string, password: string) => s.call('POST', '/api/oauth/login', { body: { username: phone, password, loginType: 'password' } });
  const accountsWith = (phone: string) => s.deps.db.select().from(accounts).where(eq(accounts.phone, phone));

  it('the login page reads the rule: a prefix and how many of the phone’s last digits, nothing else', async () => {
    const r = await s.call('GET', '/api/oauth/default-password-rule');
    expect(r.body).toEqual({ code: 200, status: true, data: { prefix: 'yg', digits: 6 } });
  });

  it('staff register a member by phone and name; the member logs in with the default password and is told it is the default', async () => {
    const staff = await newStaff(s);
    const r = await register(staff.token, { phone: ' 13911112222 ', name: ' 王小明 ' });
    expect(r.body).toMatchObject({ code: 200, data: { phone: '13911112222', name: '王小明', defaultPassword: { prefix: 'yg', digits: 6 } } });
    const [row] = await accountsWith('13911112222');
    expect([row!.role, row!.name, row!.passwordHash?.startsWith('scrypt$')]).toEqual(['member', '王小明', true]);
    expect(JSON.stringify(r.body)).not.toContain('yg112222');
    const first = await login('13911112222', 'yg112222');
    expect(first.body).toMatchObject({ code: 200, data: { id: r.body.data.id, passwordIsDefault: true } });
    // changed: the next login is no longer with the default
    const changed = await s.call('POST', '/api/customers/password', { token: first.body.token, body: { oldPassword: 'yg112222', newPassword: 'mine-9876' } });
    expect(changed.body.code).toBe(200);
    expect((await login('13911112222', 'mine-9876')).body.data.passwordIsDefault).toBe(false);
    expect((await login('13911112222', 'yg112222')).body.code).not.toBe(200);
  });

  it('a login by code is never told it is the default; another arrangement of the same characters is not the password', async () => {
    const staff = await newStaff(s);
    await register(staff.token, { phone: '13911113333', name: '李四' });
    expect((await login('13911113333', '113333yg')).body.code).not.toBe(200);
    s.clock.advance(2 * 60_000);
    const byCode = await s.call('POST', '/api/oauth/login', { body: { username: '13911113333', password: await sendCode(s, '13911113333'), loginType: 'code' } });
    expect(byCode.body).toMatchObject({ code: 200, data: { passwordIsDefault: false } });
  });

  it('refusals name their field and write nothing: a bad phone 10010, a bad name 70169, a phone with an account 70168', async () => {
    const staff = await newStaff(s);
    const member = await newMember(s);
    const [taken] = await s.deps.db.select({ phone: accounts.phone }).from(accounts).where(eq(accounts.id, member.id));
    const cases = [
      [{ phone: '1391111', name: '张三' }, 400, 10010, 'phone'],
      [{ phone: '13911114444', name: '' }, 400, 70169, 'name'],
      [{ phone: '13911114444', name: '123456' }, 400, 70169, 'name'],
      [{ phone: '13911114444', name: '１２３４５６' }, 400, 70169, 'name'],
      [{ phone: '13911114444', name: '张'.repeat(21) }, 400, 70169, 'name'],
      [{ phone: taken!.phone, name: '张三' }, 409, 70168, 'phone'],
      [{ phone: '13911114444' }, 400, 70003, 'name'],
    ] as const;
    for (const [body, status, code, field] of cases) {
      const r = await register(staff.token, body);
      expect([r.status, r.body.code, r.body.field]).toEqual([status, code, field]);
    }
    expect(await accountsWith('13911114444')).toEqual([]);
    const [still] = await s.deps.db.select().from(accounts).where(eq(accounts.id, member.id));
    expect([still!.name, still!.passwordHash]).toEqual([null, null]);
  });

  it('the refusal is in English for an English caller', async () => {
    const staff = await newStaff(s);
    const r = await s.call('POST', '/api/staff/members', { token: staff.token, body: { phone: '13911115555', name: '9' }, headers: { 'accept-language': 'en' } });
    expect(r.body.code).toBe(70169);
    expect(r.body.message).toMatch(/name/i);
  });

  it('staff only: no token 401, a member 403, and nothing is written', async () => {
    const member = await newMember(s);
    expect((await register(undefined, { phone: '13911116666', name: '赵六' })).status).toBe(401);
    expect((await register(member.token, { phone: '13911116666', name: '赵六' })).status).toBe(403);
    expect(await accountsWith('13911116666')).toEqual([]);
  });

  it('a retry under one Idempotency-Key registers once and answers the same; a double tap writes one account', async () => {
    const staff = await newStaff(s);
    const headers = { 'idempotency-key': 'desk-register-13911117777' };
    const a = await register(staff.token, { phone: '13911117777', name: '孙七' }, headers);
    const b = await register(staff.token, { phone: '13911117777', name: '孙七' }, headers);
    expect([a.body.code, b.body.code]).toEqual([200, 200]);
    expect(b.body.data.id).toBe(a.body.data.id);
    const tap = { 'idempotency-key': 'desk-register-13911118888' };
    const both = await Promise.all([register(staff.token, { phone: '13911118888', name: '周八' }, tap), register(staff.token, { phone: '13911118888', name: '周八' }, tap)]);
    expect(both.map((r) => r.body.code)).toContain(200);
    expect(await accountsWith('13911117777')).toHaveLength(1);
    expect(await accountsWith('13911118888')).toHaveLength(1);
  });
});
