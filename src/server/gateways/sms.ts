import { desc, eq } from 'drizzle-orm';
import type { Clock } from '../../domain/clock';
import { SMS_CODE_TTL_MS } from '../../domain/limits';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { devSmsOutbox } from '../db/schema/index';
import type { Deps } from '../env';
import type { SmsGateway } from './index';
import { tc3Headers } from './tencent-tc3';

/** fetch as the adapters use it, injectable so a test can read the request without a network. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/**
 * The local stand-in: the code goes to the server log and, outside production, into dev_sms_outbox
 * (a table, not memory: any process can answer GET /api/dev/sms/:phone).
 */
export function localSms(deps: { db: Db; clock: Clock; production: boolean }): SmsGateway {
  return {
    async sendCode(phone, code, log) {
      log.info('sms code (local adapter)', { phone, code });
      if (!deps.production) await deps.db.insert(devSmsOutbox).values({ phone, code, createdAt: deps.clock.now() });
    },
  };
}

/** The last code the local adapter sent to a phone (demo mode's GET /api/dev/sms/:phone). */
export async function lastDevCode(db: Db, phone: string): Promise<{ code: string; sentAt: Date } | undefined> {
  const rows = await db.select().from(devSmsOutbox).where(eq(devSmsOutbox.phone, phone)).orderBy(desc(devSmsOutbox.id)).limit(1);
  return rows[0] ? { code: rows[0].code, sentAt: rows[0].createdAt } : undefined;
}

export interface TencentSmsSettings {
  secretId: string;
  secretKey: string;
  sdkAppId: string;
  signName: string;
  templateId: string;
  region: string;
  host: string;
}

/**
 * Tencent Cloud SMS, SendSms API 2021-01-11, signed with TC3-HMAC-SHA256.
 * The template takes two parameters: the code and its validity in minutes.
 */
export function tencentSms(settings: TencentSmsSettings, deps: { clock: Clock; fetch?: FetchLike }): SmsGateway {
  const doFetch: FetchLike = deps.fetch ?? ((url, init) => fetch(url, init));
  return {
    async sendCode(phone, code, log) {
      const payload = JSON.stringify({
        PhoneNumberSet: [`+86${phone}`],
        SmsSdkAppId: settings.sdkAppId,
        SignName: settings.signName,
        TemplateId: settings.templateId,
        TemplateParamSet: [code, String(SMS_CODE_TTL_MS / 60_000)],
      });
      const headers = tc3Headers({
        secretId: settings.secretId,
        secretKey: settings.secretKey,
        service: 'sms',
        host: settings.host,
        action: 'SendSms',
        version: '2021-01-11',
        region: settings.region,
        payload,
        timestamp: Math.floor(deps.clock.now().getTime() / 1000),
      });
      const res = await doFetch(`https://${settings.host}/`, {
        method: 'POST',
        headers,
        body: payload,
        signal: AbortSignal.timeout(10_000),
      });
      const body = (await res.json().catch(() => ({}))) as {
        Response?: { Error?: { Code: string; Message: string }; SendStatusSet?: { Code: string; Message: string }[]; RequestId?: string };
      };
      const r = body.Response;
      const status = r?.SendStatusSet?.[0];
      if (!res.ok || !r || r.Error || status?.Code !== 'Ok') {
        const reason = r?.Error ?? status ?? { Code: `HTTP ${res.status}`, Message: '' };
        log.error('tencent sms refused', { requestId: r?.RequestId, code: reason.Code, message: reason.Message });
        throw new Error(`SendSms failed: ${reason.Code}`);
      }
    },
  };
}

export function createSmsGateway(config: Config, deps: Omit<Deps, 'gateways'>): SmsGateway {
  if (config.sms.provider === 'tencent' && config.sms.tencent) {
    return tencentSms({ ...config.sms.tencent, host: config.sms.tencentHost }, deps);
  }
  return localSms({ db: deps.db, clock: deps.clock, production: !config.demo });
}
