import { Trans } from '@lingui/react/macro';
import type { CaptchaAnswer, CaptchaNeeded } from '../../contracts/auth';
import type { OpenConfirm } from './confirm';

/** Tencent Captcha's widget script (its frame and pictures are allowed by the page's CSP). */
const TENCENT_SCRIPT = 'https://turing.captcha.qcloud.com/TCaptcha.js';

interface TencentCaptchaResult {
  ret: number;
  ticket?: string;
  randstr?: string;
}
type TencentCaptchaCtor = new (appId: string, callback: (r: TencentCaptchaResult) => void, options?: object) => { show(): void };

let tencentLoaded: Promise<TencentCaptchaCtor> | undefined;
function loadTencent(): Promise<TencentCaptchaCtor> {
  tencentLoaded ??= new Promise((resolve, reject) => {
    const s = document.createElement('script');
    s.src = TENCENT_SCRIPT;
    s.onload = () => {
      const ctor = (window as unknown as { TencentCaptcha?: TencentCaptchaCtor }).TencentCaptcha;
      if (ctor) resolve(ctor);
      else reject(new Error('TencentCaptcha missing'));
    };
    s.onerror = () => {
      tencentLoaded = undefined;
      reject(new Error('TencentCaptcha did not load'));
    };
    document.head.appendChild(s);
  });
  return tencentLoaded;
}

/** Tencent's widget: ret 0 is solved, anything else (2: closed) is no answer. */
async function tencentWidget(appId: number): Promise<CaptchaAnswer | null> {
  const TencentCaptcha = await loadTencent().catch(() => undefined);
  if (!TencentCaptcha) return null;
  return new Promise((resolve) => {
    new TencentCaptcha(String(appId), (r) =>
      resolve(r.ret === 0 && r.ticket && r.randstr ? { ticket: r.ticket, randstr: r.randstr } : null),
    ).show();
  });
}

/** The stand-in's widget (demo mode): a dialog; confirming it takes a ticket the stand-in will accept once. */
async function standInWidget(confirm: OpenConfirm): Promise<CaptchaAnswer | null> {
  const { confirmed } = await confirm({
    title: <Trans>安全验证</Trans>,
    message: <Trans>演示环境的安全验证：点“确定”即完成验证。正式环境中这里是腾讯验证码。</Trans>,
  });
  if (!confirmed) return null;
  const res = await fetch('/api/dev/captcha/ticket', { method: 'POST' }).catch(() => undefined);
  const body = (await res?.json().catch(() => undefined)) as { code?: number; data?: CaptchaAnswer } | undefined;
  return body?.code === 200 && body.data ? body.data : null;
}

/** The widget the server named: Tencent's, or the stand-in's dialog in demo mode. */
export function openWidget(need: CaptchaNeeded, confirm: OpenConfirm): Promise<CaptchaAnswer | null> {
  return need.widget === 'stand-in' ? standInWidget(confirm) : tencentWidget(need.captchaAppId);
}
