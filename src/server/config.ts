import { loadStorageConfig, type StorageConfig } from './gateways/storage';
import { parseDefaultPasswordRule, type DefaultPasswordRule } from '../domain/default-password';
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { DEFAULT_TEACHER_CONFIRM_HOURS, SMS_RESEND_COOLDOWN_S } from '../domain/limits';

/** scrypt's cost N for new password hashes (a stored hash carries its own N, so old hashes still verify). */
export const PASSWORD_SCRYPT_N = 2 ** 15;

/**
 * Every setting comes from the environment, read once here. The README's table lists each one.
 * Demo mode (the default outside production) turns on the local stand-ins and the dev endpoints.
 */
export interface Config {
  port: number;
  production: boolean;
  /** local stand-ins for SMS, OAuth and payments, and the /api/dev endpoints */
  demo: boolean;
  databaseUrl?: string;
  /** PostgreSQL connections per process (each booking or payment decision holds one briefly) */
  databasePoolSize: number;
  dataDir: string;
  /** public origin of the app, used in OAuth redirects */
  publicUrl: string;
  apiBase: string;
  sms: {
    provider: 'local' | 'tencent';
    perPhonePerHour: number;
    perPhonePerDay: number;
    perIpPerHour: number;
    /** seconds before the same phone can be texted another code; the app counts down what the server answers */
    resendCooldownS: number;
    tencent?: { secretId: string; secretKey: string; sdkAppId: string; signName: string; templateId: string; region: string };
    /** SendSms endpoint host (sms.tencentcloudapi.com) */
    tencentHost: string;
  };
  oauth: {
    /** 'local': the real WeChat adapter pointed at our stand-in under /api/dev/wechat (demo mode) */
    provider: 'local' | 'wechat';
    wechat?: { appId: string; appSecret: string };
    /** where the member's browser is sent to authorize (https://open.weixin.qq.com) */
    authorizeBase: string;
    /** where the server exchanges the code (https://api.weixin.qq.com) */
    apiBase: string;
  };
  maps: { provider: 'local' | 'tencent'; tencentKey?: string };
  /** where uploaded photos' bytes live (decision 042): PostgreSQL unless PHOTO_STORAGE says disk or s3 */
  storage: StorageConfig;
  payments: PaymentsConfig;
  bodyLimitBytes: number;
  /** believe X-Forwarded-For (only behind a proxy that overwrites it) */
  trustProxy: boolean;
  /**
   * the certificate chain and key (PEM) when the process itself serves HTTPS, HTTP/2 with HTTP/1.1
   * beside it (TLS_CERT_FILE and TLS_KEY_FILE; decision 052); unset behind a TLS-terminating proxy
   */
  tls?: { cert: string; key: string };
  /**
   * scrypt's cost N for new password hashes: always 2^15 from the environment; only the API-test
   * harness passes a cheaper one (decision 015), and a test holds loadConfig to 2^15.
   */
  passwordScryptN: number;
  /** hours before a class starts by which its asked teacher must confirm (TEACHER_CONFIRM_HOURS, default 24; decision 029) */
  teacherConfirmHours: number;
  /**
   * how the default password of a member registered by staff is formed (DEFAULT_PASSWORD_PREFIX,
   * DEFAULT_PASSWORD_PHONE_DIGITS; decision 045): the login page's hint says it, never a password
   */
  defaultPassword: DefaultPasswordRule;
  /**
   * requests a minute on the open endpoints (decision 047): payment and refund notifications per
   * address (RATE_NOTIFY_PER_MINUTE, 600), the friend-pay page and pay tap per address
   * (RATE_FRIEND_PER_MINUTE, 60) and per invitation (RATE_FRIEND_INVITATION_PER_MINUTE, 120)
   */
  rateLimits: { notifyPerMinute: number; friendPerMinute: number; friendPerInvitationPerMinute: number };
}

/**
 * Payment providers. 'local' is our real adapter pointed at the stand-in under /api/dev/pay (demo mode);
 * 'off' (production without credentials) hides the method instead of faking it. Keys are PEM text.
 */
export interface PaymentsConfig {
  wechat:
    | { provider: 'local' | 'off' }
    | {
        provider: 'wechat';
        mchId: string;
        appId: string;
        serialNo: string;
        privateKey: string;
        apiV3Key: string;
        /** WeChat Pay's public keys by serial: platform certificates or the WeChat Pay public key (id) */
        platformKeys: { serial: string; publicKey: string }[];
        /** https://api.mch.weixin.qq.com */
        base: string;
      };
  alipay:
    | { provider: 'local' | 'off' }
    | {
        provider: 'alipay';
        appId: string;
        privateKey: string;
        alipayPublicKey: string;
        /** https://openapi.alipay.com/gateway.do */
        gateway: string;
        sellerId?: string;
      };
}

/** A PEM from NAME, or from the file NAME_FILE names; literal "\n" sequences become newlines. */
function pem(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const file = env[`${name}_FILE`];
  const text = file ? readFileSync(file, 'utf8') : env[name];
  return text ? text.replace(/\\n/g, '\n').trim() : undefined;
}

/** The payment settings: real providers with full credentials, stand-ins in demo mode, otherwise off. */
function loadPayments(env: NodeJS.ProcessEnv, demo: boolean): PaymentsConfig {
  const wechatKey = pem(env, 'WECHAT_PAY_PRIVATE_KEY');
  const platformCert = pem(env, 'WECHAT_PAY_PLATFORM_CERT');
  const payPublicKey = pem(env, 'WECHAT_PAY_PUBLIC_KEY');
  const platformKeys: { serial: string; publicKey: string }[] = [];
  if (platformCert) {
    const cert = new X509Certificate(platformCert);
    platformKeys.push({ serial: cert.serialNumber.toUpperCase(), publicKey: cert.publicKey.export({ type: 'spki', format: 'pem' }).toString() });
  }
  if (payPublicKey && env.WECHAT_PAY_PUBLIC_KEY_ID) platformKeys.push({ serial: env.WECHAT_PAY_PUBLIC_KEY_ID, publicKey: payPublicKey });
  const { WECHAT_PAY_MCH_ID: mchId, WECHAT_PAY_APP_ID: appId, WECHAT_PAY_SERIAL: serialNo, WECHAT_PAY_APIV3_KEY: apiV3Key } = env;
  const wechat: PaymentsConfig['wechat'] =
    mchId && appId && serialNo && wechatKey && apiV3Key && platformKeys.length
      ? { provider: 'wechat', mchId, appId, serialNo, privateKey: wechatKey, apiV3Key, platformKeys, base: (env.WECHAT_PAY_BASE || 'https://api.mch.weixin.qq.com').replace(/\/+$/, '') }
      : { provider: demo ? 'local' : 'off' };
  const alipayKey = pem(env, 'ALIPAY_PRIVATE_KEY');
  const alipayPublicKey = pem(env, 'ALIPAY_PUBLIC_KEY');
  const alipay: PaymentsConfig['alipay'] =
    env.ALIPAY_APP_ID && alipayKey && alipayPublicKey
      ? {
          provider: 'alipay',
          appId: env.ALIPAY_APP_ID,
          privateKey: alipayKey,
          alipayPublicKey,
          gateway: env.ALIPAY_GATEWAY || 'https://openapi.alipay.com/gateway.do',
          sellerId: env.ALIPAY_SELLER_ID || undefined,
        }
      : { provider: demo ? 'local' : 'off' };
  return { wechat, alipay };
}

function int(v: string | undefined, d: number): number {
  const n = v === undefined || v === '' ? NaN : Number(v);
  return Number.isFinite(n) ? n : d;
}

/** TLS_CERT_FILE and TLS_KEY_FILE: both (read here, so a wrong path stops the start naming it) or neither. */
function loadTls(env: NodeJS.ProcessEnv): Config['tls'] {
  const certFile = env.TLS_CERT_FILE || undefined;
  const keyFile = env.TLS_KEY_FILE || undefined;
  if (!certFile && !keyFile) return undefined;
  if (!certFile || !keyFile) throw new Error(`HTTPS needs both TLS_CERT_FILE and TLS_KEY_FILE; ${certFile ? 'TLS_KEY_FILE' : 'TLS_CERT_FILE'} is not set`);
  return { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8') };
}

/** Reads the configuration; in production refuses to start without the real adapters' settings. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const production = env.NODE_ENV === 'production';
  const port = int(env.PORT, 3000);
  const tencentSms =
    env.TENCENT_SMS_SECRET_ID && env.TENCENT_SMS_SECRET_KEY
      ? {
          secretId: env.TENCENT_SMS_SECRET_ID,
          secretKey: env.TENCENT_SMS_SECRET_KEY,
          sdkAppId: env.TENCENT_SMS_SDK_APP_ID ?? '',
          signName: env.TENCENT_SMS_SIGN_NAME ?? '',
          templateId: env.TENCENT_SMS_TEMPLATE_ID ?? '',
          region: env.TENCENT_SMS_REGION ?? 'ap-guangzhou',
        }
      : undefined;
  const tls = loadTls(env);
  const publicUrl = (env.PUBLIC_URL || `${tls ? 'https' : 'http'}://localhost:${port}`).replace(/\/+$/, '');
  // Without WeChat settings the real adapter talks to our own stand-in (demo mode only; production refuses below).
  const standInBase = `${publicUrl}/api/dev/wechat`;
  const wechat = env.WECHAT_APP_ID && env.WECHAT_APP_SECRET ? { appId: env.WECHAT_APP_ID, appSecret: env.WECHAT_APP_SECRET } : undefined;
  const config: Config = {
    port,
    production,
    demo: !production,
    databaseUrl: env.DATABASE_URL || undefined,
    databasePoolSize: int(env.DATABASE_POOL_SIZE, 10),
    dataDir: env.DATA_DIR || './data',
    publicUrl,
    apiBase: '/api',
    sms: {
      provider: tencentSms ? 'tencent' : 'local',
      perPhonePerHour: int(env.SMS_PER_PHONE_PER_HOUR, 5),
      perPhonePerDay: int(env.SMS_PER_PHONE_PER_DAY, 10),
      perIpPerHour: int(env.SMS_PER_IP_PER_HOUR, 30),
      resendCooldownS: int(env.SMS_RESEND_COOLDOWN_S, SMS_RESEND_COOLDOWN_S),
      tencent: tencentSms,
      tencentHost: env.TENCENT_SMS_HOST || 'sms.tencentcloudapi.com',
    },
    oauth: {
      provider: wechat ? 'wechat' : 'local',
      wechat,
      authorizeBase: wechat ? env.WECHAT_AUTHORIZE_BASE || 'https://open.weixin.qq.com' : standInBase,
      apiBase: wechat ? env.WECHAT_API_BASE || 'https://api.weixin.qq.com' : standInBase,
    },
    maps: { provider: env.TENCENT_MAPS_KEY ? 'tencent' : 'local', tencentKey: env.TENCENT_MAPS_KEY },
    storage: loadStorageConfig(env, env.DATA_DIR || './data'),
    payments: loadPayments(env, !production),
    bodyLimitBytes: int(env.BODY_LIMIT_BYTES, 1024 * 1024),
    trustProxy: env.TRUST_PROXY === '1' || env.TRUST_PROXY === 'true',
    tls,
    passwordScryptN: PASSWORD_SCRYPT_N,
    teacherConfirmHours: int(env.TEACHER_CONFIRM_HOURS, DEFAULT_TEACHER_CONFIRM_HOURS),
    defaultPassword: parseDefaultPasswordRule(env.DEFAULT_PASSWORD_PREFIX, env.DEFAULT_PASSWORD_PHONE_DIGITS),
    rateLimits: {
      notifyPerMinute: int(env.RATE_NOTIFY_PER_MINUTE, 600),
      friendPerMinute: int(env.RATE_FRIEND_PER_MINUTE, 60),
      friendPerInvitationPerMinute: int(env.RATE_FRIEND_INVITATION_PER_MINUTE, 120),
    },
  };
  if (production) {
    const missing: string[] = [];
    if (!config.databaseUrl) missing.push('DATABASE_URL');
    if (!tencentSms) missing.push('TENCENT_SMS_SECRET_ID', 'TENCENT_SMS_SECRET_KEY', 'TENCENT_SMS_SDK_APP_ID', 'TENCENT_SMS_SIGN_NAME', 'TENCENT_SMS_TEMPLATE_ID');
    if (!wechat) missing.push('WECHAT_APP_ID', 'WECHAT_APP_SECRET');
    if (!env.PUBLIC_URL) missing.push('PUBLIC_URL');
    if (missing.length) throw new Error(`NODE_ENV=production needs these settings: ${missing.join(', ')}`);
  }
  return config;
}
