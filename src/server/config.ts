import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { DEFAULT_TEACHER_CONFIRM_HOURS, SMS_RESEND_COOLDOWN_S } from '../domain/limits';
import { databaseUrl, flag, oneOf, origin, text, trustProxy, whole, wholeGroup, type TrustProxy } from './config-vars';
import type { LocalKeySettings } from './gateways/keys/key-adapter';
import { dataKeySettingsFromEnv } from './gateways/keys/key-settings';
import { loadStorageConfig, type StorageConfig } from './gateways/storage';

export type { TrustProxy } from './config-vars';

/** scrypt's cost N for new password hashes (a stored hash carries its own N, so old hashes still verify). */
export const PASSWORD_SCRYPT_N = 2 ** 15;

/**
 * Every setting comes from the environment, read once here through one schema. The server is
 * production unless demo mode is asked for (APP_MODE=demo, or `--demo` on the command line, which
 * `npm start` passes): a forgotten variable never opens the demo.
 */
export interface Config {
  port: number;
  /** asked for explicitly: local stand-ins for SMS, OAuth and payments, the /api/dev endpoints, the demo seed */
  demo: boolean;
  /** the API documentation at /api/docs (on in demo mode; API_DOCS=1 in production) */
  apiDocs: boolean;
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
  /** which X-Forwarded-For entries to believe: the proxies in front of the process (TRUST_PROXY) */
  trustProxy: TrustProxy;
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
   * requests a minute on the open endpoints (decision 047): payment and refund notifications per
   * address (RATE_NOTIFY_PER_MINUTE, 600), the friend-pay page and pay tap per address
   * (RATE_FRIEND_PER_MINUTE, 60) and per invitation (RATE_FRIEND_INVITATION_PER_MINUTE, 120)
   */
  rateLimits: { notifyPerMinute: number; friendPerMinute: number; friendPerInvitationPerMinute: number };
  /**
   * the security check before a login or an SMS code (login-guard.ts): Tencent Captcha's ticket
   * verification, or in demo mode the same adapter against the stand-in under /api/dev/captcha
   */
  captcha: {
    provider: 'local' | 'tencent';
    tencent?: { secretId: string; secretKey: string; appId: number; appSecretKey: string };
    /** DescribeCaptchaResult's host (captcha.tencentcloudapi.com) */
    host: string;
  };
  /**
   * when the security check is asked for and tries are refused (wrong passwords and codes in the last
   * hour): per phone, per network, and SMS codes a network asked for
   */
  /**
   * the key-encryption keys of ID numbers and photos at rest (DATA_KEY, DATA_KEY_ID, DATA_KEYS_PREVIOUS;
   * decision 055): required in production; demo mode without one uses the public development key
   */
  dataKey: LocalKeySettings;
  /** how long page views are kept (PAGE_VIEW_RETENTION_DAYS, default 180), then the housekeeping deletes them */
  retention: { pageViewDays: number };
  loginGuard: {
    captchaAfterPhoneFailures: number;
    captchaAfterNetworkFailures: number;
    blockNetworkAfterFailures: number;
    smsCaptchaAfterNetworkCodes: number;
  };
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

/** The environment variables the server reads, each parsed strictly (config-vars.ts). */
const EnvSchema = z.object({
  APP_MODE: oneOf(['demo', 'production'], 'production'),
  PORT: whole(3000, 1, 65_535),
  DATABASE_URL: databaseUrl(),
  DATABASE_POOL_SIZE: whole(10, 1, 1_000),
  DATA_DIR: text(),
  PUBLIC_URL: origin(),
  API_DOCS: flag(false),
  BODY_LIMIT_BYTES: whole(1024 * 1024, 1024, 100 * 1024 * 1024),
  TRUST_PROXY: trustProxy(),
  SMS_PER_PHONE_PER_HOUR: whole(5, 1, 1_000),
  SMS_PER_PHONE_PER_DAY: whole(10, 1, 10_000),
  SMS_PER_IP_PER_HOUR: whole(30, 1, 10_000_000),
  SMS_RESEND_COOLDOWN_S: whole(SMS_RESEND_COOLDOWN_S, 1, 3_600),
  TENCENT_SMS_SECRET_ID: text(),
  TENCENT_SMS_SECRET_KEY: text(),
  TENCENT_SMS_SDK_APP_ID: text(),
  TENCENT_SMS_SIGN_NAME: text(),
  TENCENT_SMS_TEMPLATE_ID: text(),
  TENCENT_SMS_REGION: text(),
  TENCENT_SMS_HOST: text(),
  WECHAT_APP_ID: text(),
  WECHAT_APP_SECRET: text(),
  WECHAT_AUTHORIZE_BASE: origin(),
  WECHAT_API_BASE: origin(),
  TENCENT_MAPS_KEY: text(),
  TEACHER_CONFIRM_HOURS: whole(DEFAULT_TEACHER_CONFIRM_HOURS, 1, 24 * 30),
  RATE_NOTIFY_PER_MINUTE: whole(600, 1, 10_000_000),
  RATE_FRIEND_PER_MINUTE: whole(60, 1, 10_000_000),
  RATE_FRIEND_INVITATION_PER_MINUTE: whole(120, 1, 10_000_000),
  WECHAT_PAY_MCH_ID: text(),
  WECHAT_PAY_APP_ID: text(),
  WECHAT_PAY_SERIAL: text(),
  WECHAT_PAY_APIV3_KEY: text(),
  WECHAT_PAY_PUBLIC_KEY_ID: text(),
  WECHAT_PAY_BASE: origin(),
  ALIPAY_APP_ID: text(),
  ALIPAY_GATEWAY: origin(),
  ALIPAY_SELLER_ID: text(),
  TENCENT_CAPTCHA_SECRET_ID: text(),
  TENCENT_CAPTCHA_SECRET_KEY: text(),
  TENCENT_CAPTCHA_APP_ID: text(),
  TENCENT_CAPTCHA_APP_SECRET_KEY: text(),
  TENCENT_CAPTCHA_HOST: text(),
  LOGIN_CAPTCHA_AFTER_PHONE_FAILURES: whole(3, 1, 1_000),
  LOGIN_CAPTCHA_AFTER_NETWORK_FAILURES: whole(5, 1, 100_000),
  LOGIN_BLOCK_NETWORK_AFTER_FAILURES: whole(50, 1, 1_000_000),
  SMS_CAPTCHA_AFTER_NETWORK_CODES: whole(3, 1, 100_000),
  PAGE_VIEW_RETENTION_DAYS: whole(180, 1, 3_650),
});
type Env = z.infer<typeof EnvSchema>;

/** Why the server does not start: each line names a variable and what is wrong with it. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`The configuration is refused:\n${problems.map((p) => `  ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * The environment `npm start` and the other commands pass to loadConfig: `--demo` on the command line
 * is APP_MODE=demo (refused beside an APP_MODE that says otherwise).
 */
export function environmentWith(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  if (!argv.includes('--demo')) return env;
  if (env.APP_MODE && env.APP_MODE !== 'demo') throw new ConfigError([`APP_MODE: ${env.APP_MODE}, but the command line asks for --demo`]);
  return { ...env, APP_MODE: 'demo' };
}

/** A PEM from NAME, or from the file NAME_FILE names; literal "\n" sequences become newlines. */
function pem(env: NodeJS.ProcessEnv, name: string, problems: string[]): string | undefined {
  const file = env[`${name}_FILE`]?.trim();
  let raw = env[name];
  if (file) {
    try {
      raw = readFileSync(file, 'utf8');
    } catch (err) {
      problems.push(`${name}_FILE: cannot read ${file} (${err instanceof Error ? err.message : String(err)})`);
      return undefined;
    }
  }
  const text = raw?.replace(/\\n/g, '\n').trim();
  return text || undefined;
}

/** The WeChat Pay public keys by serial: from a platform certificate and/or the WeChat Pay public key and its id. */
function wechatPayKeys(env: NodeJS.ProcessEnv, v: Env, problems: string[]) {
  const keys: { serial: string; publicKey: string }[] = [];
  const cert = pem(env, 'WECHAT_PAY_PLATFORM_CERT', problems);
  if (cert) {
    try {
      const x = new X509Certificate(cert);
      keys.push({ serial: x.serialNumber.toUpperCase(), publicKey: x.publicKey.export({ type: 'spki', format: 'pem' }).toString() });
    } catch {
      problems.push('WECHAT_PAY_PLATFORM_CERT: not a PEM certificate');
    }
  }
  const publicKey = pem(env, 'WECHAT_PAY_PUBLIC_KEY', problems);
  if (publicKey && v.WECHAT_PAY_PUBLIC_KEY_ID) keys.push({ serial: v.WECHAT_PAY_PUBLIC_KEY_ID, publicKey });
  else if (publicKey || v.WECHAT_PAY_PUBLIC_KEY_ID)
    problems.push(`${publicKey ? 'WECHAT_PAY_PUBLIC_KEY_ID' : 'WECHAT_PAY_PUBLIC_KEY'}: the WeChat Pay public key and its id go together`);
  return keys;
}

/**
 * The payment settings: a real provider with every credential, a stand-in in demo mode, otherwise off
 * (the method is not offered). Some credentials but not all stops the start, naming what is missing.
 */
function loadPayments(env: NodeJS.ProcessEnv, v: Env, demo: boolean, problems: string[]): PaymentsConfig {
  const privateKey = pem(env, 'WECHAT_PAY_PRIVATE_KEY', problems);
  const platformKeys = wechatPayKeys(env, v, problems);
  const given = { ...v, WECHAT_PAY_PRIVATE_KEY: privateKey, WECHAT_PAY_KEYS: platformKeys.length ? 'set' : undefined };
  const wechatGroup = wholeGroup(given, 'WeChat Pay', [
    'WECHAT_PAY_MCH_ID',
    'WECHAT_PAY_APP_ID',
    'WECHAT_PAY_SERIAL',
    'WECHAT_PAY_PRIVATE_KEY',
    'WECHAT_PAY_APIV3_KEY',
    'WECHAT_PAY_KEYS',
  ]);
  problems.push(
    ...wechatGroup.missing.map((m) =>
      m.replace(/^WECHAT_PAY_KEYS:/, 'WECHAT_PAY_PLATFORM_CERT or WECHAT_PAY_PUBLIC_KEY with WECHAT_PAY_PUBLIC_KEY_ID:'),
    ),
  );
  const wechat: PaymentsConfig['wechat'] = wechatGroup.on
    ? {
        provider: 'wechat',
        mchId: v.WECHAT_PAY_MCH_ID!,
        appId: v.WECHAT_PAY_APP_ID!,
        serialNo: v.WECHAT_PAY_SERIAL!,
        privateKey: privateKey!,
        apiV3Key: v.WECHAT_PAY_APIV3_KEY!,
        platformKeys,
        base: v.WECHAT_PAY_BASE ?? 'https://api.mch.weixin.qq.com',
      }
    : { provider: demo ? 'local' : 'off' };
  const alipayKey = pem(env, 'ALIPAY_PRIVATE_KEY', problems);
  const alipayPublicKey = pem(env, 'ALIPAY_PUBLIC_KEY', problems);
  const alipayGroup = wholeGroup({ ...v, ALIPAY_PRIVATE_KEY: alipayKey, ALIPAY_PUBLIC_KEY: alipayPublicKey }, 'Alipay', [
    'ALIPAY_APP_ID',
    'ALIPAY_PRIVATE_KEY',
    'ALIPAY_PUBLIC_KEY',
  ]);
  problems.push(...alipayGroup.missing);
  const alipay: PaymentsConfig['alipay'] = alipayGroup.on
    ? {
        provider: 'alipay',
        appId: v.ALIPAY_APP_ID!,
        privateKey: alipayKey!,
        alipayPublicKey: alipayPublicKey!,
        gateway: v.ALIPAY_GATEWAY ?? 'https://openapi.alipay.com/gateway.do',
        sellerId: v.ALIPAY_SELLER_ID,
      }
    : { provider: demo ? 'local' : 'off' };
  return { wechat, alipay };
}

/** TLS_CERT_FILE and TLS_KEY_FILE: both (read here, so a wrong path stops the start naming it) or neither. */
function loadTls(env: NodeJS.ProcessEnv, problems: string[]): Config['tls'] {
  const certFile = env.TLS_CERT_FILE?.trim() || undefined;
  const keyFile = env.TLS_KEY_FILE?.trim() || undefined;
  if (!certFile && !keyFile) return undefined;
  if (!certFile || !keyFile) {
    problems.push(`${certFile ? 'TLS_KEY_FILE' : 'TLS_CERT_FILE'}: HTTPS needs both TLS_CERT_FILE and TLS_KEY_FILE, and it is not set`);
    return undefined;
  }
  const read = (name: string, file: string) => {
    try {
      return readFileSync(file, 'utf8');
    } catch (err) {
      problems.push(`${name}: cannot read ${file} (${err instanceof Error ? err.message : String(err)})`);
      return '';
    }
  };
  return { cert: read('TLS_CERT_FILE', certFile), key: read('TLS_KEY_FILE', keyFile) };
}

/** A setting that throws its own error (storage), as one more problem. */
function attempt<T>(problems: string[], fallback: T, read: () => T): T {
  try {
    return read();
  } catch (err) {
    problems.push(err instanceof Error ? err.message : String(err));
    return fallback;
  }
}

/**
 * Reads and checks the whole configuration once. Every problem is collected and reported together
 * (ConfigError), each naming its variable: a malformed number, an unknown choice, a half-configured
 * provider, and in production a missing database, public address, SMS or messaging-app login.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  const v = parsed.data;
  const demo = v.APP_MODE === 'demo';
  const problems: string[] = [];
  const tls = loadTls(env, problems);
  const publicUrl = v.PUBLIC_URL ?? `${tls ? 'https' : 'http'}://localhost:${v.PORT}`;
  const smsGroup = wholeGroup(v, 'Tencent SMS', [
    'TENCENT_SMS_SECRET_ID',
    'TENCENT_SMS_SECRET_KEY',
    'TENCENT_SMS_SDK_APP_ID',
    'TENCENT_SMS_SIGN_NAME',
    'TENCENT_SMS_TEMPLATE_ID',
  ]);
  const oauthGroup = wholeGroup(v, 'WeChat login', ['WECHAT_APP_ID', 'WECHAT_APP_SECRET']);
  problems.push(...smsGroup.missing, ...oauthGroup.missing);
  const tencent = smsGroup.on
    ? {
        secretId: v.TENCENT_SMS_SECRET_ID!,
        secretKey: v.TENCENT_SMS_SECRET_KEY!,
        sdkAppId: v.TENCENT_SMS_SDK_APP_ID!,
        signName: v.TENCENT_SMS_SIGN_NAME!,
        templateId: v.TENCENT_SMS_TEMPLATE_ID!,
        region: v.TENCENT_SMS_REGION ?? 'ap-guangzhou',
      }
    : undefined;
  const captchaGroup = wholeGroup(v, 'Tencent Captcha', [
    'TENCENT_CAPTCHA_SECRET_ID',
    'TENCENT_CAPTCHA_SECRET_KEY',
    'TENCENT_CAPTCHA_APP_ID',
    'TENCENT_CAPTCHA_APP_SECRET_KEY',
  ]);
  problems.push(...captchaGroup.missing);
  const captchaAppId =
    v.TENCENT_CAPTCHA_APP_ID === undefined
      ? undefined
      : /^\d{1,12}$/.test(v.TENCENT_CAPTCHA_APP_ID)
        ? Number(v.TENCENT_CAPTCHA_APP_ID)
        : undefined;
  if (v.TENCENT_CAPTCHA_APP_ID !== undefined && captchaAppId === undefined)
    problems.push(`TENCENT_CAPTCHA_APP_ID: the CaptchaAppId, a number (got "${v.TENCENT_CAPTCHA_APP_ID}")`);
  const captchaTencent =
    captchaGroup.on && captchaAppId !== undefined
      ? {
          secretId: v.TENCENT_CAPTCHA_SECRET_ID!,
          secretKey: v.TENCENT_CAPTCHA_SECRET_KEY!,
          appId: captchaAppId,
          appSecretKey: v.TENCENT_CAPTCHA_APP_SECRET_KEY!,
        }
      : undefined;
  const wechat = oauthGroup.on ? { appId: v.WECHAT_APP_ID!, appSecret: v.WECHAT_APP_SECRET! } : undefined;
  // Without WeChat settings the real adapter talks to our own stand-in (demo mode only; production refuses below).
  const standInBase = `${publicUrl}/api/dev/wechat`;
  const dataDir = v.DATA_DIR ?? './data';
  const config: Config = {
    port: v.PORT,
    demo,
    apiDocs: demo || v.API_DOCS,
    databaseUrl: v.DATABASE_URL,
    databasePoolSize: v.DATABASE_POOL_SIZE,
    dataDir,
    publicUrl,
    apiBase: '/api',
    sms: {
      provider: tencent ? 'tencent' : 'local',
      perPhonePerHour: v.SMS_PER_PHONE_PER_HOUR,
      perPhonePerDay: v.SMS_PER_PHONE_PER_DAY,
      perIpPerHour: v.SMS_PER_IP_PER_HOUR,
      resendCooldownS: v.SMS_RESEND_COOLDOWN_S,
      tencent,
      tencentHost: v.TENCENT_SMS_HOST ?? 'sms.tencentcloudapi.com',
    },
    oauth: {
      provider: wechat ? 'wechat' : 'local',
      wechat,
      authorizeBase: wechat ? (v.WECHAT_AUTHORIZE_BASE ?? 'https://open.weixin.qq.com') : standInBase,
      apiBase: wechat ? (v.WECHAT_API_BASE ?? 'https://api.weixin.qq.com') : standInBase,
    },
    maps: { provider: v.TENCENT_MAPS_KEY ? 'tencent' : 'local', tencentKey: v.TENCENT_MAPS_KEY },
    storage: attempt<StorageConfig>(problems, { provider: 'database' }, () => loadStorageConfig(env, dataDir)),
    payments: loadPayments(env, v, demo, problems),
    bodyLimitBytes: v.BODY_LIMIT_BYTES,
    trustProxy: v.TRUST_PROXY,
    tls,
    passwordScryptN: PASSWORD_SCRYPT_N,
    teacherConfirmHours: v.TEACHER_CONFIRM_HOURS,
    rateLimits: {
      notifyPerMinute: v.RATE_NOTIFY_PER_MINUTE,
      friendPerMinute: v.RATE_FRIEND_PER_MINUTE,
      friendPerInvitationPerMinute: v.RATE_FRIEND_INVITATION_PER_MINUTE,
    },
    captcha: {
      provider: captchaTencent ? 'tencent' : 'local',
      tencent: captchaTencent,
      host: v.TENCENT_CAPTCHA_HOST ?? 'captcha.tencentcloudapi.com',
    },
    dataKey: attempt<LocalKeySettings>(problems, { current: { id: 'unset', key: Buffer.alloc(32) }, previous: [] }, () =>
      dataKeySettingsFromEnv(env, demo),
    ),
    retention: { pageViewDays: v.PAGE_VIEW_RETENTION_DAYS },
    loginGuard: {
      captchaAfterPhoneFailures: v.LOGIN_CAPTCHA_AFTER_PHONE_FAILURES,
      captchaAfterNetworkFailures: v.LOGIN_CAPTCHA_AFTER_NETWORK_FAILURES,
      blockNetworkAfterFailures: v.LOGIN_BLOCK_NETWORK_AFTER_FAILURES,
      smsCaptchaAfterNetworkCodes: v.SMS_CAPTCHA_AFTER_NETWORK_CODES,
    },
  };
  if (!demo) {
    const need = (name: string, why: string) =>
      problems.push(`${name}: needed in production (${why}); demo mode is APP_MODE=demo or --demo`);
    if (!config.databaseUrl) need('DATABASE_URL', 'the chain’s PostgreSQL');
    if (!v.PUBLIC_URL) need('PUBLIC_URL', 'the address members open, used in login redirects');
    if (!tencent && smsGroup.missing.length === 0)
      need(
        'TENCENT_SMS_SECRET_ID, TENCENT_SMS_SECRET_KEY, TENCENT_SMS_SDK_APP_ID, TENCENT_SMS_SIGN_NAME, TENCENT_SMS_TEMPLATE_ID',
        'login codes by SMS',
      );
    if (!wechat && oauthGroup.missing.length === 0) need('WECHAT_APP_ID, WECHAT_APP_SECRET', 'the messaging app’s login');
    if (!captchaTencent && captchaGroup.missing.length === 0)
      need(
        'TENCENT_CAPTCHA_SECRET_ID, TENCENT_CAPTCHA_SECRET_KEY, TENCENT_CAPTCHA_APP_ID, TENCENT_CAPTCHA_APP_SECRET_KEY',
        'the security check before logins and codes from a network that keeps failing',
      );
  }
  if (problems.length) throw new ConfigError(problems);
  return config;
}
