import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../../src/domain/clock';
import { tencentCaptcha } from '../../../src/server/gateways/captcha';
import { captchaStandInFetch, issueStandInTicket, STANDIN_CAPTCHA } from '../../../src/server/gateways/captcha-standin';
import { startTestServer, type TestServer } from '../support/harness';
import { memberWithPassword } from './support';
import { openIdTicket } from '../binding/support';

/** The product's thresholds (config.ts defaults), not the harness's relaxed ones. */
const GUARD = {
  captchaAfterPhoneFailures: 3,
  captchaAfterNetworkFailures: 5,
  blockNetworkAfterFailures: 50,
  smsCaptchaAfterNetworkCodes: 3,
};

const phoneNo = (i: number) => `135${String(i).padStart(8, '0')}`;

function client(s: TestServer, ip: string) {
  const headers = { 'x-forwarded-for': ip };
  return {
    login: (phone: string, password: string, captcha?: { ticket: string; randstr: string }) =>
      s.call('POST', '/api/oauth/login', {
        body: { username: phone, password, loginType: 'password', ...(captcha ? { captcha } : {}) },
        headers,
      }),
    code: (phone: string, captcha?: { ticket: string; randstr: string }) =>
      s.call(
        'GET',
        `/api/oauth/valid-code?phone=${phone}${captcha ? `&ticket=${encodeURIComponent(captcha.ticket)}&randstr=${encodeURIComponent(captcha.randstr)}` : ''}`,
        { headers },
      ),
  };
}

/** The stand-in widget solved, as the app's dialog does in demo mode. */
async function solved(s: TestServer) {
  const r = await s.call('POST', '/api/dev/captcha/ticket');
  return r.body.data as { ticket: string; randstr: string };
}

describe('wrong passwords counted per phone and per network', () => {
  it('1,000 wrong passwords over 1,000 phones from one network: only the first 5 are checked, the rest wait for the security check', async () => {
    const s = await startTestServer({ config: { loginGuard: GUARD } });
    const from = client(s, '203.0.113.7');
    const codes = new Map<number, number>();
    for (let i = 0; i < 1000; i += 20) {
      const batch = await Promise.all(Array.from({ length: 20 }, (_, k) => from.login(phoneNo(i + k), `guess-${i + k}`)));
      for (const r of batch) codes.set(r.body.code, (codes.get(r.body.code) ?? 0) + 1);
    }
    expect(Object.fromEntries(codes)).toEqual({ 10002: 5, 10020: 995 });
    // another network is not held back by this one
    await memberWithPassword(s, '13500009999', 'right-pw');
    expect((await client(s, '198.51.100.20').login('13500009999', 'right-pw')).body.code).toBe(200);
    // a hang guard, not a speed check: 1,000 logins took 8 s alone and over 20 s (the default) on a loaded machine
  }, 60_000);

  it('solving the check every time does not go on for ever: past 50 wrong tries the network is refused outright (10009)', async () => {
    const s = await startTestServer({ config: { loginGuard: GUARD } });
    const from = client(s, '203.0.113.8');
    let checked = 0;
    for (let i = 0; i < 60; i++) {
      const r = await from.login(phoneNo(2000 + i), 'guess-pw', await solved(s));
      if (r.body.code === 10002) checked++;
      else expect(r.body.code).toBe(10009);
    }
    expect(checked).toBe(50);
  });

  it('a phone past 3 wrong passwords needs the check: asked for (10020, the widget app id), a forged or spent ticket refused (10021), a real one let through', async () => {
    const s = await startTestServer({ config: { loginGuard: GUARD } });
    await memberWithPassword(s, '13500000500', 'right-pw');
    // each from its own network: this is the phone's count, not a network's
    for (let i = 0; i < 3; i++) {
      expect((await client(s, `198.51.100.${30 + i}`).login('13500000500', 'wrong-pw')).body.code).toBe(10002);
      s.clock.advance(60_000);
    }
    const asked = await client(s, '198.51.100.40').login('13500000500', 'right-pw');
    expect(asked.status).toBe(429);
    expect(asked.body).toMatchObject({ code: 10020, data: { captchaAppId: STANDIN_CAPTCHA.appId } });
    expect((await client(s, '198.51.100.40').login('13500000500', 'right-pw', { ticket: 't03forged', randstr: '@abc' })).body.code).toBe(
      10021,
    );
    const ticket = await solved(s);
    expect((await client(s, '198.51.100.40').login('13500000500', 'right-pw', { ...ticket, randstr: '@other' })).body.code).toBe(10021);
    const fresh = await solved(s);
    expect((await client(s, '198.51.100.40').login('13500000500', 'right-pw', fresh)).body.code).toBe(200);
    // a ticket is good for one verification
    expect((await client(s, '198.51.100.41').login('13500000500', 'right-pw', fresh)).body.code).toBe(10021);
  });

  it('past the phone threshold each wrong try makes the next wait twice as long (10022 says the seconds)', async () => {
    const s = await startTestServer({ config: { loginGuard: GUARD } });
    const from = client(s, '198.51.100.60');
    for (let i = 0; i < 3; i++) await client(s, `198.51.100.${61 + i}`).login('13500000600', 'wrong-pw');
    // 3 failures: the next waits 1 s after the last
    const soon = await from.login('13500000600', 'wrong-pw', await solved(s));
    expect(soon.body).toMatchObject({ code: 10022, data: { retryAfter: 1 } });
    s.clock.advance(1_000);
    expect((await from.login('13500000600', 'wrong-pw', await solved(s))).body.code).toBe(10002);
    // 4 failures: 2 s
    s.clock.advance(1_000);
    expect((await from.login('13500000600', 'wrong-pw', await solved(s))).body).toMatchObject({ code: 10022, data: { retryAfter: 1 } });
    s.clock.advance(1_000);
    expect((await from.login('13500000600', 'wrong-pw', await solved(s))).body.code).toBe(10002);
    // 5 failures: 4 s
    s.clock.advance(3_000);
    expect((await from.login('13500000600', 'wrong-pw', await solved(s))).body).toMatchObject({ code: 10022, data: { retryAfter: 1 } });
  });

  it('wrong codes count too: a phone past 3 wrong codes needs the check for the next code login', async () => {
    const s = await startTestServer({ config: { loginGuard: { ...GUARD, smsCaptchaAfterNetworkCodes: 100 } } });
    const from = client(s, '198.51.100.70');
    expect((await from.code('13500000700')).body.code).toBe(200);
    for (let i = 0; i < 3; i++) {
      const r = await s.call('POST', '/api/oauth/login', {
        body: { username: '13500000700', password: '000000', loginType: 'code' },
        headers: { 'x-forwarded-for': `198.51.100.${71 + i}` },
      });
      expect(r.body.code).toBe(10003);
      s.clock.advance(60_000);
    }
    const asked = await s.call('POST', '/api/oauth/login', {
      body: { username: '13500000700', password: '000000', loginType: 'code' },
      headers: { 'x-forwarded-for': '198.51.100.79' },
    });
    expect(asked.body.code).toBe(10020);
  });
});

describe('the staff binding is guarded as a login', () => {
  it('one open-id ticket trying a list of phones: 5 passwords checked, then the security check is asked for', async () => {
    const s = await startTestServer({ config: { loginGuard: GUARD } });
    const { ticket } = await openIdTicket(s);
    const codes: number[] = [];
    for (let i = 0; i < 20; i++) {
      const r = await s.call('POST', '/api/bind/staff', {
        body: { username: phoneNo(7000 + i), password: 'guess-pw', openid: ticket },
        headers: { 'x-forwarded-for': '203.0.113.77' },
      });
      codes.push(r.body.code);
    }
    expect(codes.filter((c) => c === 60011).length).toBe(5);
    expect(codes.slice(5).every((c) => c === 10020)).toBe(true);
  });

  it('a password formed from the phone is expired here too (10017), before it is checked', async () => {
    const s = await startTestServer();
    const { ticket } = await openIdTicket(s);
    const r = await s.call('POST', '/api/bind/staff', { body: { username: '13512345678', password: '345678', openid: ticket } });
    expect([r.status, r.body.code]).toEqual([403, 10017]);
  });
});

describe('SMS codes need the security check from a network that asked for several', () => {
  it('the fourth code in an hour from one network is asked for the check; with it the code is sent', async () => {
    const s = await startTestServer({ config: { loginGuard: GUARD } });
    const from = client(s, '203.0.113.90');
    for (let i = 0; i < 3; i++) expect((await from.code(phoneNo(9000 + i))).body.code).toBe(200);
    const asked = await from.code(phoneNo(9003));
    expect(asked.body).toMatchObject({ code: 10020, data: { captchaAppId: STANDIN_CAPTCHA.appId } });
    expect((await from.code(phoneNo(9003), { ticket: 'forged', randstr: '@x' })).body.code).toBe(10021);
    expect((await from.code(phoneNo(9003), await solved(s))).body.code).toBe(200);
    // half an answer is bad input naming the missing part
    const half = await s.call('GET', `/api/oauth/valid-code?phone=${phoneNo(9004)}&ticket=abc`, {
      headers: { 'x-forwarded-for': '203.0.113.91' },
    });
    expect(half.status).toBe(400);
    expect(half.body.message).toMatch(/randstr/);
  });
});

describe('the captcha stand-in speaks Tencent Captcha’s protocol', () => {
  it('checks the TC3 signature, the app secret and the ticket, as DescribeCaptchaResult does', async () => {
    const s = await startTestServer();
    const clock = fixedClock('2026-11-20T02:00:00Z');
    const fetch = captchaStandInFetch(s.deps);
    const good = tencentCaptcha(STANDIN_CAPTCHA, { clock, fetch });
    const wrongKey = tencentCaptcha({ ...STANDIN_CAPTCHA, secretKey: 'not-the-key' }, { clock, fetch });
    const wrongApp = tencentCaptcha({ ...STANDIN_CAPTCHA, appSecretKey: 'not-the-app-secret' }, { clock, fetch });
    const t1 = await issueStandInTicket(s.deps.db, s.clock.now());
    expect(await wrongKey.verify(t1.ticket, t1.randstr, '203.0.113.1')).toBe(false);
    expect(await wrongApp.verify(t1.ticket, t1.randstr, '203.0.113.1')).toBe(false);
    // neither refusal spent the ticket: the genuine request passes, once
    expect(await good.verify(t1.ticket, t1.randstr, '203.0.113.1')).toBe(true);
    expect(await good.verify(t1.ticket, t1.randstr, '203.0.113.1')).toBe(false);
    const raw = await fetch(`https://${STANDIN_CAPTCHA.host}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-tc-action': 'DescribeCaptchaResult', 'x-tc-version': '2019-07-22' },
      body: '{}',
    });
    expect(((await raw.json()) as { Response: { Error: { Code: string } } }).Response.Error.Code).toMatch(/^AuthFailure/);
  });
});
