import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openIdBindings, teacherRequests, teachers } from '../../../src/server/db/schema/index';
import { cookies, cookieValue, sendCode } from '../auth/support';
import { startTestServer } from '../support/harness';
import { account, openIdTicket, silentLoginAs, teacherForm } from './support';

/** A teacher not yet in the system: the form, staff confirm or refuse, where it stands (spec §5, §8; decision 028). */
describe('a new teacher asks to be added', async () => {
  const s = await startTestServer({ seed: true });
  const staff = await account(s, 'staff');
  const send = (body: Record<string, unknown>) => s.call('POST', '/api/bind/new-teacher', { body });
  const queue = async () =>
    (await s.call('GET', '/api/staff/teacher-requests', { token: staff.token })).body.data as Array<{ id: number; phone: string }>;

  it('sent: pending, the phone masked for the sender and whole for staff, followed by its key or its cookie', async () => {
    const { body } = await teacherForm(s, sendCode);
    const r = await send(body);
    expect(r.body.code, JSON.stringify(r.body)).toBe(200);
    const { key, request } = r.body.data;
    expect(request).toMatchObject({ state: 'pending', name: '新来的老师', clubId: 1, styles: ['hatha', 'yin'], reason: null });
    expect(request.phone).toBe(`${body.phone.slice(0, 3)}****${body.phone.slice(-4)}`);
    expect(cookieValue(cookies(r.headers).bindRequest)).toBe(key);
    expect((await s.call('GET', `/api/bind/new-teacher?key=${key}`)).body.data.state).toBe('pending');
    expect((await s.call('GET', '/api/bind/new-teacher', { headers: { cookie: `bindRequest=${key}` } })).body.data.id).toBe(request.id);
    expect((await s.call('GET', '/api/bind/new-teacher?key=nope')).status).toBe(404);
    expect((await queue()).find((q) => q.id === request.id)?.phone).toBe(body.phone);
    const photo = await s.call('GET', `/api/staff/teacher-requests/${request.id}/photo`, { token: staff.token });
    expect([photo.status, photo.headers.get('content-type')]).toEqual([200, 'image/jpeg']);
    expect((await s.call('GET', `/api/bind/new-teacher/${request.id}/photo`)).status, 'not public before confirmation').toBe(404);
  });

  it('fill form 60010 names the first empty field; empty open id 60001 comes first', async () => {
    for (const field of ['name', 'phone', 'smsCode', 'clubId', 'styles', 'photo']) {
      const { body } = await teacherForm(s, sendCode, { [field]: field === 'styles' ? [] : null });
      const r = await send(body);
      expect([r.status, r.body.code, r.body.field], field).toEqual([400, 60010, field]);
    }
    const { body } = await teacherForm(s, sendCode, { name: '' });
    expect((await send({ ...body, openid: undefined })).body.code).toBe(60001);
  });

  it('phone 10010, SMS code 10003, bind info wrong 60012 (club, styles, phone already a login), photo type 70047', async () => {
    expect((await send((await teacherForm(s, sendCode, { phone: '12345' })).body)).body.code).toBe(10010);
    expect((await send((await teacherForm(s, sendCode, { smsCode: '000000' })).body)).body).toMatchObject({
      code: 10003,
      field: 'smsCode',
    });
    expect((await send((await teacherForm(s, sendCode, { clubId: 9999 })).body)).body).toMatchObject({ code: 60012, field: 'clubId' });
    expect((await send((await teacherForm(s, sendCode, { styles: ['no-such-style'] })).body)).body).toMatchObject({
      code: 60012,
      field: 'styles',
    });
    const member = await account(s, 'member');
    const taken = await teacherForm(s, sendCode);
    expect((await send({ ...taken.body, phone: member.phone, smsCode: await sendCode(s, member.phone) })).body).toMatchObject({
      code: 60012,
      field: 'phone',
    });
    expect((await send((await teacherForm(s, sendCode, { photo: Buffer.from('not an image').toString('base64') })).body)).body.code).toBe(
      70047,
    );
  });

  it('one pending request per open id (60013); an open id already bound is 60006', async () => {
    const first = await teacherForm(s, sendCode);
    expect((await send(first.body)).body.code).toBe(200);
    const again = await teacherForm(s, sendCode);
    const ticket = (await openIdTicket(s, first.me.openId)).ticket;
    expect((await send({ ...again.body, openid: ticket })).body.code).toBe(60013);
    const member = await account(s, 'member');
    const bound = await teacherForm(s, sendCode);
    await s.deps.db.insert(openIdBindings).values({ openId: bound.me.openId, accountId: member.id, createdAt: s.clock.now() });
    expect((await send(bound.body)).body.code).toBe(60006);
  });

  it('staff confirm: the teacher is in the catalogue with a teacher login bound to the open id, which logs in as the teacher', async () => {
    const { me, body } = await teacherForm(s, sendCode, { name: '宋老师' });
    const sent = (await send(body)).body.data;
    expect(await silentLoginAs(s, me.openId), 'not before staff confirm').toBe(10004);
    const r = await s.call('POST', '/api/staff/teacher-requests/confirm', { token: staff.token, body: { id: sent.request.id } });
    expect(r.body.data.state).toBe('confirmed');
    expect((await s.call('GET', `/api/bind/new-teacher?key=${sent.key}`)).body.data.state).toBe('confirmed');
    const [row] = await s.deps.db.select().from(teacherRequests).where(eq(teacherRequests.id, sent.request.id));
    const [t] = await s.deps.db.select().from(teachers).where(eq(teachers.id, row!.teacherId!));
    expect(t).toMatchObject({ name: '宋老师', clubId: 1, styles: ['hatha', 'yin'] });
    expect((await s.call('GET', t!.photo)).status, "the request's photo is the teacher's").toBe(200);
    expect(await silentLoginAs(s, me.openId)).toBe('teacher');
    expect(
      (await s.call('POST', '/api/staff/teacher-requests/confirm', { token: staff.token, body: { id: sent.request.id } })).body.code,
    ).toBe(60014);
    expect(
      (await s.call('POST', '/api/staff/teacher-requests/refuse', { token: staff.token, body: { id: sent.request.id, reason: 'x' } })).body
        .code,
    ).toBe(60014);
    expect((await queue()).some((q) => q.id === sent.request.id)).toBe(false);
  });

  it('staff refuse with a reason the sender reads (bind info wrong); the sender may send a new request', async () => {
    const { me, body } = await teacherForm(s, sendCode);
    const sent = (await send(body)).body.data;
    const r = await s.call('POST', '/api/staff/teacher-requests/refuse', {
      token: staff.token,
      body: { id: sent.request.id, reason: '门店没有这位老师' },
    });
    expect(r.body.data).toMatchObject({ state: 'refused', reason: '门店没有这位老师' });
    expect((await s.call('GET', `/api/bind/new-teacher?key=${sent.key}`)).body.data).toMatchObject({
      state: 'refused',
      reason: '门店没有这位老师',
    });
    expect(
      (await s.call('POST', '/api/staff/teacher-requests/refuse', { token: staff.token, body: { id: sent.request.id } })).body,
    ).toMatchObject({ code: 70003, field: 'reason' });
    const again = await teacherForm(s, sendCode);
    expect((await send({ ...again.body, openid: (await openIdTicket(s, me.openId)).ticket })).body.code).toBe(200);
  });

  it('a phone that became a login before confirmation cannot be confirmed (60012): staff refuse it instead', async () => {
    const { body } = await teacherForm(s, sendCode);
    const sent = (await send(body)).body.data;
    s.clock.advance(61_000);
    await s.call('POST', '/api/oauth/login', {
      body: { username: body.phone, password: await sendCode(s, body.phone), loginType: 'code' },
    });
    const r = await s.call('POST', '/api/staff/teacher-requests/confirm', { token: staff.token, body: { id: sent.request.id } });
    expect([r.body.code, r.body.field]).toEqual([60012, 'phone']);
    expect((await s.call('GET', `/api/bind/new-teacher?key=${sent.key}`)).body.data.state).toBe('pending');
  });
});
