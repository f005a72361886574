import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sessions } from '../../../src/server/db/schema/index';
import { banAccount } from '../../../src/server/services/auth/accounts';
import { hashSecret } from '../../../src/server/services/auth-tokens';
import { startTestServer } from '../support/harness';
import { codeLogin, cookies, DAY, MINUTE, setBanned } from './support';

describe('sessions: logout, token verify, my profile, booked count', async () => {
  const s = await startTestServer();
  const verify = (token: string) => s.call('POST', '/api/oauth/token/verify', { body: { token } });
  const INVALID = { valid: false, id: null, level: null };

  it('POST /oauth/token/verify answers valid with id and level for a live token', async () => {
    const { body } = await codeLogin(s, '13500000001');
    const r = await verify(body.token);
    expect(r.body).toEqual({ code: 200, status: true, data: { valid: true, id: body.data.id, level: '2' } });
  });

  it('answers valid false, and nothing else, for an unknown or empty token', async () => {
    expect((await verify('not-a-token')).body.data).toEqual(INVALID);
    expect((await verify('')).body.data).toEqual(INVALID);
  });

  it('logout revokes the session server-side and clears the seven cookies', async () => {
    s.clock.advance(MINUTE);
    const { body } = await codeLogin(s, '13500000002');
    const out = await s.call('POST', '/api/oauth/logout', { token: body.token });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ code: 200, status: true, data: null });
    const c = cookies(out.headers);
    expect(Object.keys(c).sort()).toEqual(['customerId', 'openId', 'token', 'userLevel', 'username', 'wxAvatar', 'wxNicName']);
    for (const line of Object.values(c)) expect(line).toMatch(/^[A-Za-z]+=; Max-Age=0; Path=\//);
    const [row] = await s.deps.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, hashSecret(body.token)));
    expect(row!.revokedAt).not.toBeNull();
    expect((await verify(body.token)).body.data).toEqual(INVALID);
    const me = await s.call('GET', '/api/customers/me', { token: body.token });
    expect(me.status).toBe(401);
    expect(me.body.code).toBe(401);
    expect((await s.call('POST', '/api/oauth/logout', { token: body.token })).status).toBe(401);
  });

  it('logout ends only that session: the same member on another device stays in', async () => {
    s.clock.advance(MINUTE);
    const a = await codeLogin(s, '13500000003');
    s.clock.advance(MINUTE);
    const b = await codeLogin(s, '13500000003');
    await s.call('POST', '/api/oauth/logout', { token: a.body.token });
    expect((await verify(b.body.token)).body.data.valid).toBe(true);
  });

  it('a token expires 300 days after its login', async () => {
    s.clock.advance(MINUTE);
    const { body } = await codeLogin(s, '13500000004');
    s.clock.advance(300 * DAY - 1000);
    expect((await verify(body.token)).body.data.valid).toBe(true);
    s.clock.advance(1000);
    expect((await verify(body.token)).body.data).toEqual(INVALID);
    expect((await s.call('GET', '/api/customers/me', { token: body.token })).status).toBe(401);
  });

  it('a banned account is out at once (its tokens are revoked and refused)', async () => {
    s.clock.advance(MINUTE);
    const { body } = await codeLogin(s, '13500000005');
    await banAccount(s.deps.db, body.data.id, s.clock);
    expect((await verify(body.token)).body.data).toEqual(INVALID);
    expect((await s.call('GET', '/api/customers/me', { token: body.token })).status).toBe(401);
    const [row] = await s.deps.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, hashSecret(body.token)));
    expect(row!.revokedAt).not.toBeNull();
  });

  it('a ban set directly on the account row also refuses its live tokens', async () => {
    s.clock.advance(MINUTE);
    const { body } = await codeLogin(s, '13500000006');
    await setBanned(s, body.data.id);
    expect((await verify(body.token)).body.data).toEqual(INVALID);
    expect((await s.call('GET', '/api/customers/me', { token: body.token })).status).toBe(401);
  });

  it("GET /customers/me answers the caller's own profile", async () => {
    s.clock.advance(MINUTE);
    const { body } = await codeLogin(s, '13500000007');
    const r = await s.call('GET', '/api/customers/me', { token: body.token });
    expect(r.body).toEqual({
      code: 200,
      status: true,
      data: {
        id: body.data.id,
        username: '13500000007',
        phone: '13500000007',
        level: '2',
        role: 'member',
        name: null,
        wxAvatar: null,
        wxNickname: null,
        avatarUrl: null,
      },
    });
  });

  it('GET /customers/classes/schedule/booked/count answers 0 (a number) for a member, 401 for a visitor', async () => {
    s.clock.advance(MINUTE);
    const { body } = await codeLogin(s, '13500000008');
    const r = await s.call('GET', '/api/customers/classes/schedule/booked/count', { token: body.token });
    expect(r.body).toEqual({ code: 200, status: true, data: 0 });
    const visitor = await s.call('GET', '/api/customers/classes/schedule/booked/count');
    expect(visitor.status).toBe(401);
    expect(visitor.body.code).toBe(401);
  });

  it('tokens asked at once (one statement for the turn) are each answered for their own session', async () => {
    s.clock.advance(MINUTE);
    const a = (await codeLogin(s, '13500000011')).body;
    const b = (await codeLogin(s, '13500000012')).body;
    const out = (await codeLogin(s, '13500000013')).body;
    const banned = (await codeLogin(s, '13500000014')).body;
    const old = (await codeLogin(s, '13500000015')).body;
    const c = (await codeLogin(s, '13500000016')).body;
    await s.call('POST', '/api/oauth/logout', { token: out.token });
    await setBanned(s, banned.data.id);
    await s.deps.db
      .update(sessions)
      .set({ expiresAt: s.clock.now() })
      .where(eq(sessions.tokenHash, hashSecret(old.token)));
    const tokens = [a.token, b.token, out.token, c.token, banned.token, a.token, old.token, 'not-a-token', b.token];
    const answers = await Promise.all(tokens.map((token) => s.call('GET', '/api/customers/me', { token })));
    expect(answers.map((r) => (r.status === 200 ? r.body.data.id : r.status))).toEqual([
      a.data.id,
      b.data.id,
      401,
      c.data.id,
      401,
      a.data.id,
      401,
      401,
      b.data.id,
    ]);
  });

  it('every auth endpoint is in /api/openapi.json', async () => {
    const doc = (await s.call('GET', '/api/openapi.json')).body;
    for (const path of [
      '/api/oauth/login',
      '/api/oauth/valid-code',
      '/api/oauth/logout',
      '/api/oauth/token/verify',
      '/api/oauth/resetPasswordVerify',
      '/api/oauth/resetPassword',
      '/api/customers/password',
      '/api/customers/me',
      '/api/customers/classes/schedule/booked/count',
      '/api/oauth/wechat/authorize',
      '/api/oauth/wechat/callback',
      '/api/dev/sms/{phone}',
      '/api/dev/wechat/connect/oauth2/authorize',
      '/api/dev/wechat/sns/oauth2/access_token',
      '/api/dev/wechat/sns/userinfo',
      '/api/dev/wechat/identity',
    ]) {
      expect(doc.paths[path], path).toBeDefined();
    }
  });
});
