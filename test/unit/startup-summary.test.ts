import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { environmentWith, loadConfig } from '../../src/server/config';
import { adapterSummary } from '../../src/server/startup-summary';
import { PRODUCTION_ENV } from '../production-env';

const PRODUCTION = PRODUCTION_ENV;

const line = (lines: string[], what: string) =>
  lines
    .find((l) => l.trim().startsWith(`${what}:`))
    ?.split(`${what}:`)[1]
    ?.trim();

describe('the start-up summary: which adapter is live for each outside party', () => {
  it('in production names the real providers and says which are off', () => {
    const lines = adapterSummary(
      loadConfig({ ...PRODUCTION, PHOTO_STORAGE: 'disk', PHOTO_STORAGE_DIR: '/srv/photos', TRUST_PROXY: '10.0.0.0/8' }),
      'postgres',
    );
    expect(line(lines, 'mode')).toBe('production');
    expect(line(lines, 'SMS')).toBe('Tencent Cloud SMS (app 1400000000, sign YogaClub, ap-guangzhou)');
    expect(line(lines, 'messaging-app login')).toMatch(/^WeChat OAuth \(app wx1/);
    expect(line(lines, 'WeChat Pay')).toBe('off: not offered');
    expect(line(lines, 'Alipay')).toBe('off: not offered');
    expect(line(lines, 'security check')).toBe('Tencent Captcha (app 190000002)');
    expect(line(lines, 'data key')).toBe('k1 (local key)');
    expect(line(lines, 'maps distance')).toMatch(/computed locally/);
    expect(line(lines, 'photo storage')).toBe('disk (/srv/photos)');
    expect(line(lines, 'forwarded addresses')).toBe('proxies in 10.0.0.0/8 trusted');
    expect(line(lines, 'API documentation')).toMatch(/^off/);
  });

  it('in demo mode says each stand-in', () => {
    const lines = adapterSummary(loadConfig({ APP_MODE: 'demo' }), 'pglite');
    expect(line(lines, 'mode')).toMatch(/^demo/);
    for (const what of ['SMS', 'messaging-app login', 'WeChat Pay', 'Alipay', 'security check'])
      expect(line(lines, what)).toMatch(/^stand-in/);
    expect(line(lines, 'database')).toBe('PGlite in ./data');
  });

  it('`npm start` asks for the demo on the command line; `npm run serve` does not', () => {
    const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
    const args = (script: string) => script.split('&&').at(-1)!.trim().split(/\s+/).slice(2);
    expect(loadConfig(environmentWith(args(scripts.start!), {})).demo).toBe(true);
    expect(args(scripts.serve!)).toEqual([]);
  });
});
