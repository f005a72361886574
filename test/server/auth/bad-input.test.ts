import { describe, expect, it } from 'vitest';
import { accounts, loginFailures, openIdTickets, resetTickets, sessions, smsCodes } from '../../../src/server/db/schema/index';
import { startTestServer } from '../support/harness';
import { codeLogin, memberWithPassword, rows } from './support';

describe('bad input to the auth endpoints: a 4xx naming the field, nothing written', async () => {
  const s = await startTestServer();
  await memberWithPassword(s, '13100000001', 'secret-1');
  const member = await codeLogin(s, '13100000002');
  const token = member.body.token as string;
  const tables = [accounts, sessions, smsCodes, loginFailures, resetTickets, openIdTickets];
  const snapshot = async () => Promise.all(tables.map((t) => rows(s, t)));

  const cases: {
    name: string;
    path: string;
    body?: unknown;
    raw?: string;
    headers?: Record<string, string>;
    auth?: boolean;
    field?: string;
    status?: number;
  }[] = [
    {
      name: 'login without loginType',
      path: '/api/oauth/login',
      body: { username: '13100000001', password: 'secret-1' },
      field: 'loginType',
    },
    {
      name: 'login with a numeric username',
      path: '/api/oauth/login',
      body: { username: 13100000001, password: 'secret-1', loginType: 'password' },
      field: 'username',
    },
    {
      name: 'login with a numeric password',
      path: '/api/oauth/login',
      body: { username: '13100000001', password: 123456, loginType: 'code' },
      field: 'password',
    },
    {
      name: 'login with loginType as an array',
      path: '/api/oauth/login',
      body: { username: '13100000001', password: 'secret-1', loginType: ['password'] },
      field: 'loginType',
    },
    {
      name: 'login with a 10 kB username',
      path: '/api/oauth/login',
      body: { username: '1'.repeat(10_000), password: 'x', loginType: 'password' },
      field: 'username',
    },
    { name: 'login with a JSON array', path: '/api/oauth/login', body: [1, 2] },
    { name: 'login with broken JSON', path: '/api/oauth/login', raw: '{"username": "131', field: 'body' },
    { name: 'login with an empty body', path: '/api/oauth/login', raw: '' },
    { name: 'login as text/plain', path: '/api/oauth/login', raw: 'username=13100000001', headers: { 'content-type': 'text/plain' } },
    { name: 'token/verify without token', path: '/api/oauth/token/verify', body: {}, field: 'token' },
    { name: 'token/verify with a numeric token', path: '/api/oauth/token/verify', body: { token: 42 }, field: 'token' },
    {
      name: 'resetPasswordVerify without the code',
      path: '/api/oauth/resetPasswordVerify',
      body: { username: '13100000001' },
      field: 'password',
    },
    { name: 'resetPassword with a numeric password', path: '/api/oauth/resetPassword', body: { password: 12345678 }, field: 'password' },
    {
      name: 'change password without newPassword',
      path: '/api/customers/password',
      body: { oldPassword: 'secret-1' },
      auth: true,
      field: 'newPassword',
    },
    { name: 'change password with broken JSON', path: '/api/customers/password', raw: '{oldPassword:', auth: true, field: 'body' },
  ];

  for (const c of cases) {
    it(`${c.name}: 4xx${c.field ? ` naming ${c.field}` : ''}`, async () => {
      const before = await snapshot();
      const r = await s.call('POST', c.path, { body: c.body, raw: c.raw, headers: c.headers, token: c.auth ? token : undefined });
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
      expect(r.body).toMatchObject({ status: false, data: null });
      expect(typeof r.body.code).toBe('number');
      if (c.field) expect(r.body.field).toBe(c.field);
      expect(r.headers.getSetCookie()).toEqual([]);
      expect(await snapshot()).toEqual(before);
    });
  }

  it('an oversized body is 413 (70005) and writes nothing', async () => {
    const before = await snapshot();
    const big = JSON.stringify({
      username: '13100000001',
      password: 'secret-1',
      loginType: 'password',
      pad: 'x'.repeat(s.deps.config.bodyLimitBytes),
    });
    for (const path of ['/api/oauth/login', '/api/oauth/token/verify', '/api/oauth/resetPassword']) {
      const r = await s.call('POST', path, { raw: big });
      expect(r.status).toBe(413);
      expect(r.body).toMatchObject({ code: 70005, status: false });
    }
    expect(await snapshot()).toEqual(before);
  });

  it('extra fields are ignored, not stored', async () => {
    const r = await s.call('POST', '/api/oauth/login', {
      body: { username: '13100000001', password: 'secret-1', loginType: 'password', role: 'staff', level: '9' },
    });
    expect(r.body.code).toBe(200);
    expect(r.body.data).toMatchObject({ role: 'member', level: '2' });
  });

  it('a javascript: avatar given while binding an open id is not kept', async () => {
    const origin = s.deps.config.publicUrl;
    const start = await s.app.request(`${origin}/api/oauth/wechat/authorize?from=/`);
    const authorize = new URL(start.headers.get('location')!);
    authorize.searchParams.set('as', 'o_mallory');
    const provider = await s.app.request(authorize.toString());
    const back = await s.app.request(provider.headers.get('location')!);
    const ticket = decodeURIComponent(back.headers.getSetCookie()[0]!.split(';')[0]!.slice('openId='.length));
    const r = await s.call('POST', '/api/oauth/login', {
      body: {
        username: '13100000001',
        password: 'secret-1',
        loginType: 'password',
        openid: ticket,
        weixinPicture: 'javascript:alert(1)',
        nicName: 'M',
      },
    });
    expect(r.body.data).toMatchObject({ wxBound: true, wxAvatar: null, wxNickname: 'M' });
  });
});
