import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { accounts, resetTickets } from '../../../src/server/db/schema/index';
import { startTestServer } from '../support/harness';
import { memberWithPassword, MINUTE, rows, sendCode, setBanned } from './support';

describe('password reset and change', async () => {
  const s = await startTestServer();
  const login = (phone: string, password: string) =>
    s.call('POST', '/api/oauth/login', { body: { username: phone, password, loginType: 'password' } });
  const verifyReset = (phone: string, code: string) =>
    s.call('POST', '/api/oauth/resetPasswordVerify', { body: { username: phone, password: code } });
  const reset = (ticket: string | undefined, password: string) =>
    s.call('POST', '/api/oauth/resetPassword', {
      body: { password },
      headers: ticket === undefined ? {} : { 'authorization-token': ticket },
    });
  const valid = async (token: string) => (await s.call('POST', '/api/oauth/token/verify', { body: { token } })).body.data.valid as boolean;
  const ticketFor = async (phone: string) => {
    s.clock.advance(2 * MINUTE);
    const r = await verifyReset(phone, await sendCode(s, phone));
    expect(r.status).toBe(200);
    return r.body.data.ticket as string;
  };

  describe('POST /oauth/resetPasswordVerify', () => {
    it('trades the phone and its SMS code for a 10-minute ticket, stored only hashed', async () => {
      const id = await memberWithPassword(s, '13300000001', 'old-pass');
      const code = await sendCode(s, '13300000001');
      const r = await verifyReset(' 13300000001 ', ` ${code} `);
      expect(r.body).toMatchObject({ code: 200, status: true, data: { expiresIn: 600 } });
      expect(r.body.data.ticket).toMatch(/^[A-Za-z0-9_-]{22}$/);
      const [row] = await s.deps.db.select().from(resetTickets).where(eq(resetTickets.accountId, id));
      expect(row!.ticketHash).not.toBe(r.body.data.ticket);
    });

    it('refuses a wrong code (10003) and an invalid phone (10010)', async () => {
      s.clock.advance(2 * MINUTE);
      await sendCode(s, '13300000001');
      expect((await verifyReset('13300000001', '000000x')).body.code).toBe(10003);
      expect((await verifyReset('1330000000', '123456')).body).toMatchObject({ code: 10010, field: 'username' });
    });

    it('refuses a banned member (10006)', async () => {
      const id = await memberWithPassword(s, '13300000009', 'old-pass');
      await setBanned(s, id);
      const r = await verifyReset('13300000009', await sendCode(s, '13300000009'));
      expect(r.status).toBe(403);
      expect(r.body.code).toBe(10006);
    });
  });

  describe('POST /oauth/resetPassword', () => {
    it('sets the new password, revokes every session of the account and spends the ticket', async () => {
      const a = await login('13300000001', 'old-pass');
      const b = await login('13300000001', 'old-pass');
      const ticket = await ticketFor('13300000001');
      const r = await reset(ticket, ' new-pass ');
      expect(r.body).toEqual({ code: 200, status: true, data: null });
      expect(await valid(a.body.token)).toBe(false);
      expect(await valid(b.body.token)).toBe(false);
      expect((await login('13300000001', 'old-pass')).body.code).toBe(10002);
      expect((await login('13300000001', 'new-pass')).body.code).toBe(200);
      const again = await reset(ticket, 'other-pass');
      expect(again.status).toBe(400);
      expect(again.body.code).toBe(10012);
    });

    it('refuses an expired ticket (10 minutes) with 10012', async () => {
      const ticket = await ticketFor('13300000001');
      s.clock.advance(10 * MINUTE);
      expect((await reset(ticket, 'later-pass')).body.code).toBe(10012);
    });

    it('refuses a missing or made-up ticket with 10012', async () => {
      expect((await reset(undefined, 'some-pass')).body.code).toBe(10012);
      expect((await reset('made-up', 'some-pass')).body.code).toBe(10012);
    });

    it('refuses a bad length (10011) or the old password (10013), keeping the ticket for another try', async () => {
      const ticket = await ticketFor('13300000001');
      expect((await reset(ticket, '12345')).body).toMatchObject({ code: 10011, field: 'password' });
      expect((await reset(ticket, '1234567890123456')).body.code).toBe(10011);
      expect((await reset(ticket, 'new-pass')).body).toMatchObject({ code: 10013, field: 'password' });
      expect((await reset(ticket, 'newer-pass')).body.code).toBe(200);
    });

    it('gives an unregistered phone its account, exactly like a first code login', async () => {
      const before = await rows(s, accounts);
      const ticket = await ticketFor('13300000002');
      expect(await rows(s, accounts)).toBe(before + 1);
      expect((await reset(ticket, 'first-pass')).body.code).toBe(200);
      expect((await login('13300000002', 'first-pass')).body.code).toBe(200);
    });

    it('clears the wrong-password lock of the phone', async () => {
      await memberWithPassword(s, '13300000003', 'old-pass');
      for (let i = 0; i < 10; i++) await login('13300000003', `wrong-${i}`);
      expect((await login('13300000003', 'old-pass')).body.code).toBe(10015);
      await reset(await ticketFor('13300000003'), 'fresh-pass');
      expect((await login('13300000003', 'fresh-pass')).body.code).toBe(200);
    });
  });

  describe('POST /customers/password (change my password)', () => {
    const change = (token: string | undefined, oldPassword: string, newPassword: string) =>
      s.call('POST', '/api/customers/password', { token, body: { oldPassword, newPassword } });

    it('changes it, keeps my session and revokes my other sessions', async () => {
      await memberWithPassword(s, '13300000004', 'old-pass');
      const mine = await login('13300000004', 'old-pass');
      const other = await login('13300000004', 'old-pass');
      const r = await change(mine.body.token, 'old-pass', 'new-pass');
      expect(r.body).toEqual({ code: 200, status: true, data: null });
      expect(await valid(mine.body.token)).toBe(true);
      expect(await valid(other.body.token)).toBe(false);
      expect((await login('13300000004', 'new-pass')).body.code).toBe(200);
    });

    it('refuses a wrong old password (10014), the same password (10013) and a bad length (10011)', async () => {
      const { body } = await login('13300000004', 'new-pass');
      expect((await change(body.token, 'nope-pass', 'other-pass')).body).toMatchObject({ code: 10014, field: 'oldPassword' });
      expect((await change(body.token, 'new-pass', 'new-pass')).body).toMatchObject({ code: 10013, field: 'newPassword' });
      expect((await change(body.token, 'new-pass', 'short')).body).toMatchObject({ code: 10011, field: 'newPassword' });
      expect((await change(body.token, '', 'other-pass')).body.code).toBe(10014);
      expect(await valid(body.token)).toBe(true);
    });

    it('needs a login (401)', async () => {
      const r = await change(undefined, 'a-pass-1', 'a-pass-2');
      expect(r.status).toBe(401);
    });
  });
});
