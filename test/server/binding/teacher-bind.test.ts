import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { accounts, bindCodes, loginFailures, openIdBindings, teachers } from '../../../src/server/db/schema/index';
import { cookies, cookieValue } from '../auth/support';
import { startTestServer } from '../support/harness';
import { account, freshPhone, issue, newTeacher, openIdTicket, silentLoginAs, teacherAccountId } from './support';

/** Spec §5 binding and §8's binding codes, teacher by bind code and staff by credentials (decision 028). */
describe('binding a teacher by bind code', async () => {
  const s = await startTestServer({ seed: true });
  const staff = await account(s, 'staff');
  const bind = (body: Record<string, unknown>) => s.call('POST', '/api/bind/teacher', { body });

  it('staff issue a code for a teacher: 8 characters shown once, stored hashed, 72 hours, listed with its last two', async () => {
    const t = await newTeacher(s);
    const r = await s.call('POST', '/api/staff/bind-codes', { token: staff.token, body: { teacherId: t, phone: freshPhone() } });
    expect(r.body.code).toBe(200);
    const { code, id, expiresAt } = r.body.data;
    expect(code).toMatch(/^[A-HJKMNP-Z2-9]{8}$/);
    expect(new Date(expiresAt).getTime() - s.clock.now().getTime()).toBe(72 * 3_600_000);
    const [row] = await s.deps.db.select().from(bindCodes).where(eq(bindCodes.id, id));
    expect(row!.codeHash).not.toContain(code);
    const list = (await s.call('GET', '/api/staff/bind-codes', { token: staff.token })).body.data;
    expect(list[0]).toMatchObject({ id, teacherId: t, hint: code.slice(-2), status: 'live' });
    expect(JSON.stringify(list)).not.toContain(code);
    const [acc] = await s.deps.db
      .select()
      .from(accounts)
      .where(eq(accounts.id, await teacherAccountId(s, t)));
    expect(acc!.role, 'the teacher got a teacher login').toBe('teacher');
  });

  it("issuing: teacher missing 60005, a teacher without a login needs a phone 60010, valid 10010, nobody's yet 60012; ttlHours sets the expiry", async () => {
    expect((await s.call('POST', '/api/staff/bind-codes', { token: staff.token, body: { teacherId: 99999 } })).body.code).toBe(60005);
    const t = await newTeacher(s);
    const noPhone = await s.call('POST', '/api/staff/bind-codes', { token: staff.token, body: { teacherId: t } });
    expect([noPhone.status, noPhone.body.code, noPhone.body.field]).toEqual([400, 60010, 'phone']);
    expect((await s.call('POST', '/api/staff/bind-codes', { token: staff.token, body: { teacherId: t, phone: '123' } })).body.code).toBe(
      10010,
    );
    const taken = await s.call('POST', '/api/staff/bind-codes', { token: staff.token, body: { teacherId: t, phone: staff.phone } });
    expect([taken.body.code, taken.body.field]).toEqual([60012, 'phone']);
    const short = await issue(s, staff.token, t, { ttlHours: 2 });
    const row = (await s.call('GET', '/api/staff/bind-codes', { token: staff.token })).body.data.find(
      (c: { id: number }) => c.id === short.id,
    );
    expect(new Date(row.expiresAt).getTime() - s.clock.now().getTime()).toBe(2 * 3_600_000);
  });

  it('a teacher binds with the code: logged in as the teacher (session cookies), the code used, and the open id logs them in silently after', async () => {
    const t = await newTeacher(s, '周老师');
    const { code } = await issue(s, staff.token, t);
    const me = await openIdTicket(s);
    const r = await bind({ code: ` ${code.slice(0, 4)}-${code.slice(4).toLowerCase()} `, openid: me.ticket });
    expect(r.body.code, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data).toMatchObject({ role: 'teacher', name: '周老师', wxBound: true });
    expect(typeof r.body.token).toBe('string');
    expect(cookieValue(cookies(r.headers).token)).toBe(r.body.token);
    const [b] = await s.deps.db.select().from(openIdBindings).where(eq(openIdBindings.openId, me.openId));
    expect(b!.accountId).toBe(await teacherAccountId(s, t));
    expect(await silentLoginAs(s, me.openId)).toBe('teacher');
    const list = (await s.call('GET', '/api/staff/bind-codes', { token: staff.token })).body.data;
    expect(list.find((c: { teacherId: number }) => c.teacherId === t).status).toBe('used');
    // the ticket was spent by binding; the code is single use
    const again = await bind({ code, openid: (await openIdTicket(s)).ticket });
    expect(again.body.code).toBe(60003);
  });

  it('empty open id 60001 (none, unknown or spent ticket), with the ticket kept on any other refusal', async () => {
    const t = await newTeacher(s);
    const { code } = await issue(s, staff.token, t);
    for (const openid of [undefined, '', 'no-such-ticket']) {
      const r = await bind({ code, openid });
      expect([r.status, r.body.code, r.body.field]).toEqual([400, 60001, 'openid']);
    }
    const me = await openIdTicket(s);
    expect((await bind({ code: 'ZZZZZZZZ', openid: me.ticket })).body.code).toBe(60003);
    expect((await bind({ code, openid: me.ticket })).body.code, 'the refusal kept the ticket').toBe(200);
    expect((await bind({ code, openid: me.ticket })).body.code, 'then it is spent').toBe(60001);
  });

  it('the openId cookie the silent login set is used when the body has none', async () => {
    const { code } = await issue(s, staff.token, await newTeacher(s));
    const me = await openIdTicket(s);
    const r = await s.call('POST', '/api/bind/teacher', { body: { code }, headers: { cookie: `openId=${me.ticket}` } });
    expect(r.body.code).toBe(200);
  });

  it('code missing 60002, invalid 60003 (malformed, unknown, revoked), expired 60004', async () => {
    const me = await openIdTicket(s);
    for (const code of [undefined, '', '  '])
      expect((await bind({ code, openid: me.ticket })).body).toMatchObject({ code: 60002, field: 'bindCode' });
    for (const code of ['ABC', 'ABCDEFG0', 'ABCDEFGH'])
      expect((await bind({ code, openid: me.ticket })).body).toMatchObject({ code: 60003, field: 'bindCode' });
    const t = await newTeacher(s);
    const revoked = await issue(s, staff.token, t);
    expect((await s.call('POST', '/api/staff/bind-codes/revoke', { token: staff.token, body: { id: revoked.id } })).body.data.status).toBe(
      'revoked',
    );
    expect((await bind({ code: revoked.code, openid: me.ticket })).body.code).toBe(60003);
    expect(
      (await s.call('POST', '/api/staff/bind-codes/revoke', { token: staff.token, body: { id: revoked.id } })).body.code,
      'revoked once',
    ).toBe(60003);
    const old = await issue(s, staff.token, t, { ttlHours: 1 });
    s.clock.advance(3_600_000);
    expect((await bind({ code: old.code, openid: (await openIdTicket(s)).ticket })).body.code).toBe(60004);
    s.clock.advance(-3_600_000);
  });

  it("teacher missing 60005: the code's teacher has no login any more", async () => {
    const t = await newTeacher(s);
    const { code } = await issue(s, staff.token, t);
    await s.deps.db.update(teachers).set({ accountId: null }).where(eq(teachers.id, t));
    const r = await bind({ code, openid: (await openIdTicket(s)).ticket });
    expect([r.status, r.body.code]).toEqual([404, 60005]);
  });

  it("already bound: this open id (60006, e.g. a member's), or this teacher (60007); the code stays live", async () => {
    const member = await account(s, 'member');
    const mine = await openIdTicket(s);
    await s.deps.db.insert(openIdBindings).values({ openId: mine.openId, accountId: member.id, createdAt: s.clock.now() });
    const t = await newTeacher(s);
    const { code } = await issue(s, staff.token, t);
    expect((await bind({ code, openid: mine.ticket })).body).toMatchObject({ code: 60006, field: 'openid' });
    expect((await bind({ code, openid: (await openIdTicket(s)).ticket })).body.code).toBe(200);
    const second = await issue(s, staff.token, t);
    const r = await bind({ code: second.code, openid: (await openIdTicket(s)).ticket });
    expect([r.status, r.body.code]).toEqual([409, 60007]);
    const list = (await s.call('GET', '/api/staff/bind-codes', { token: staff.token })).body.data;
    expect(list.find((c: { id: number }) => c.id === second.id).status).toBe('live');
  });

  it("bind failed 60008: the teacher's login is disabled", async () => {
    const t = await newTeacher(s);
    const { code } = await issue(s, staff.token, t);
    await s.deps.db
      .update(accounts)
      .set({ banned: true })
      .where(eq(accounts.id, await teacherAccountId(s, t)));
    const r = await bind({ code, openid: (await openIdTicket(s)).ticket });
    expect([r.status, r.body.code]).toEqual([409, 60008]);
  });

  it('staff unbind a teacher: the open id no longer logs in, their sessions end, a new code binds again', async () => {
    const t = await newTeacher(s);
    const me = await openIdTicket(s);
    const token = (await bind({ code: (await issue(s, staff.token, t)).code, openid: me.ticket })).body.token as string;
    const accountId = await teacherAccountId(s, t);
    expect(
      (await s.call('GET', '/api/staff/bindings', { token: staff.token })).body.data.some(
        (b: { accountId: number }) => b.accountId === accountId,
      ),
    ).toBe(true);
    expect((await s.call('POST', '/api/staff/bindings/unbind', { token: staff.token, body: { accountId } })).body.data).toEqual({
      unbound: 1,
    });
    expect(await silentLoginAs(s, me.openId)).toBe(10004);
    expect((await s.call('GET', '/api/customers/me', { token })).status).toBe(401);
    expect(
      (await s.call('POST', '/api/staff/bindings/unbind', { token: staff.token, body: { accountId } })).status,
      'nothing bound any more',
    ).toBe(404);
    const member = await account(s, 'member');
    expect(
      (await s.call('POST', '/api/staff/bindings/unbind', { token: staff.token, body: { accountId: member.id } })).status,
      'a member is not unbound by staff',
    ).toBe(404);
    const again = await openIdTicket(s, me.openId);
    expect((await bind({ code: (await issue(s, staff.token, t)).code, openid: again.ticket })).body.code).toBe(200);
  });

  describe('staff by username and password', () => {
    const bindStaff = (body: Record<string, unknown>) => s.call('POST', '/api/bind/staff', { body });

    it('binds a staff account: logged in as staff, and the open id logs in silently after', async () => {
      const st = await account(s, 'staff', 'desk1234');
      const me = await openIdTicket(s);
      const r = await bindStaff({ username: st.phone, password: 'desk1234', openid: me.ticket });
      expect(r.body.code, JSON.stringify(r.body)).toBe(200);
      expect(r.body.data.role).toBe('staff');
      expect(await silentLoginAs(s, me.openId)).toBe('staff');
      const again = await bindStaff({ username: st.phone, password: 'desk1234', openid: (await openIdTicket(s)).ticket });
      expect([again.status, again.body.code]).toEqual([409, 60007]);
    });

    it('wrong credentials 60011 are counted like wrong logins (10015 past ten an hour); fill form 60010; empty open id 60001', async () => {
      const st = await account(s, 'staff', 'desk1234');
      const me = await openIdTicket(s);
      expect((await bindStaff({ username: st.phone, password: '', openid: me.ticket })).body).toMatchObject({
        code: 60010,
        field: 'password',
      });
      expect((await bindStaff({ password: 'x', openid: me.ticket })).body).toMatchObject({ code: 60010, field: 'username' });
      expect((await bindStaff({ username: st.phone, password: 'desk1234' })).body.code).toBe(60001);
      for (let i = 0; i < 10; i++)
        expect((await bindStaff({ username: st.phone, password: `nope-${i}`, openid: me.ticket })).body.code).toBe(60011);
      expect(await s.deps.db.select().from(loginFailures).where(eq(loginFailures.phone, st.phone))).toHaveLength(10);
      expect(
        (await bindStaff({ username: st.phone, password: 'desk1234', openid: me.ticket })).body.code,
        'the same count as the login',
      ).toBe(10015);
      const login = await s.call('POST', '/api/oauth/login', { body: { username: st.phone, password: 'desk1234', loginType: 'password' } });
      expect(login.body.code, 'and the login sees those failures').toBe(10015);
      const unknown = await bindStaff({ username: '13999999999', password: 'whatever1', openid: me.ticket });
      expect(unknown.body.code, 'an unknown username reads the same').toBe(60011);
    });

    it('the right password of an account that is not staff is 60012 (bind info wrong); an open id already bound 60006', async () => {
      const teacher = await account(s, 'teacher', 'teach1234');
      const me = await openIdTicket(s);
      expect((await bindStaff({ username: teacher.phone, password: 'teach1234', openid: me.ticket })).body).toMatchObject({ code: 60012 });
      const st = await account(s, 'staff', 'desk1234');
      const other = await account(s, 'member');
      await s.deps.db.insert(openIdBindings).values({ openId: me.openId, accountId: other.id, createdAt: s.clock.now() });
      expect((await bindStaff({ username: st.phone, password: 'desk1234', openid: me.ticket })).body.code).toBe(60006);
    });
  });
});
