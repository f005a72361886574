import type { Clock } from '../../domain/clock';
import type { Config } from '../config';
import type { Deps } from '../env';
import type { FetchLike } from './sms';
import { captchaStandInFetch, STANDIN_CAPTCHA } from './captcha-standin';
import { tc3Headers } from './tencent-tc3';

/**
 * The security check (Tencent Captcha): the app's widget hands the member a ticket and a random
 * string; the server asks the provider whether they are genuine, once. The app needs the app id to
 * open the widget.
 */
export interface CaptchaGateway {
  /** CaptchaAppId, for the app's widget */
  appId: number;
  /** which widget the app opens: Tencent's, or the stand-in's (demo mode) */
  widget: 'tencent' | 'stand-in';
  /** whether the provider stands behind this ticket, for this address; false for any refusal */
  verify(ticket: string, randstr: string, userIp: string): Promise<boolean>;
}

export interface TencentCaptchaSettings {
  secretId: string;
  secretKey: string;
  appId: number;
  appSecretKey: string;
  host: string;
}

/** Tencent Captcha's DescribeCaptchaResult (API 2019-07-22), signed with TC3-HMAC-SHA256. CaptchaCode 1 is a pass. */
export function tencentCaptcha(
  settings: TencentCaptchaSettings,
  deps: { clock: Clock; fetch?: FetchLike; widget?: CaptchaGateway['widget'] },
): CaptchaGateway {
  const doFetch: FetchLike = deps.fetch ?? ((url, init) => fetch(url, init));
  return {
    appId: settings.appId,
    widget: deps.widget ?? 'tencent',
    async verify(ticket, randstr, userIp) {
      const payload = JSON.stringify({
        CaptchaType: 9,
        Ticket: ticket,
        UserIp: userIp,
        Randstr: randstr,
        CaptchaAppId: settings.appId,
        AppSecretKey: settings.appSecretKey,
      });
      const headers = tc3Headers({
        secretId: settings.secretId,
        secretKey: settings.secretKey,
        service: 'captcha',
        host: settings.host,
        action: 'DescribeCaptchaResult',
        version: '2019-07-22',
        payload,
        timestamp: Math.floor(deps.clock.now().getTime() / 1000),
      });
      const res = await doFetch(`https://${settings.host}/`, {
        method: 'POST',
        headers,
        body: payload,
        signal: AbortSignal.timeout(10_000),
      });
      const body = (await res.json().catch(() => ({}))) as { Response?: { CaptchaCode?: number; Error?: { Code: string } } };
      return res.ok && !body.Response?.Error && body.Response?.CaptchaCode === 1;
    },
  };
}

/** Tencent Captcha with TENCENT_CAPTCHA_*; otherwise (demo mode) the same adapter against the stand-in, in-process. */
export function createCaptchaGateway(config: Config, deps: Omit<Deps, 'gateways'>): CaptchaGateway {
  const { tencent, host } = config.captcha;
  if (config.captcha.provider === 'tencent' && tencent) return tencentCaptcha({ ...tencent, host }, { clock: deps.clock });
  return tencentCaptcha(
    { ...STANDIN_CAPTCHA, host: STANDIN_CAPTCHA.host },
    { clock: deps.clock, fetch: captchaStandInFetch(deps), widget: 'stand-in' },
  );
}
