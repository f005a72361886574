import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../../src/domain/clock';
import { loadConfig } from '../../../src/server/config';
import type { Deps } from '../../../src/server/env';
import { createPaymentGateways } from '../../../src/server/gateways/payments/create';
import { newRsaKeyPair } from '../../../src/server/gateways/payments/standin-keys';
import { PRODUCTION_ENV } from '../../production-env';

const PRODUCTION = PRODUCTION_ENV;
const deps = { clock: fixedClock('2026-11-20T02:00:00Z') } as unknown as Omit<Deps, 'gateways'>;
const keyPem = newRsaKeyPair();
const privatePem = keyPem.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const publicPem = keyPem.publicKey.export({ type: 'spki', format: 'pem' }).toString();

describe('payment settings', () => {
  it('demo mode without credentials: both methods through the stand-ins', () => {
    const c = loadConfig({ APP_MODE: 'demo' });
    expect(c.payments).toEqual({ wechat: { provider: 'local' }, alipay: { provider: 'local' } });
    const g = createPaymentGateways(c, deps, { fetch: async () => new Response('') });
    expect(g.available()).toEqual(['wechat', 'alipay']);
    expect(g.standIn).toBeDefined();
  });

  it('production without payment credentials: the methods are unavailable, never faked (and the server still starts)', () => {
    const c = loadConfig(PRODUCTION);
    expect(c.payments).toEqual({ wechat: { provider: 'off' }, alipay: { provider: 'off' } });
    const g = createPaymentGateways(c, deps);
    expect(g.available()).toEqual([]);
    expect(g.wechat).toBeUndefined();
    expect(g.standIn).toBeUndefined();
  });

  it('production with WeChat Pay credentials (key from a file, WeChat Pay public key by id) and Alipay keys with escaped newlines', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pay-'));
    writeFileSync(join(dir, 'apiclient_key.pem'), privatePem);
    const c = loadConfig({
      ...PRODUCTION,
      WECHAT_PAY_MCH_ID: '1900000109',
      WECHAT_PAY_APP_ID: 'wx1',
      WECHAT_PAY_SERIAL: '5157F09EFDC096DE',
      WECHAT_PAY_PRIVATE_KEY_FILE: join(dir, 'apiclient_key.pem'),
      WECHAT_PAY_APIV3_KEY: 'k'.repeat(32),
      WECHAT_PAY_PUBLIC_KEY: publicPem,
      WECHAT_PAY_PUBLIC_KEY_ID: 'PUB_KEY_ID_0119000001',
      ALIPAY_APP_ID: '2021000000000001',
      ALIPAY_PRIVATE_KEY: privatePem.replace(/\n/g, '\\n'),
      ALIPAY_PUBLIC_KEY: publicPem,
    });
    expect(c.payments.wechat).toMatchObject({
      provider: 'wechat',
      mchId: '1900000109',
      base: 'https://api.mch.weixin.qq.com',
      platformKeys: [{ serial: 'PUB_KEY_ID_0119000001', publicKey: publicPem.trim() }],
      privateKey: privatePem.trim(),
    });
    expect(c.payments.alipay).toMatchObject({
      provider: 'alipay',
      gateway: 'https://openapi.alipay.com/gateway.do',
      privateKey: privatePem.trim(),
    });
    const g = createPaymentGateways(c, deps);
    expect(g.available()).toEqual(['wechat', 'alipay']);
    expect(g.standIn).toBeUndefined();
  });

  it('WeChat Pay without any platform key stops the start, naming the key (it could not verify a notification)', () => {
    const half = {
      ...PRODUCTION,
      WECHAT_PAY_MCH_ID: '1',
      WECHAT_PAY_APP_ID: 'wx1',
      WECHAT_PAY_SERIAL: 'S',
      WECHAT_PAY_PRIVATE_KEY: privatePem,
      WECHAT_PAY_APIV3_KEY: 'k'.repeat(32),
    };
    expect(() => loadConfig(half)).toThrow(
      /WECHAT_PAY_PLATFORM_CERT or WECHAT_PAY_PUBLIC_KEY with WECHAT_PAY_PUBLIC_KEY_ID: needed with .*WeChat Pay is half-configured/,
    );
  });

  it('Alipay with an app id but no keys stops the start, naming each key', () => {
    expect(() => loadConfig({ ...PRODUCTION, ALIPAY_APP_ID: '2021000000000001' })).toThrow(
      /ALIPAY_PRIVATE_KEY: needed with ALIPAY_APP_ID[\s\S]*ALIPAY_PUBLIC_KEY: needed/,
    );
  });
});
