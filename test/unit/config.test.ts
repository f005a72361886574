import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
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

  it('serves HTTPS only with both TLS_CERT_FILE and TLS_KEY_FILE, naming the one missing (decision 052)', () => {
    expect(loadConfig({}).tls).toBeUndefined();
    const dir = mkdtempSync(path.join(tmpdir(), 'yoga-config-'));
    const cert = path.join(dir, 'cert.pem');
    const key = path.join(dir, 'key.pem');
    writeFileSync(cert, 'CERT');
    writeFileSync(key, 'KEY');
    const c = loadConfig({ PORT: '4443', TLS_CERT_FILE: cert, TLS_KEY_FILE: key });
    expect(c.tls).toEqual({ cert: 'CERT', key: 'KEY' });
    expect(c.publicUrl).toBe('https://localhost:4443');
    expect(() => loadConfig({ TLS_CERT_FILE: cert })).toThrow(/TLS_KEY_FILE is not set/);
    expect(() => loadConfig({ TLS_KEY_FILE: key })).toThrow(/TLS_CERT_FILE is not set/);
    expect(() => loadConfig({ TLS_CERT_FILE: path.join(dir, 'none.pem'), TLS_KEY_FILE: key })).toThrow(/none\.pem/);
  });
});
