import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config';

describe('configuration', () => {
  it('runs in demo mode with local stand-ins by default', () => {
    const c = loadConfig({});
    expect(c.demo).toBe(true);
    expect(c.port).toBe(3000);
    expect(c.dataDir).toBe('./data');
    expect(c.sms.provider).toBe('local');
    expect(c.oauth.provider).toBe('local');
  });

  it('reads PORT, DATA_DIR and DATABASE_URL', () => {
    const c = loadConfig({ PORT: '4100', DATA_DIR: '/tmp/x', DATABASE_URL: 'postgres://u@h/db' });
    expect(c.port).toBe(4100);
    expect(c.dataDir).toBe('/tmp/x');
    expect(c.databaseUrl).toBe('postgres://u@h/db');
  });

  it('refuses to start in production without the real adapters, naming each missing setting', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/DATABASE_URL.*TENCENT_SMS_SECRET_ID.*WECHAT_APP_ID.*PUBLIC_URL/);
  });

  it('starts in production with every setting, dev endpoints off', () => {
    const c = loadConfig({
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://u@h/db',
      TENCENT_SMS_SECRET_ID: 'id',
      TENCENT_SMS_SECRET_KEY: 'key',
      TENCENT_SMS_SDK_APP_ID: '1400000000',
      TENCENT_SMS_SIGN_NAME: 'sign',
      TENCENT_SMS_TEMPLATE_ID: '1',
      WECHAT_APP_ID: 'wx1',
      WECHAT_APP_SECRET: 's',
      PUBLIC_URL: 'https://club.example',
    });
    expect(c.demo).toBe(false);
    expect(c.sms.provider).toBe('tencent');
    expect(c.oauth.provider).toBe('wechat');
    expect(c.passwordScryptN).toBe(2 ** 15);
  });

  it('hashes passwords at scrypt N=2^15 in every mode; no environment variable lowers it', () => {
    for (const env of [{}, { NODE_ENV: 'test' }, { PASSWORD_SCRYPT_N: '1024', SCRYPT_N: '1024' }]) expect(loadConfig(env).passwordScryptN).toBe(2 ** 15);
  });
});
