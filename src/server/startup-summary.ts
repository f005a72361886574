import type { Config } from './config';
import { DEMO_DATA_KEY_ID } from './gateways/keys/key-settings';

/**
 * What the start prints about each outside party: which adapter is live. An operator on call reads
 * it to know whether members get real SMS, real payments and where photos go; "off" means the
 * feature is not offered, "stand-in" that it is simulated (demo mode only).
 */
export function adapterSummary(config: Config, databaseKind: 'pglite' | 'postgres'): string[] {
  const { sms, oauth, payments, maps, storage } = config;
  const lines: [string, string][] = [
    ['mode', config.demo ? 'demo (APP_MODE=demo): stand-ins, /api/dev and the demo chain' : 'production'],
    ['database', databaseKind === 'pglite' ? `PGlite in ${config.dataDir}` : `PostgreSQL (pool of ${config.databasePoolSize})`],
    ['public address', config.publicUrl],
    [
      'SMS',
      sms.tencent
        ? `Tencent Cloud SMS (app ${sms.tencent.sdkAppId}, sign ${sms.tencent.signName}, ${sms.tencent.region})`
        : 'stand-in: codes in this log and at /api/dev/sms/<phone>',
    ],
    ['messaging-app login', oauth.wechat ? `WeChat OAuth (app ${oauth.wechat.appId}, ${oauth.apiBase})` : `stand-in at ${oauth.apiBase}`],
    [
      'WeChat Pay',
      payments.wechat.provider === 'wechat'
        ? `WeChat Pay v3 (merchant ${payments.wechat.mchId}, ${payments.wechat.base})`
        : payments.wechat.provider === 'local'
          ? 'stand-in at /api/dev/pay/wechat'
          : 'off: not offered',
    ],
    [
      'Alipay',
      payments.alipay.provider === 'alipay'
        ? `Alipay (app ${payments.alipay.appId}, ${payments.alipay.gateway})`
        : payments.alipay.provider === 'local'
          ? 'stand-in at /api/dev/pay/alipay'
          : 'off: not offered',
    ],
    [
      'security check',
      config.captcha.tencent
        ? `Tencent Captcha (app ${config.captcha.tencent.appId})`
        : 'stand-in widget and DescribeCaptchaResult (/api/dev/captcha)',
    ],
    [
      'data key',
      config.dataKey.current.id === DEMO_DATA_KEY_ID
        ? 'the public development key (demo only)'
        : `${config.dataKey.current.id} (local key)${config.dataKey.previous.length ? `; also reads ${config.dataKey.previous.map((k) => k.id).join(', ')}` : ''}`,
    ],
    ['maps distance', maps.provider === 'tencent' ? 'Tencent Maps' : 'computed locally (great-circle distance)'],
    [
      'photo storage',
      storage.provider === 's3'
        ? `S3 (${storage.s3.endpoint}, bucket ${storage.s3.bucket})`
        : storage.provider === 'disk'
          ? `disk (${storage.dir})`
          : 'PostgreSQL',
    ],
    [
      'forwarded addresses',
      config.trustProxy.kind === 'none'
        ? 'not believed (TRUST_PROXY unset)'
        : config.trustProxy.kind === 'hops'
          ? `the last ${config.trustProxy.hops} proxy hop(s) trusted`
          : `proxies in ${config.trustProxy.ranges.join(', ')} trusted`,
    ],
    ['API documentation', config.apiDocs ? '/api/docs' : 'off (API_DOCS=1 turns it on)'],
  ];
  return lines.map(([what, how]) => `  ${`${what}:`.padEnd(22)}${how}`);
}
