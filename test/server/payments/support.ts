import type { FetchLike } from '../../../src/server/gateways/sms';
import { STANDIN_APP_ID } from '../../../src/server/gateways/oauth/wechat-oauth-standin';
import {
  NotificationRefused,
  type PaymentGateway,
  type PaymentPendingNotice,
  type PaymentRefundNotice,
  type PaymentResult,
  type RefundResult,
} from '../../../src/server/gateways/payments/types';
import type { TestServer } from '../support/harness';

/** Where our refund notifications go (WeChat Pay's REFUND.*; Alipay has none of its own). */
export const REFUND_NOTIFY_PATH = '/api/pay/refund-notify/';

/**
 * A notify handler as the order code will have one: the raw body and headers go through the gateway's
 * parseNotification (or, at a refund notify URL, parseRefundNotification; an Alipay notice that says
 * `refund` goes there too), and the provider gets the answer it expects. Every outcome is recorded.
 */
export function notifyRecorder(s: TestServer, gateway: PaymentGateway) {
  const accepted: PaymentResult[] = [];
  const pending: PaymentPendingNotice[] = [];
  const refundNotices: PaymentRefundNotice[] = [];
  const refunds: RefundResult[] = [];
  const refused: NotificationRefused[] = [];
  const urls: string[] = [];
  const handler: FetchLike = async (url, init) => {
    const req = new Request(url, init);
    urls.push(url);
    let ok = true;
    try {
      const raw = await req.text();
      if (new URL(url).pathname.startsWith(REFUND_NOTIFY_PATH)) {
        refunds.push(gateway.parseRefundNotification(raw, req.headers));
      } else {
        const notice = gateway.parseNotification(raw, req.headers);
        if (notice.status === 'pending') pending.push(notice);
        else if (notice.status === 'refund') {
          refundNotices.push(notice);
          refunds.push(gateway.parseRefundNotification(raw, req.headers));
        } else accepted.push(notice);
      }
    } catch (err) {
      if (!(err instanceof NotificationRefused)) throw err;
      refused.push(err);
      ok = false;
    }
    const answer = gateway.notificationAnswer(ok);
    return new Response(answer.body === '' ? null : answer.body, {
      status: answer.status,
      headers: answer.contentType ? { 'content-type': answer.contentType } : {},
    });
  };
  s.deps.gateways.payments.standIn!.notifyFetch = handler;
  return {
    accepted,
    pending,
    refundNotices,
    refunds,
    refused,
    urls,
    clear() {
      accepted.length = 0;
      pending.length = 0;
      refundNotices.length = 0;
      refunds.length = 0;
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
  const q = new URLSearchParams({
    appid: STANDIN_APP_ID,
    redirect_uri: `${origin}/api/oauth/wechat/callback`,
    response_type: 'code',
    scope: 'snsapi_base',
    state: 'test',
    as: openId,
  });
  const res = await s.app.request(`${origin}/api/dev/wechat/connect/oauth2/authorize?${q.toString()}`);
  if (res.status !== 302) throw new Error(`the OAuth stand-in refused ${openId}: ${res.status}`);
}
