import type { Config } from '../config';
import type { Deps } from '../env';
import type { Gateways } from './index';
import { createCaptchaGateway } from './captcha';
import { createMapsGateway } from './maps';
import { createOAuthGateway } from './oauth';
import { createPaymentGateways } from './payments/create';
import type { PaymentStandIns } from './payments/standin-keys';
import { createSmsGateway } from './sms';
import { createStorage } from './storage';

/** Picks each outside party's adapter from the configuration (local stand-ins in demo mode). */
export function createGateways(config: Config, deps: Omit<Deps, 'gateways'>, opts: { paymentStandIns?: PaymentStandIns } = {}): Gateways {
  return {
    sms: createSmsGateway(config, deps),
    oauth: createOAuthGateway(config, deps),
    maps: createMapsGateway(config),
    payments: createPaymentGateways(config, deps, { standIns: opts.paymentStandIns }),
    storage: createStorage(config),
    captcha: createCaptchaGateway(config, deps),
  };
}
