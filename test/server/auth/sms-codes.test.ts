import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { devSmsOutbox, smsCodes } from '../../../src/server/db/schema/index';
import { loadConfig } from '../../../src/server/config';
import { startTestServer } from '../support/harness';
import { DAY, HOUR, memberWithPassword, MINUTE, rows, sendCode } from './support';

describe('GET /api/oauth/valid-code', async () => {
  const s = await startTestServer();
  const ask = (phone: string, ip = '198.51.100.1') =>
    s.call('GET', `/api/oauth/valid-code?phone=${encodeURIComponent(phone)}`, { headers: { 'x-forwarded-for': ip } });
  const login = (phone: string, code: string) =>
    s.call('POST', '/api/oauth/login', { body: { username: phone, password: code, loginType: 'code' } });
  const nextWindow = () => s.clock.advance(61_000);

  it('sends 6 digits, valid 5 minutes, stored only as a hash; the demo outbox and the log show the code', async () => {
    const r = await ask(' 13700000001 ');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ code: 200, status: true, data: { expiresIn: 300, resendAfter: 60 } });
    const dev = await s.call('GET', '/api/dev/sms/13700000001');
    expect(dev.body.data.code).toMatch(/^\d{6}$/);
    const [row] = await s.deps.db.select().from(smsCodes).where(eq(smsCodes.phone, '13700000001'));
    expect(row!.codeHash).not.toContain(dev.body.data.code);
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBe(5 * MINUTE);
    expect(s.log.lines.some((l) => l.msg.startsWith('sms code') && l.fields?.code === dev.body.data.code)).toBe(true);
  });

  it('answers a registered and an unregistered phone exactly alike', async () => {
    await memberWithPassword(s, '13700000002', 'secret-1');
    const known = await ask('13700000002');
    const unknown = await ask('13700000003');
    expect(known.status).toBe(unknown.status);
    expect(known.body).toEqual(unknown.body);
    expect([...known.headers.keys()].sort()).toEqual([...unknown.headers.keys()].sort());
  });

  it('refuses an invalid or missing phone with 10010 naming the field, and records nothing', async () => {
    const before = await rows(s, smsCodes);
    for (const q of ['?phone=12345', '?phone=1380000000a', '?phone=', '']) {
      const r = await s.call('GET', `/api/oauth/valid-code${q}`);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: 10010, field: 'phone', status: false });
    }
    expect(await rows(s, smsCodes)).toBe(before);
  });

  it('refuses a resend within 60 s with 10007 (HTTP 429) and the seconds left', async () => {
    await ask('13700000004');
    s.clock.advance(20_000);
    const r = await ask('13700000004');
    expect(r.status).toBe(429);
    expect(r.body).toMatchObject({ code: 10007, data: { retryAfter: 40 }, message: '验证码已发送，请40秒后再试' });
    const en = await s.call('GET', '/api/oauth/valid-code?phone=13700000004', { headers: { 'accept-language': 'en' } });
    expect(en.body.message).toBe('A verification code has been sent. Please try again in 40 seconds.');
    s.clock.advance(40_000);
    expect((await ask('13700000004')).status).toBe(200);
  });

  it('caps a phone at 5 codes an hour (10008), counted on the clock', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await ask('13700000005')).status).toBe(200);
      nextWindow();
    }
    const sixth = await ask('13700000005');
    expect(sixth.status).toBe(429);
    expect(sixth.body.code).toBe(10008);
    s.clock.advance(HOUR - 5 * 61_000 + 1000);
    expect((await ask('13700000005')).status).toBe(200);
  });

  it('caps a phone at 10 codes per Asia/Shanghai day (10008), reopening at midnight Shanghai time', async () => {
    s.clock.set('2026-11-21T00:00:00Z'); // 08:00 in Shanghai
    for (let hour = 0; hour < 2; hour++) {
      for (let i = 0; i < 5; i++) {
        expect((await ask('13700000006')).status).toBe(200);
        nextWindow();
      }
      s.clock.advance(HOUR);
    }
    const eleventh = await ask('13700000006');
    expect(eleventh.status).toBe(429);
    expect(eleventh.body.code).toBe(10008);
    s.clock.set('2026-11-21T15:59:00Z'); // 23:59 Shanghai, same day
    expect((await ask('13700000006')).body.code).toBe(10008);
    s.clock.set('2026-11-21T16:00:00Z'); // 00:00 Shanghai, the next day
    expect((await ask('13700000006')).status).toBe(200);
  });

  it('takes the network from the right of X-Forwarded-For: what the trusted proxy appended, not what the client wrote', async () => {
    await ask('13700000007', '10.0.0.1, 203.0.113.9');
    const [row] = await s.deps.db.select().from(smsCodes).where(eq(smsCodes.phone, '13700000007'));
    expect(row!.ip).toBe('203.0.113.9');
  });

  describe('the code itself', () => {
    it('is single use', async () => {
      s.clock.advance(DAY);
      const code = await sendCode(s, '13700000010');
      expect((await login('13700000010', code)).body.code).toBe(200);
      expect((await login('13700000010', code)).body.code).toBe(10003);
    });

    it('expires after 5 minutes', async () => {
      const code = await sendCode(s, '13700000011');
      s.clock.advance(5 * MINUTE - 1000);
      expect((await login('13700000011', code)).body.code).toBe(200); // 4 min 59 s old
      const late = await sendCode(s, '13700000013');
      s.clock.advance(5 * MINUTE);
      expect((await login('13700000013', late)).body.code).toBe(10003); // exactly 5 min old
    });

    it('dies after 5 wrong tries: the sixth try fails even with the right code', async () => {
      const code = await sendCode(s, '13700000014');
      const wrong = code === '000000' ? '000001' : '000000';
      for (let i = 0; i < 5; i++) expect((await login('13700000014', wrong)).body.code).toBe(10003);
      expect((await login('13700000014', code)).body.code).toBe(10003);
      const [row] = await s.deps.db.select().from(smsCodes).where(eq(smsCodes.phone, '13700000014'));
      expect(row!.tries).toBe(5);
      expect(row!.usedAt).toBeNull();
    });

    it('four wrong tries still leave the right code working', async () => {
      const code = await sendCode(s, '13700000015');
      const wrong = code === '000000' ? '000001' : '000000';
      for (let i = 0; i < 4; i++) await login('13700000015', wrong);
      expect((await login('13700000015', code)).body.code).toBe(200);
    });

    it('only the latest code of a phone counts', async () => {
      const first = await sendCode(s, '13700000016');
      nextWindow();
      const second = await sendCode(s, '13700000016');
      if (first !== second) expect((await login('13700000016', first)).body.code).toBe(10003);
      expect((await login('13700000016', second)).body.code).toBe(200);
    });

    it('is bound to its phone', async () => {
      const code = await sendCode(s, '13700000017');
      await sendCode(s, '13700000018');
      const other = await login('13700000018', code);
      // the other phone's own code may equal this one by chance (1 in a million); otherwise refused
      const [own] = await s.deps.db.select().from(devSmsOutbox).where(eq(devSmsOutbox.phone, '13700000018'));
      if (own!.code !== code) expect(other.body.code).toBe(10003);
    });
  });

  it('answers 70002 (503) when the provider fails, and the try still counts for the caps', async () => {
    const real = s.deps.gateways.sms;
    s.deps.gateways.sms = {
      sendCode: async () => {
        throw new Error('provider down');
      },
    };
    try {
      const r = await ask('13700000019');
      expect(r.status).toBe(503);
      expect(r.body.code).toBe(70002);
      expect((await ask('13700000019')).body.code).toBe(10007);
    } finally {
      s.deps.gateways.sms = real;
    }
  });

  it('GET /api/dev/sms/:phone answers 404 for a phone that got no code', async () => {
    const r = await s.call('GET', '/api/dev/sms/13799999999');
    expect(r.status).toBe(404);
  });
});

describe('GET /api/oauth/valid-code per-network cap (10009)', async () => {
  const base = loadConfig({ APP_MODE: 'demo' });
  const s = await startTestServer({ config: { sms: { ...base.sms, perIpPerHour: 3 } } });
  const ask = (phone: string, ip: string) => s.call('GET', `/api/oauth/valid-code?phone=${phone}`, { headers: { 'x-forwarded-for': ip } });

  it('refuses a fourth code in an hour from one network, whatever the phone, until the hour passes', async () => {
    for (const phone of ['13600000001', '13600000002', '13600000003']) expect((await ask(phone, '192.0.2.1')).status).toBe(200);
    const r = await ask('13600000004', '192.0.2.1');
    expect(r.status).toBe(429);
    expect(r.body.code).toBe(10009);
    expect((await ask('13600000004', '192.0.2.2')).status).toBe(200);
    s.clock.advance(HOUR);
    expect((await ask('13600000005', '192.0.2.1')).status).toBe(200);
  });
});

describe('GET /api/oauth/valid-code with a configured resend cooldown (SMS_RESEND_COOLDOWN_S)', async () => {
  const base = loadConfig({ APP_MODE: 'demo', SMS_RESEND_COOLDOWN_S: '3' });
  const s = await startTestServer({ config: { sms: base.sms } });
  const ask = (phone: string) => s.call('GET', `/api/oauth/valid-code?phone=${phone}`, { headers: { 'x-forwarded-for': '192.0.2.77' } });

  it('answers the cooldown it keeps as resendAfter, and keeps it', async () => {
    expect(base.sms.resendCooldownS).toBe(3);
    expect((await ask('13600000011')).body.data).toEqual({ expiresIn: 300, resendAfter: 3 });
    s.clock.advance(2_000);
    expect((await ask('13600000011')).body).toMatchObject({ code: 10007, data: { retryAfter: 1 } });
    s.clock.advance(1_000);
    expect((await ask('13600000011')).status).toBe(200);
  });

  it('is 60 s unless configured', () => {
    expect(loadConfig({ APP_MODE: 'demo' }).sms.resendCooldownS).toBe(60);
  });
});

describe('demo endpoints outside demo mode', async () => {
  const s = await startTestServer({ config: { demo: false } });
  it('are not mounted: /api/dev/sms and the OAuth stand-in answer 404', async () => {
    expect((await s.call('GET', '/api/dev/sms/13700000001')).status).toBe(404);
    expect((await s.call('GET', '/api/dev/wechat/sns/oauth2/access_token?code=x')).status).toBe(404);
  });
});
