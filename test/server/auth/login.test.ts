import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { accounts, loginFailures, sessions } from '../../../src/server/db/schema/index';
import { hashSecret } from '../../../src/server/services/auth-tokens';
import { startTestServer } from '../support/harness';
import { codeLogin, cookies, cookieValue, HOUR, memberWithPassword, MINUTE, rows, sendCode, setBanned } from './support';

describe('POST /api/oauth/login', async () => {
  const s = await startTestServer();
  const login = (body: Record<string, unknown>) => s.call('POST', '/api/oauth/login', { body });

  describe('by password', () => {
    it('answers code 200, status true, the token at the top level and the profile in data', async () => {
      const id = await memberWithPassword(s, '13800000001', 'secret-1', { level: '1', name: '林' });
      const r = await login({ username: ' 13800000001 ', password: ' secret-1 ', loginType: 'password' });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({
        code: 200,
        status: true,
        data: { id, level: '1', username: '13800000001', role: 'member', name: '林' },
      });
      expect(r.body.token).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(JSON.stringify(r.body)).not.toContain('scrypt');
      const [row] = await s.deps.db
        .select()
        .from(sessions)
        .where(eq(sessions.tokenHash, hashSecret(r.body.token)));
      expect(row?.accountId).toBe(id);
      expect(row!.expiresAt.getTime() - s.clock.now().getTime()).toBe(300 * 24 * HOUR);
    });

    it('sets the seven session cookies, readable by the app, for 300 days', async () => {
      const r = await login({ username: '13800000001', password: 'secret-1', loginType: 'password' });
      const c = cookies(r.headers);
      expect(Object.keys(c).sort()).toEqual(['customerId', 'openId', 'token', 'userLevel', 'username', 'wxAvatar', 'wxNicName']);
      for (const line of Object.values(c)) {
        expect(line).toContain('Max-Age=25920000');
        expect(line).toContain('Path=/');
        expect(line).toContain('SameSite=Lax');
        expect(line).not.toMatch(/HttpOnly/i);
        expect(line).not.toMatch(/Secure/i); // publicUrl is http in tests
      }
      expect(cookieValue(c.token)).toBe(r.body.token);
      expect(cookieValue(c.username)).toBe('13800000001');
      expect(cookieValue(c.userLevel)).toBe('1');
      expect(cookieValue(c.customerId)).toBe(String(r.body.data.id));
    });

    it('gives a new token for every login', async () => {
      const a = await login({ username: '13800000001', password: 'secret-1', loginType: 'password' });
      const b = await login({ username: '13800000001', password: 'secret-1', loginType: 'password' });
      expect(a.body.token).not.toBe(b.body.token);
    });

    it('refuses a wrong password with 10002 (HTTP 400, never 401) and an unknown phone the same way', async () => {
      const wrong = await login({ username: '13800000001', password: 'secret-2', loginType: 'password' });
      const unknown = await login({ username: '13899999999', password: 'secret-1', loginType: 'password' });
      for (const r of [wrong, unknown]) {
        expect(r.status).toBe(400);
        expect(r.body).toMatchObject({ code: 10002, status: false, data: null });
        expect(r.headers.getSetCookie()).toEqual([]);
      }
      expect(wrong.body.message).toBe(unknown.body.message);
    });

    it('refuses an invalid phone with 10010 naming username, and a 5- or 16-character password with 10011', async () => {
      const phone = await login({ username: '12345', password: 'secret-1', loginType: 'password' });
      expect(phone.status).toBe(400);
      expect(phone.body).toMatchObject({ code: 10010, field: 'username' });
      for (const password of ['12345', '1234567890123456', '']) {
        const r = await login({ username: '13800000001', password, loginType: 'password' });
        expect(r.body).toMatchObject({ code: 10011, field: 'password' });
      }
    });

    it('refuses a member who only ever used codes (no password) with 10002', async () => {
      await codeLogin(s, '13800000009');
      const r = await login({ username: '13800000009', password: 'anything', loginType: 'password' });
      expect(r.body.code).toBe(10002);
    });
  });

  describe('more than 10 wrong passwords in an hour (10015)', () => {
    it('locks the phone for the rest of the hour, even for the right password, then lets it in again', async () => {
      await memberWithPassword(s, '13800000002', 'right-pw');
      for (let i = 0; i < 10; i++) {
        const r = await login({ username: '13800000002', password: `wrong-${i}`, loginType: 'password' });
        expect(r.body.code).toBe(10002);
        s.clock.advance(MINUTE);
      }
      const eleventh = await login({ username: '13800000002', password: 'wrong-x', loginType: 'password' });
      expect(eleventh.status).toBe(429);
      expect(eleventh.body.code).toBe(10015);
      const right = await login({ username: '13800000002', password: 'right-pw', loginType: 'password' });
      expect(right.body.code).toBe(10015);
      expect(await s.deps.db.select().from(loginFailures).where(eq(loginFailures.phone, '13800000002'))).toHaveLength(10);
      // the first failure was 10 minutes ago: 50 more minutes and it leaves the window
      s.clock.advance(HOUR - 10 * MINUTE + 1);
      const after = await login({ username: '13800000002', password: 'right-pw', loginType: 'password' });
      expect(after.body.code).toBe(200);
    });

    it('counts per phone: another phone is not locked', async () => {
      await memberWithPassword(s, '13800000003', 'right-pw');
      for (let i = 0; i < 10; i++) await login({ username: '13800000004', password: `wrong-${i}`, loginType: 'password' });
      expect((await login({ username: '13800000004', password: 'wrong-x', loginType: 'password' })).body.code).toBe(10015);
      expect((await login({ username: '13800000003', password: 'right-pw', loginType: 'password' })).body.code).toBe(200);
    });
  });

  describe('by code', () => {
    it("creates the member on a phone's first code login, and finds the same member next time", async () => {
      const before = await rows(s, accounts);
      const first = await codeLogin(s, '13900000001');
      expect(await rows(s, accounts)).toBe(before + 1);
      expect(first.body.data).toMatchObject({ username: '13900000001', level: '2', role: 'member' });
      s.clock.advance(2 * MINUTE);
      const again = await codeLogin(s, '13900000001');
      expect(again.body.data.id).toBe(first.body.data.id);
      expect(await rows(s, accounts)).toBe(before + 1);
    });

    it('refuses a wrong code with 10003 and creates nobody', async () => {
      await sendCode(s, '13900000002');
      const before = await rows(s, accounts);
      const r = await login({ username: '13900000002', password: '000000', loginType: 'code' });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe(10003);
      expect(await rows(s, accounts)).toBe(before);
    });

    it('refuses a code login without any code sent (10003) and a malformed code (10003)', async () => {
      expect((await login({ username: '13900000003', password: '123456', loginType: 'code' })).body.code).toBe(10003);
      expect((await login({ username: '13900000003', password: 'abc', loginType: 'code' })).body.code).toBe(10003);
    });
  });

  describe('banned members (10006, HTTP 403)', () => {
    it('refuses a banned member by password and by code, but only after the secret is right', async () => {
      const id = await memberWithPassword(s, '13800000005', 'right-pw');
      await setBanned(s, id);
      const wrong = await login({ username: '13800000005', password: 'wrong-pw', loginType: 'password' });
      expect(wrong.body.code).toBe(10002);
      const pw = await login({ username: '13800000005', password: 'right-pw', loginType: 'password' });
      expect(pw.status).toBe(403);
      expect(pw.body.code).toBe(10006);
      const code = await sendCode(s, '13800000005');
      const byCode = await login({ username: '13800000005', password: code, loginType: 'code' });
      expect(byCode.status).toBe(403);
      expect(byCode.body.code).toBe(10006);
    });
  });

  it('refuses an unknown login type with 10005 naming loginType', async () => {
    const r = await login({ username: '13800000001', password: 'secret-1', loginType: 'face' });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 10005, field: 'loginType' });
  });

  it('answers the envelope in English when asked', async () => {
    const r = await s.call('POST', '/api/oauth/login', {
      body: { username: '13800000001', password: 'secret-2', loginType: 'password' },
      headers: { 'accept-language': 'en-US,en;q=0.9' },
    });
    expect(r.body.code).toBe(10002);
    expect(typeof r.body.message).toBe('string');
  });
});

describe('session cookies on an https origin', async () => {
  const s = await startTestServer({ config: { publicUrl: 'https://club.example' } });
  it('are Secure', async () => {
    await memberWithPassword(s, '13800000001', 'secret-1');
    const r = await s.call('POST', '/api/oauth/login', { body: { username: '13800000001', password: 'secret-1', loginType: 'password' } });
    const lines = Object.values(cookies(r.headers));
    expect(lines).toHaveLength(7);
    for (const line of lines) expect(line).toContain('; Secure');
  });
});
