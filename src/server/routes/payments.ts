import { NOTIFY_RULE, rateLimit } from '../http/rate-limit';
import { createRoute, type z } from '@hono/zod-openapi';
import { optionalAuth } from '../http/auth';
import { createRouter, envelope, ok } from '../http/router';
import { NotificationRefused, PaymentProviderError, type PaymentMethod } from '../gateways/payments/types';
import { lastPaidProviderOf, payerOpenIdOf } from '../services/orders/read';
import { settlePayment } from '../services/orders/settle';
import { refundNoticed, refundNotified } from '../services/refunds/run';
import { Errors } from '../../domain/errors';
import type { PAY_METHODS } from '../../domain/orders';
import { translate } from '../i18n';
import { PayMethods } from '../../contracts/orders';

const json = <T extends z.ZodTypeAny>(schema: T, description = 'OK') => ({
  description,
  content: { 'application/json': { schema: envelope(schema) } },
});
const tags = ['orders'];

/** Payment (mounted at /api/pay): the methods offered, and the providers' notifications of payments and refunds. */
export const payRoutes = createRouter().openapi(
  createRoute({
    method: 'get',
    path: '/methods',
    tags,
    summary:
      'The payment methods this server offers (balance always; WeChat / Alipay when configured, or their stand-ins in demo mode); for a member, those they can use now (the provider they paid with last first after the balance), and why the others cannot',
    middleware: [optionalAuth] as const,
    responses: {
      200: json(PayMethods),
    },
  }),
  async (c) => {
    const { payments } = c.var.deps.gateways;
    const offered = ['balance' as const, ...payments.available()];
    const unavailable: { method: (typeof PAY_METHODS)[number]; code: number; message: string }[] = [];
    const caller = c.var.caller;
    if (caller && offered.includes('wechat') && !(await payerOpenIdOf(c.var.deps.db, caller.accountId))) {
      unavailable.push({
        method: 'wechat',
        code: Errors.wechatPayNeedsOpenId.code,
        message: translate(c.var.locale, Errors.wechatPayNeedsOpenId.message),
      });
    }
    // the provider the member paid with last comes first among the providers, so it is preselected (decision 038)
    const last = caller ? await lastPaidProviderOf(c.var.deps.db, caller.accountId) : undefined;
    const usable = offered.filter((m) => !unavailable.some((u) => u.method === m));
    const methods =
      last && usable.includes(last) ? ['balance' as const, last, ...usable.filter((m) => m !== 'balance' && m !== last)] : usable;
    return ok(c, { methods, standIn: payments.standIn !== undefined, unavailable });
  },
);

/** Provider notifications: raw body verified by the gateway, applied once, answered as the provider expects. */
for (const provider of ['wechat', 'alipay'] as const satisfies readonly PaymentMethod[]) {
  payRoutes.openapi(
    createRoute({
      method: 'post',
      path: `/notify/${provider}`,
      tags,
      middleware: [rateLimit(NOTIFY_RULE)] as const,
      summary: `${provider === 'wechat' ? 'WeChat Pay' : 'Alipay'} payment notification (raw signed body; answered in the provider's format)`,
      responses: {
        200: { description: "The provider's expected answer" },
        204: { description: 'Accepted (WeChat Pay)' },
        404: { description: 'The method is not configured' },
      },
    }),
    async (c) => {
      const { deps } = c.var;
      const gateway = deps.gateways.payments[provider];
      if (!gateway) return c.body(null, 404);
      const raw = await c.req.text();
      let accepted = true;
      try {
        const result = gateway.parseNotification(raw, c.req.raw.headers);
        if (result.status === 'pending') {
          // verified, but nothing to settle yet (Alipay WAIT_BUYER_PAY): acknowledged, the order unchanged
          deps.log.info('payment notification pending', { provider, orderNo: result.orderNo });
        } else if (result.status === 'refund') {
          // Alipay's trade notification after a refund: never a payment (decision 021); our refund is asked how
          // it ended (one we never asked for is acknowledged and logged); the provider unreachable: sent again later
          const known = await refundNoticed(deps, result.outRefundNo).catch((err: unknown) => {
            if (!(err instanceof PaymentProviderError)) throw err;
            deps.log.warn('refund notification: the provider cannot be asked now', {
              provider,
              outRefundNo: result.outRefundNo,
              error: err.message,
            });
            accepted = false;
            return null;
          });
          deps.log.info('refund notification', { provider, orderNo: result.orderNo, outRefundNo: result.outRefundNo, known });
        } else {
          const outcome = await settlePayment(deps, result, 'notify');
          if (outcome === 'needs_refund')
            deps.log.warn('payment for an order already paid or over: needs a refund', { provider, outTradeNo: result.orderNo });
          else deps.log.info('payment notification', { provider, orderNo: result.orderNo, outcome });
          // unknown, or another amount the provider could not be asked about now: refused, so it is sent again
          if (outcome === 'unknown_order' || outcome === 'ask_later') accepted = false;
        }
      } catch (err) {
        if (!(err instanceof NotificationRefused)) throw err;
        deps.log.warn('payment notification refused', { provider, reason: err.reason });
        accepted = false;
      }
      const answer = gateway.notificationAnswer(accepted);
      return new Response(answer.body === '' ? null : answer.body, {
        status: answer.status,
        headers: answer.contentType ? { 'content-type': answer.contentType } : {},
      });
    },
  );
}

/** WeChat Pay's refund notifications (REFUND.SUCCESS / ABNORMAL / CLOSED), verified and decrypted, applied to the refund by its out_refund_no, once. */
payRoutes.openapi(
  createRoute({
    method: 'post',
    path: '/refund-notify/wechat',
    tags,
    middleware: [rateLimit(NOTIFY_RULE)] as const,
    summary: "WeChat Pay refund notification (raw signed, encrypted body; answered in WeChat Pay's format)",
    responses: {
      204: { description: 'Accepted' },
      404: { description: 'WeChat Pay is not configured' },
      500: { description: 'Refused (unverified, or a refund we do not know): WeChat Pay sends it again' },
    },
  }),
  async (c) => {
    const { deps } = c.var;
    const gateway = deps.gateways.payments.wechat;
    if (!gateway) return c.body(null, 404);
    let accepted = false;
    try {
      const result = gateway.parseRefundNotification(await c.req.text(), c.req.raw.headers);
      accepted = await refundNotified(deps, result);
      deps.log.info('refund notification', { provider: 'wechat', outRefundNo: result.outRefundNo, status: result.status, accepted });
    } catch (err) {
      if (!(err instanceof NotificationRefused)) throw err;
      deps.log.warn('refund notification refused', { provider: 'wechat', reason: err.reason });
    }
    const answer = gateway.notificationAnswer(accepted);
    return new Response(answer.body === '' ? null : answer.body, {
      status: answer.status,
      headers: answer.contentType ? { 'content-type': answer.contentType } : {},
    });
  },
);
