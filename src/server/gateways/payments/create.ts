import { createPublicKey } from 'node:crypto';
import type { Config } from '../../config';
import type { Deps } from '../../env';
import { createRouter } from '../../http/router';
import type { FetchLike } from '../sms';
import { alipayGateway } from './alipay';
import { alipayStandIn } from './alipay-standin';
import { processPaymentStandIns, type PaymentStandIns } from './standin-keys';
import type { PaymentGateways, PaymentMethod } from './types';
import { wechatPayStandIn } from './wechat-standin';
import { wechatRefundStandIn } from './wechat-standin-refunds';
import { wechatPayGateway } from './wechatpay';

/** Where the stand-ins are mounted under the app's origin (routes/dev-pay.ts). */
export const STANDIN_PATH = '/api/dev/pay';

/**
 * The stand-ins' routes: WeChat Pay (payments and refunds) under /wechat, Alipay under /alipay. `deliver`
 * carries their notifications to our notify URL (the app itself in demo mode).
 */
export function payStandInRoutes(standIns: PaymentStandIns, deliver: FetchLike) {
  return createRouter()
    .route('/wechat', wechatPayStandIn(standIns, deliver))
    .route('/wechat', wechatRefundStandIn(standIns, deliver))
    .route('/alipay', alipayStandIn(standIns, deliver));
}

/**
 * The fetch our adapters use in demo mode: requests under the stand-ins' base go straight to their
 * handlers in this process (a real Request/Response round trip, signatures and all, no port).
 */
function standInFetch(base: string, standIns: PaymentStandIns, deps: Omit<Deps, 'gateways'>): FetchLike {
  const loop = createRouter();
  loop.use('*', async (c, next) => {
    c.set('deps', deps as Deps);
    await next();
  });
  // a refund's notification is sent while our refund call waits: to the app itself once devPayRoutes is up
  loop.route(
    STANDIN_PATH,
    payStandInRoutes(standIns, (url, init) => (standIns.appDeliver ?? fetch)(url, init)),
  );
  return async (url, init) => (url.startsWith(base) ? loop.request(url, init) : fetch(url, init));
}

/** Whether a payment method is served by its local stand-in (demo mode). */
export function usesPaymentStandIns(config: Config): boolean {
  return config.payments.wechat.provider === 'local' || config.payments.alipay.provider === 'local';
}

/**
 * Real providers with credentials; in demo mode the same adapters against the stand-ins (their keys
 * from `opts.standIns`, the server's stored ones; else this process's); otherwise absent.
 */
export function createPaymentGateways(
  config: Config,
  deps: Omit<Deps, 'gateways'>,
  opts: { fetch?: FetchLike; standIns?: PaymentStandIns } = {},
): PaymentGateways {
  const { wechat: w, alipay: a } = config.payments;
  const standIn = usesPaymentStandIns(config) ? (opts.standIns ?? processPaymentStandIns()) : undefined;
  const base = `${config.publicUrl}${STANDIN_PATH}`;
  const loopFetch = standIn ? (opts.fetch ?? standInFetch(base, standIn, deps)) : undefined;
  const gateways: PaymentGateways = {
    standIn,
    available() {
      return (['wechat', 'alipay'] as PaymentMethod[]).filter((m) => gateways[m] !== undefined);
    },
  };
  if (w.provider === 'wechat') {
    gateways.wechat = wechatPayGateway(
      { ...w, platformKeys: new Map(w.platformKeys.map((k) => [k.serial, createPublicKey(k.publicKey)])) },
      { clock: deps.clock, fetch: opts.fetch },
    );
  } else if (w.provider === 'local' && standIn) {
    const k = standIn.wechat;
    gateways.wechat = wechatPayGateway(
      {
        mchId: k.mchId,
        appId: k.appId,
        serialNo: k.merchantSerial,
        privateKey: k.merchant.privateKey,
        apiV3Key: k.apiV3Key,
        platformKeys: new Map([[k.platformSerial, k.platform.publicKey]]),
        base: `${base}/wechat`,
      },
      { clock: deps.clock, fetch: loopFetch },
    );
  }
  if (a.provider === 'alipay') {
    gateways.alipay = alipayGateway(a, { clock: deps.clock, fetch: opts.fetch });
  } else if (a.provider === 'local' && standIn) {
    const k = standIn.alipay;
    gateways.alipay = alipayGateway(
      {
        appId: k.appId,
        privateKey: k.app.privateKey,
        alipayPublicKey: k.alipay.publicKey,
        gateway: `${base}/alipay/gateway.do`,
        sellerId: k.sellerId,
      },
      { clock: deps.clock, fetch: loopFetch },
    );
  }
  return gateways;
}
