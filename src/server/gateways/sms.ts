import type { Config } from '../config';
import type { Deps } from '../env';
import type { SmsGateway } from './index';

export function createSmsGateway(config: Config, deps: Omit<Deps, 'gateways'>): SmsGateway {
  void config;
  return { sendCode: async (phone, code) => deps.log.info('sms code', { phone, code }) };
}
