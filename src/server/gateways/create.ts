import type { Config } from '../config';
import type { Deps } from '../env';
import type { Gateways } from './index';
import { createCaptchaGateway } from './captcha';
import { createMapsGateway } from './maps';
import { createOAuthGateway } from './oauth/wechat-oauth';
import { createPaymentGateways } from './payments/create';
import type { PaymentStandIns } from './payments/standin-keys';
import type { KeyAdapter, LocalKeySettings } from './keys/key-adapter';
import { localKeys } from './keys/local-keys';
import { createSmsGateway } from './sms';
import { createStorage } from './storage';

/** The key adapter for data at rest (decision 055): the local keys from their settings (a KMS adapter would be picked here). */
export function createKeyAdapter(settings: LocalKeySettings): KeyAdapter {
  return localKeys(settings);
}

/**
 * Picks each outside party's adapter from the configuration (local stand-ins in demo mode). The data
 * keys' settings come from the configuration (`keySettings` overrides them in tests).
 */
export function createGateways(
  config: Config,
  deps: Omit<Deps, 'gateways'>,
  opts: { paymentStandIns?: PaymentStandIns; keySettings?: LocalKeySettings } = {},
): Gateways {
  return {
    sms: createSmsGateway(config, deps),
    oauth: createOAuthGateway(config, deps),
    maps: createMapsGateway(config),
    payments: createPaymentGateways(config, deps, { standIns: opts.paymentStandIns }),
    storage: createStorage(config),
    captcha: createCaptchaGateway(config, deps),
    keys: createKeyAdapter(opts.keySettings ?? config.dataKey),
  };
}
