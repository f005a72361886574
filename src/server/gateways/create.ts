import type { Config } from '../config';
import type { Deps } from '../env';
import type { Gateways } from './index';
import { createMapsGateway } from './maps';
import { createOAuthGateway } from './oauth';
import { createPaymentGateways } from './payments/create';
import type { PaymentStandIns } from './payments/standin-keys';
import type { KeyAdapter, LocalKeySettings } from './keys/key-adapter';
import { dataKeySettingsFromEnv } from './keys/key-settings';
import { localKeys } from './keys/local-keys';
import { createSmsGateway } from './sms';
import { createStorage } from './storage';

/** The key adapter for data at rest (decision 053): the local keys from their settings (a KMS adapter would be picked here). */
export function createKeyAdapter(settings: LocalKeySettings): KeyAdapter {
  return localKeys(settings);
}

/**
 * Picks each outside party's adapter from the configuration (local stand-ins in demo mode). The data
 * keys' settings are read from DATA_KEY until the configuration carries them (`keySettings` overrides).
 */
export function createGateways(config: Config, deps: Omit<Deps, 'gateways'>, opts: { paymentStandIns?: PaymentStandIns; keySettings?: LocalKeySettings } = {}): Gateways {
  return {
    sms: createSmsGateway(config, deps),
    oauth: createOAuthGateway(config, deps),
    maps: createMapsGateway(config),
    payments: createPaymentGateways(config, deps, { standIns: opts.paymentStandIns }),
    storage: createStorage(config),
    keys: createKeyAdapter(opts.keySettings ?? dataKeySettingsFromEnv(process.env, config.demo)),
  };
}
