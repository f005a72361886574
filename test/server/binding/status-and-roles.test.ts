import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { teachers } from '../../../src/server/db/schema/index';
import { createApp } from '../../../src/server/app';
import type { Db } from '../../../src/server/db/client';
import { startTestServer } from '../support/harness';
import { account, issue, newTeacher, openIdTicket } from './support';

describe('what /bindPage reads, and who may call the staff binding endpoints', async () => {
  const s = await startTestServer({ seed: true });
  const staff = await account(s, 'staff');

  it('status: an open id from the silent login here, and the binding once bound (teacher)', async () => {
    const me = await openIdTicket(s);
    expect((await s.call('GET', '/api/bind/status')).body.data).toEqual({ openIdPresent: false, binding: null, request: null });
    expect((await s.call('GET', `/api/bind/status?openid=${me.ticket}`)).body.data.openIdPresent).toBe(true);
    expect((await s.call('GET', '/api/bind/status', { headers: { cookie: `openId=${me.ticket}` } })).body.data.openIdPresent).toBe(true);
    const t = await newTeacher(s, '顾老师');
    const token = (await s.call('POST', '/api/bind/teacher', { body: { code: (await issue(s, staff.token, t)).code, openid: me.ticket } }))
      .body.token;
    const st = (await s.call('GET', '/api/bind/status', { token })).body.data;
    expect(st).toMatchObject({ openIdPresent: false, binding: { role: 'teacher', name: '顾老师', teacherId: t } });
    // in English the teacher is named by the catalogue's English name where it has one
    await s.deps.db.update(teachers).set({ nameEn: 'Gu Mei' }).where(eq(teachers.id, t));
    const en = (await s.call('GET', '/api/bind/status', { token, headers: { 'Accept-Language': 'en' } })).body.data;
    expect(en.binding.name).toBe('Gu Mei');
    const member = await account(s, 'member');
    expect(
      (await s.call('GET', '/api/bind/status', { token: member.token })).body.data.binding,
      'a member has no teacher or staff binding',
    ).toBe(null);
  });

  it('staff in English see the teachers by their English names, in the teacher list and on the bind codes', async () => {
    const t = await newTeacher(s, '宋老师');
    await s.deps.db.update(teachers).set({ nameEn: 'Song Yu' }).where(eq(teachers.id, t));
    await issue(s, staff.token, t);
    const en = { 'Accept-Language': 'en' };
    const list = (await s.call('GET', '/api/staff/teachers', { token: staff.token, headers: en })).body.data as {
      id: number;
      name: string;
    }[];
    expect(list.find((r) => r.id === t)?.name).toBe('Song Yu');
    const codes = (await s.call('GET', '/api/staff/bind-codes', { token: staff.token, headers: en })).body.data as {
      teacherName: string;
    }[];
    expect(codes[0]?.teacherName).toBe('Song Yu');
    // in Chinese, the Chinese name
    const zh = (await s.call('GET', '/api/staff/teachers', { token: staff.token })).body.data as { id: number; name: string }[];
    expect(zh.find((r) => r.id === t)?.name).toBe('宋老师');
  });

  it('query failed: the binding lookup itself failing answers 60009 (503) with its message, never a 500', async () => {
    const broken = new Proxy(s.deps.db, {
      get(target, prop, receiver) {
        if (prop === 'select' || prop === 'transaction')
          return () => {
            throw new Error('connection terminated');
          };
        return Reflect.get(target, prop, receiver);
      },
    }) as Db;
    const app = createApp({ ...s.deps, db: broken });
    const r = await app.request(`/api/bind/status?openid=${(await openIdTicket(s)).ticket}`);
    const body = (await r.json()) as { code: number; message: string };
    expect([r.status, body.code]).toEqual([503, 60009]);
    expect(body.message).toBe('查询绑定信息失败，请重试');
    const bind = await app.request('/api/bind/teacher', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: 'ABCDEFGH', openid: 'x' }),
    });
    expect(
      [bind.status, ((await bind.json()) as { code: number }).code],
      'a binding that cannot reach the database: bind failed, retry',
    ).toEqual([409, 60008]);
  });

  // DESIGN.md §4: a missing token is 401 (the app sends the visitor to log in); a token of the wrong role is 403
  const staffEndpoints: Array<[string, string, Record<string, unknown>?]> = [
    ['GET', '/api/staff/teachers'],
    ['GET', '/api/staff/bind-codes'],
    ['POST', '/api/staff/bind-codes', { teacherId: 1 }],
    ['POST', '/api/staff/bind-codes/revoke', { id: 1 }],
    ['GET', '/api/staff/teacher-requests'],
    ['GET', '/api/staff/teacher-requests/1/photo'],
    ['POST', '/api/staff/teacher-requests/confirm', { id: 1 }],
    ['POST', '/api/staff/teacher-requests/refuse', { id: 1, reason: 'x' }],
    ['GET', '/api/staff/bindings'],
    ['POST', '/api/staff/bindings/unbind', { accountId: 1 }],
  ];

  it.each(staffEndpoints)('%s %s: 403 to a member and to a teacher, 401 without a token', async (method, path, body) => {
    const member = await account(s, 'member');
    const teacher = await account(s, 'teacher');
    for (const who of [member, teacher]) {
      const r = await s.call(method, path, { token: who.token, body });
      expect([r.status, r.body.code]).toEqual([403, 70008]);
    }
    const none = await s.call(method, path, { body });
    expect(none.status).toBe(401);
  });

  it("a teacher's token cannot issue a code for themselves or unbind another teacher", async () => {
    const t = await newTeacher(s);
    const teacher = await account(s, 'teacher');
    expect(
      (await s.call('POST', '/api/staff/bind-codes', { token: teacher.token, body: { teacherId: t, phone: '13511112222' } })).status,
    ).toBe(403);
    const { code } = await issue(s, staff.token, t);
    const other = (await s.call('POST', '/api/bind/teacher', { body: { code, openid: (await openIdTicket(s)).ticket } })).body;
    expect((await s.call('POST', '/api/staff/bindings/unbind', { token: teacher.token, body: { accountId: other.data.id } })).status).toBe(
      403,
    );
    expect(
      (await s.call('POST', '/api/staff/bindings/unbind', { token: other.token, body: { accountId: teacher.id } })).status,
      "another teacher's token",
    ).toBe(403);
  });
});
