import type { FetchLike } from '../../../src/server/gateways/sms';
import { STANDIN_APP_ID } from '../../../src/server/gateways/wechat-standin';
import { NotificationRefused, type PaymentGateway, type PaymentPendingNotice, type PaymentResult } from '../../../src/server/gateways/payments/types';
import type { TestServer } from '../support/harness';

/**
 * A notify handler as the order code will have one: the raw body and headers go through the gateway's
 * parseNotification, and the provider gets the answer it expects. Every outcome is recorded.
 */
export function notifyRecorder(s: TestServer, gateway: PaymentGateway) {
  const accepted: PaymentResult[] = [];
  const pending: PaymentPendingNotice[] = [];
  const refused: NotificationRefused[] = [];
  const urls: string[] = [];
  const handler: FetchLike = async (url, init) => {
    const req = new Request(url, init);
    urls.push(url);
    let ok = true;
    try {
      const notice = gateway.parseNotification(await req.text(), req.headers);
      if (notice.status === 'pending') pending.push(notice);
      else accepted.push(notice);
    } catch (err) {
      if (!(err instanceof NotificationRefused)) throw err;
      refused.push(err);
      ok = false;
    }
    const answer = gateway.notificationAnswer(ok);
    return new Response(answer.body === '' ? null : answer.body, { status: answer.status, headers: answer.contentType ? { 'content-type': answer.contentType } : {} });
  };
  s.deps.gateways.payments.standIn!.notifyFetch = handler;
  return {
    accepted,
    pending,
    refused,
    urls,
    clear() {
      accepted.length = 0;
      pending.length = 0;
      refused.length = 0;
      urls.length = 0;
    },
  };
}

let seq = 0;
/** A fresh order number per call (unique across test files sharing a PostgreSQL server). */
export const orderNo = (prefix: string) => `${prefix}${Date.now().toString(36)}${(seq++).toString().padStart(3, '0')}`.toUpperCase();

/**
 * Has the messaging app's OAuth stand-in issue `openId` for its app (a silent authorization coming back
 * as that user), as WeChat issues an open id per app: the WeChat Pay stand-in accepts only such payers.
 */
export async function issueOpenId(s: TestServer, openId: string): Promise<void> {
  const origin = s.deps.config.publicUrl;
  const q = new URLSearchParams({ appid: STANDIN_APP_ID, redirect_uri: `${origin}/api/oauth/wechat/callback`, response_type: 'code', scope: 'snsapi_base', state: 'test', as: openId });
  const res = await s.app.request(`${origin}/api/dev/wechat/connect/oauth2/authorize?${q.toString()}`);
  if (res.status !== 302) throw new Error(`the OAuth stand-in refused ${openId}: ${res.status}`);
}
