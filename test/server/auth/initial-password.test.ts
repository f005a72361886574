import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { INITIAL_PASSWORD_ALPHABET, INITIAL_PASSWORD_LENGTH } from '../../../src/domain/initial-password';
import { isPhoneDerivedPassword } from '../../../src/domain/phone-derived-password';
import { accounts, idempotencyKeys } from '../../../src/server/db/schema/index';
import { newMember } from '../booking/support';
import { newStaff } from '../orders/support';
import { startTestServer } from '../support/harness';
import { memberWithPassword, sendCode } from './support';

/**
 * Members registered by staff at the front desk (decision 054): a random initial password shown once
 * to the desk, stored only hashed; the first password login with it opens a session that may only set
 * a new password (and log out), every other call answering 10016; phone-derived passwords (decision
 * 045's old defaults) are refused as expired (10017), and the member sets a new one by SMS code.
 */
describe('initial passwords', async () => {
  const s = await startTestServer();
  const register = (token: string | undefined, body: unknown, headers: Record<string, string> = {}) =>
    s.call('POST', '/api/staff/members', { token, body, headers });
  const login = (phone: string, password: string) =>
    s.call('POST', '/api/oauth/login', { body: { username: phone, password, loginType: 'password' } });
  const accountsWith = (phone: string) => s.deps.db.select().from(accounts).where(eq(accounts.phone, phone));
  const blocked = [
    '/api/customers/classes/schedule/booked/count',
    '/api/orders/mine',
    '/api/customers/cards',
    '/api/customers/me',
    '/api/customers/coupons',
  ];

  it('the public rule endpoint of decision 045 is gone', async () => {
    expect((await s.call('GET', '/api/oauth/default-password-rule')).status).toBe(404);
  });

  it('staff register a member: the answer holds a random initial password, stored only as its hash, not formed from the phone', async () => {
    const staff = await newStaff(s);
    const form = await s.call('GET', '/api/staff/members/form', { token: staff.token });
    expect(form.body).toEqual({ code: 200, status: true, data: { initialPasswordLength: INITIAL_PASSWORD_LENGTH } });
    const r = await register(staff.token, { phone: ' 13911112222 ', name: ' 王小明 ' });
    expect(r.body).toMatchObject({ code: 200, data: { phone: '13911112222', name: '王小明' } });
    const pw = r.body.data.initialPassword as string;
    expect(pw).toHaveLength(INITIAL_PASSWORD_LENGTH);
    expect([...pw].every((ch) => INITIAL_PASSWORD_ALPHABET.includes(ch))).toBe(true);
    expect(isPhoneDerivedPassword('13911112222', pw)).toBe(false);
    const [row] = await accountsWith('13911112222');
    expect([
      row!.role,
      row!.name,
      row!.passwordHash?.startsWith('scrypt$'),
      row!.passwordHash?.includes(pw),
      row!.passwordMustChange,
    ]).toEqual(['member', '王小明', true, false, true]);
    // none of the old defaults opens it
    for (const old of ['112222', '11112222', 'yg112222', '13911112222']) expect((await login('13911112222', old)).body.code).toBe(10017);
  });

  it('no password is derivable from a phone: two members, two unrelated passwords, none kept for a replay', async () => {
    const staff = await newStaff(s);
    const a = await register(staff.token, { phone: '13911113331', name: '甲' }, { 'idempotency-key': 'desk-register-13911113331' });
    const b = await register(staff.token, { phone: '13911113332', name: '乙' });
    const [pa, pb] = [a.body.data.initialPassword as string, b.body.data.initialPassword as string];
    expect(pa).not.toBe(pb);
    expect(pa.replace(/\d/g, '')).not.toBe('');
    expect(JSON.stringify(await s.deps.db.select().from(idempotencyKeys))).not.toContain(pa);
    // a retry of the same registration is refused, never answered with the password again
    const again = await register(staff.token, { phone: '13911113331', name: '甲' }, { 'idempotency-key': 'desk-register-13911113331' });
    expect([again.status, again.body.code, JSON.stringify(again.body).includes(pa)]).toEqual([409, 70168, false]);
  });

  it('the first login answers "must change"; until it is changed every other call is refused 10016; changing it lifts that', async () => {
    const staff = await newStaff(s);
    const pw = (await register(staff.token, { phone: '13911114444', name: '张三' })).body.data.initialPassword as string;
    const first = await login('13911114444', pw);
    expect(first.body).toMatchObject({ code: 200, data: { name: '张三', mustChangePassword: true } });
    const token = first.body.token as string;
    for (const path of blocked) {
      const r = await s.call('GET', path, { token });
      expect([path, r.status, r.body.code]).toEqual([path, 403, 10016]);
    }
    const refused = await s.call('GET', '/api/orders/mine', { token, headers: { 'accept-language': 'en' } });
    expect(refused.body.message).toMatch(/new password/i);
    expect((await s.call('POST', '/api/customers/classes/book', { token, body: { classId: 1, cardId: 1 } })).body.code).toBe(10016);
    // a file a plain link opens (token header or cookie) is refused alike
    expect((await s.call('GET', '/api/customers/classes/ics?id=1', { token })).body.code).toBe(10016);
    // a public page sees a visitor, not the member
    expect((await s.call('GET', '/api/school/clubs', { token })).body.code).toBe(200);
    // the new password may not be formed from the phone either
    const derived = await s.call('POST', '/api/customers/password', { token, body: { oldPassword: pw, newPassword: 'abc14444' } });
    expect([derived.status, derived.body.code, derived.body.field]).toEqual([400, 10018, 'newPassword']);
    const changed = await s.call('POST', '/api/customers/password', { token, body: { oldPassword: pw, newPassword: 'mine-9876' } });
    expect(changed.body.code).toBe(200);
    for (const path of blocked) expect([path, (await s.call('GET', path, { token })).body.code]).toEqual([path, 200]);
    const [row] = await accountsWith('13911114444');
    expect(row!.passwordMustChange).toBe(false);
    expect((await login('13911114444', 'mine-9876')).body.data.mustChangePassword).toBe(false);
    expect((await login('13911114444', pw)).body.code).toBe(10002);
  });

  it('such a session may log out; a code login is not held to it, and a password set by reset also lifts it', async () => {
    const staff = await newStaff(s);
    const pw = (await register(staff.token, { phone: '13911115555', name: '李四' })).body.data.initialPassword as string;
    const first = await login('13911115555', pw);
    expect((await s.call('POST', '/api/oauth/logout', { token: first.body.token })).body.code).toBe(200);
    expect((await s.call('GET', '/api/customers/me', { token: first.body.token })).status).toBe(401);
    s.clock.advance(2 * 60_000);
    const byCode = await s.call('POST', '/api/oauth/login', {
      body: { username: '13911115555', password: await sendCode(s, '13911115555'), loginType: 'code' },
    });
    expect(byCode.body).toMatchObject({ code: 200, data: { mustChangePassword: false } });
    expect((await s.call('GET', '/api/customers/me', { token: byCode.body.token })).body.code).toBe(200);
    s.clock.advance(2 * 60_000);
    const ticket = (
      await s.call('POST', '/api/oauth/resetPasswordVerify', {
        body: { username: '13911115555', password: await sendCode(s, '13911115555') },
      })
    ).body.data.ticket as string;
    expect((await s.call('POST', '/api/oauth/resetPassword', { token: ticket, body: { password: 'ab5555' } })).body.code).toBe(10018);
    expect((await s.call('POST', '/api/oauth/resetPassword', { token: ticket, body: { password: 'reset-pass-1' } })).body.code).toBe(200);
    const after = await login('13911115555', 'reset-pass-1');
    expect(after.body).toMatchObject({ code: 200, data: { mustChangePassword: false } });
  });

  it('a phone-derived password is refused as expired, right or wrong alike; the member logs in by code and sets a new one', async () => {
    const phone = '13922226666';
    await memberWithPassword(s, phone, 'yg226666');
    const right = await login(phone, 'yg226666');
    const wrong = await login(phone, 'zz226666');
    expect([right.status, right.body.code, right.body.field]).toEqual([403, 10017, 'password']);
    expect([wrong.status, wrong.body.code]).toEqual([403, 10017]);
    expect(right.body.message).toBe('由手机号组成的密码已失效，请用验证码登录并设置新密码');
    const byCode = await s.call('POST', '/api/oauth/login', {
      body: { username: phone, password: await sendCode(s, phone), loginType: 'code' },
    });
    expect(byCode.body.code).toBe(200);
    const set = await s.call('POST', '/api/customers/password', {
      token: byCode.body.token,
      body: { oldPassword: 'yg226666', newPassword: 'own-pass-77' },
    });
    expect(set.body.code).toBe(200);
    expect((await login(phone, 'own-pass-77')).body.code).toBe(200);
  });

  it('refusals name their field and write nothing: a bad phone 10010, a bad name 70169, a phone with an account 70168', async () => {
    const staff = await newStaff(s);
    const member = await newMember(s);
    const [taken] = await s.deps.db.select({ phone: accounts.phone }).from(accounts).where(eq(accounts.id, member.id));
    const cases = [
      [{ phone: '1391111', name: '张三' }, 400, 10010, 'phone'],
      [{ phone: '13911117777', name: '' }, 400, 70169, 'name'],
      [{ phone: '13911117777', name: '123456' }, 400, 70169, 'name'],
      [{ phone: '13911117777', name: '张'.repeat(21) }, 400, 70169, 'name'],
      [{ phone: taken!.phone, name: '张三' }, 409, 70168, 'phone'],
      [{ phone: '13911117777' }, 400, 70003, 'name'],
    ] as const;
    for (const [body, status, code, field] of cases) {
      const r = await register(staff.token, body);
      expect([r.status, r.body.code, r.body.field]).toEqual([status, code, field]);
    }
    expect(await accountsWith('13911117777')).toEqual([]);
    const [still] = await s.deps.db.select().from(accounts).where(eq(accounts.id, member.id));
    expect([still!.name, still!.passwordHash]).toEqual([null, null]);
  });

  it('staff only: no token 401, a member 403, and nothing is written; a double tap writes one account', async () => {
    const member = await newMember(s);
    expect((await register(undefined, { phone: '13911116666', name: '赵六' })).status).toBe(401);
    expect((await register(member.token, { phone: '13911116666', name: '赵六' })).status).toBe(403);
    expect(await accountsWith('13911116666')).toEqual([]);
    const staff = await newStaff(s);
    const both = await Promise.all([
      register(staff.token, { phone: '13911118888', name: '周八' }),
      register(staff.token, { phone: '13911118888', name: '周八' }),
    ]);
    expect(both.map((r) => r.body.code).sort()).toEqual([200, 70168]);
    expect(await accountsWith('13911118888')).toHaveLength(1);
  });
});
