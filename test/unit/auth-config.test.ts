import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config';

describe('auth settings in the configuration', () => {
  it('demo mode points the real WeChat adapter at our stand-in on the public origin', () => {
    const c = loadConfig({ APP_MODE: 'demo', PUBLIC_URL: 'http://127.0.0.1:4321/' });
    expect(c.publicUrl).toBe('http://127.0.0.1:4321');
    expect(c.oauth).toMatchObject({
      provider: 'local',
      authorizeBase: 'http://127.0.0.1:4321/api/dev/wechat',
      apiBase: 'http://127.0.0.1:4321/api/dev/wechat',
    });
    expect(c.sms.provider).toBe('local');
    expect(c.sms.tencentHost).toBe('sms.tencentcloudapi.com');
  });

  it('with WeChat settings it talks to the real hosts, which can be overridden', () => {
    const real = loadConfig({ APP_MODE: 'demo', WECHAT_APP_ID: 'wx1', WECHAT_APP_SECRET: 's' });
    expect(real.oauth).toMatchObject({
      provider: 'wechat',
      authorizeBase: 'https://open.weixin.qq.com',
      apiBase: 'https://api.weixin.qq.com',
    });
    const proxied = loadConfig({
      APP_MODE: 'demo',
      WECHAT_APP_ID: 'wx1',
      WECHAT_APP_SECRET: 's',
      WECHAT_API_BASE: 'https://wx-proxy.example',
    });
    expect(proxied.oauth.apiBase).toBe('https://wx-proxy.example');
  });

  it('production still refuses to start without real SMS and WeChat settings', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://x/y', PUBLIC_URL: 'https://club.example' })).toThrow(
      /TENCENT_SMS_SECRET_ID[\s\S]*WECHAT_APP_ID/,
    );
  });
});
