import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, environmentWith, loadConfig } from '../../src/server/config';
import { PRODUCTION_ENV } from '../production-env';

const PRODUCTION = PRODUCTION_ENV;

/** The problems a refused configuration names, one per line. */
function problems(env: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  throw new Error('the configuration was accepted');
}

describe('configuration: the mode', () => {
  it('is production unless demo is asked for: no variable at all refuses to start, naming what production needs', () => {
    const p = problems({});
    expect(p.map((l) => l.split(':')[0])).toEqual([
      'DATA_KEY is required outside demo mode',
      'DATABASE_URL',
      'PUBLIC_URL',
      'TENCENT_SMS_SECRET_ID, TENCENT_SMS_SECRET_KEY, TENCENT_SMS_SDK_APP_ID, TENCENT_SMS_SIGN_NAME, TENCENT_SMS_TEMPLATE_ID',
      'WECHAT_APP_ID, WECHAT_APP_SECRET',
      'TENCENT_CAPTCHA_SECRET_ID, TENCENT_CAPTCHA_SECRET_KEY, TENCENT_CAPTCHA_APP_ID, TENCENT_CAPTCHA_APP_SECRET_KEY',
    ]);
    expect(p[1]).toMatch(/APP_MODE=demo or --demo/);
  });

  it('a forgotten NODE_ENV does not open the demo: a chain database without the other settings is refused, not served as the demo', () => {
    expect(problems({ DATABASE_URL: 'postgres://u@h/chain' }).length).toBeGreaterThan(0);
    expect(problems({ NODE_ENV: 'development', DATABASE_URL: 'postgres://u@h/chain' }).length).toBeGreaterThan(0);
  });

  it('starts in production with every setting: dev endpoints, docs and stand-ins off', () => {
    const c = loadConfig(PRODUCTION);
    expect(c.demo).toBe(false);
    expect(c.apiDocs).toBe(false);
    expect(c.sms.provider).toBe('tencent');
    expect(c.oauth.provider).toBe('wechat');
    expect(c.payments).toEqual({ wechat: { provider: 'off' }, alipay: { provider: 'off' } });
    expect(loadConfig({ ...PRODUCTION, API_DOCS: '1' }).apiDocs).toBe(true);
  });

  it('APP_MODE=demo runs the local stand-ins with the API docs', () => {
    const c = loadConfig({ APP_MODE: 'demo' });
    expect(c.demo).toBe(true);
    expect(c.apiDocs).toBe(true);
    expect(c.port).toBe(3000);
    expect(c.dataDir).toBe('./data');
    expect(c.sms.provider).toBe('local');
    expect(c.oauth.provider).toBe('local');
    expect(c.payments).toEqual({ wechat: { provider: 'local' }, alipay: { provider: 'local' } });
  });

  it('--demo on the command line is APP_MODE=demo, and contradicting APP_MODE stops the start', () => {
    expect(loadConfig(environmentWith(['--demo'], {})).demo).toBe(true);
    expect(environmentWith([], { PORT: '1' })).toEqual({ PORT: '1' });
    expect(() => environmentWith(['--demo'], { APP_MODE: 'production' })).toThrow(
      /APP_MODE: production, but the command line asks for --demo/,
    );
  });

  it('an unknown mode stops the start, naming APP_MODE', () => {
    expect(problems({ APP_MODE: 'staging' })).toEqual(['APP_MODE: one of demo, production (got "staging")']);
    expect(problems({ APP_MODE: 'Demo' })[0]).toMatch(/^APP_MODE:/);
  });
});

describe('configuration: values parsed strictly, each problem naming its variable', () => {
  const demo = { APP_MODE: 'demo' };

  it('reads PORT, DATA_DIR and DATABASE_URL; an empty value counts as unset', () => {
    const c = loadConfig({ ...demo, PORT: '4100', DATA_DIR: '/tmp/x', DATABASE_URL: 'postgres://u@h/db' });
    expect(c.port).toBe(4100);
    expect(c.dataDir).toBe('/tmp/x');
    expect(c.databaseUrl).toBe('postgres://u@h/db');
    expect(loadConfig({ ...demo, PORT: '', DATABASE_URL: ' ' }).port).toBe(3000);
  });

  it('refuses a malformed number instead of using the default', () => {
    expect(problems({ ...demo, PORT: 'abc' })).toEqual(['PORT: a whole number from 1 to 65535 (got "abc")']);
    expect(problems({ ...demo, PORT: '80.5' })[0]).toMatch(/^PORT:/);
    expect(problems({ ...demo, PORT: '70000' })[0]).toMatch(/^PORT:/);
    expect(problems({ ...demo, DATABASE_POOL_SIZE: '0' })[0]).toMatch(/^DATABASE_POOL_SIZE:/);
    expect(problems({ ...demo, SMS_PER_PHONE_PER_HOUR: '5x' })[0]).toMatch(/^SMS_PER_PHONE_PER_HOUR:/);
    expect(problems({ ...demo, BODY_LIMIT_BYTES: '-1' })[0]).toMatch(/^BODY_LIMIT_BYTES:/);
  });

  it('refuses a malformed address, choice or flag', () => {
    expect(problems({ ...demo, PUBLIC_URL: 'club.example' })[0]).toMatch(/^PUBLIC_URL: an http:\/\/ or https:\/\/ address/);
    expect(problems({ ...demo, DATABASE_URL: 'mysql://u@h/db' })[0]).toMatch(/^DATABASE_URL:/);
    expect(problems({ ...demo, API_DOCS: 'yes' })[0]).toMatch(/^API_DOCS: 1 or 0/);
    expect(problems({ ...demo, PHOTO_STORAGE: 'ftp' })[0]).toMatch(/PHOTO_STORAGE must be database, disk or s3/);
  });

  it('collects every problem in one refusal', () => {
    expect(problems({ ...demo, PORT: 'x', DATABASE_POOL_SIZE: 'y' }).map((l) => l.split(':')[0])).toEqual(['PORT', 'DATABASE_POOL_SIZE']);
  });

  it('refuses a half-configured Tencent SMS, naming each missing setting', () => {
    const p = problems({ ...PRODUCTION, TENCENT_SMS_SDK_APP_ID: '', TENCENT_SMS_SIGN_NAME: undefined, TENCENT_SMS_TEMPLATE_ID: undefined });
    expect(p).toEqual([
      'TENCENT_SMS_SDK_APP_ID: needed with TENCENT_SMS_SECRET_ID, TENCENT_SMS_SECRET_KEY (Tencent SMS is half-configured)',
      'TENCENT_SMS_SIGN_NAME: needed with TENCENT_SMS_SECRET_ID, TENCENT_SMS_SECRET_KEY (Tencent SMS is half-configured)',
      'TENCENT_SMS_TEMPLATE_ID: needed with TENCENT_SMS_SECRET_ID, TENCENT_SMS_SECRET_KEY (Tencent SMS is half-configured)',
    ]);
    // in demo mode too: half a provider is never quietly replaced by the stand-in
    expect(problems({ ...demo, TENCENT_SMS_SECRET_ID: 'id' }).length).toBe(4);
    expect(problems({ ...demo, WECHAT_APP_ID: 'wx1' })).toEqual([
      'WECHAT_APP_SECRET: needed with WECHAT_APP_ID (WeChat login is half-configured)',
    ]);
    expect(problems({ ...PRODUCTION, TENCENT_CAPTCHA_APP_SECRET_KEY: undefined })).toEqual([
      'TENCENT_CAPTCHA_APP_SECRET_KEY: needed with TENCENT_CAPTCHA_SECRET_ID, TENCENT_CAPTCHA_SECRET_KEY, TENCENT_CAPTCHA_APP_ID (Tencent Captcha is half-configured)',
    ]);
    expect(problems({ ...PRODUCTION, TENCENT_CAPTCHA_APP_ID: 'app-1' })[0]).toMatch(/^TENCENT_CAPTCHA_APP_ID: the CaptchaAppId, a number/);
    expect(problems({ ...PRODUCTION, DATA_KEY: 'c2hvcnQ=' })).toEqual([
      'DATA_KEY must be base64 of 32 bytes (e.g. openssl rand -base64 32)',
    ]);
    expect(loadConfig(PRODUCTION).captcha).toMatchObject({
      provider: 'tencent',
      tencent: { appId: 190000002 },
      host: 'captcha.tencentcloudapi.com',
    });
  });

  it('hashes passwords at scrypt N=2^15 in every mode; no environment variable lowers it', () => {
    for (const env of [demo, PRODUCTION, { ...demo, PASSWORD_SCRYPT_N: '1024', SCRYPT_N: '1024' }])
      expect(loadConfig(env).passwordScryptN).toBe(2 ** 15);
  });

  it('TRUST_PROXY: unset, a number of hops, or proxy address ranges; anything else is refused', () => {
    expect(loadConfig(demo).trustProxy).toEqual({ kind: 'none' });
    expect(loadConfig({ ...demo, TRUST_PROXY: '1' }).trustProxy).toEqual({ kind: 'hops', hops: 1 });
    expect(loadConfig({ ...demo, TRUST_PROXY: 'true' }).trustProxy).toEqual({ kind: 'hops', hops: 1 });
    expect(loadConfig({ ...demo, TRUST_PROXY: '2' }).trustProxy).toEqual({ kind: 'hops', hops: 2 });
    expect(loadConfig({ ...demo, TRUST_PROXY: '10.0.0.0/8, 192.0.2.7,fd00::/8' }).trustProxy).toEqual({
      kind: 'ranges',
      ranges: ['10.0.0.0/8', '192.0.2.7', 'fd00::/8'],
    });
    for (const bad of ['yes', '10.0.0.0/33', '300.1.1.1', '11'])
      expect(problems({ ...demo, TRUST_PROXY: bad })[0]).toMatch(/^TRUST_PROXY:/);
  });

  it('serves HTTPS only with both TLS_CERT_FILE and TLS_KEY_FILE, naming the one missing (decision 052)', () => {
    expect(loadConfig(demo).tls).toBeUndefined();
    const dir = mkdtempSync(path.join(tmpdir(), 'yoga-config-'));
    const cert = path.join(dir, 'cert.pem');
    const key = path.join(dir, 'key.pem');
    writeFileSync(cert, 'CERT');
    writeFileSync(key, 'KEY');
    const c = loadConfig({ ...demo, PORT: '4443', TLS_CERT_FILE: cert, TLS_KEY_FILE: key });
    expect(c.tls).toEqual({ cert: 'CERT', key: 'KEY' });
    expect(c.publicUrl).toBe('https://localhost:4443');
    expect(problems({ ...demo, TLS_CERT_FILE: cert })[0]).toMatch(/^TLS_KEY_FILE: .*not set/);
    expect(problems({ ...demo, TLS_KEY_FILE: key })[0]).toMatch(/^TLS_CERT_FILE: .*not set/);
    expect(problems({ ...demo, TLS_CERT_FILE: path.join(dir, 'none.pem'), TLS_KEY_FILE: key })[0]).toMatch(
      /^TLS_CERT_FILE: cannot read .*none\.pem/,
    );
  });
});
