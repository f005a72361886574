import type { Deps } from '../env';
import { payStandInRoutes } from '../gateways/payments/create';
import type { FetchLike } from '../gateways/sms';
import { createRouter } from '../http/router';

/**
 * Demo mode only (never mounted in production): the WeChat Pay and Alipay stand-ins under
 * /api/dev/pay/{wechat,alipay}. Their notifications go to our notify URL through `appFetch` (the app
 * itself, in-process) unless a test points them elsewhere.
 */
export function devPayRoutes(deps: Deps, appFetch: FetchLike) {
  const standIns = deps.gateways.payments.standIn;
  if (!standIns) return createRouter();
  const publicOrigin = new URL(deps.config.publicUrl).origin;
  const deliver: FetchLike = (url, init) => (new URL(url).origin === publicOrigin ? appFetch(url, init) : fetch(url, init));
  // the adapters' in-process calls (createPaymentGateways) notify through the app as well
  standIns.appDeliver = deliver;
  return payStandInRoutes(standIns, deliver);
}
