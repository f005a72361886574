import type { Config } from '../config';
import type { Deps } from '../env';
import type { OAuthGateway } from './index';

export function createOAuthGateway(config: Config, deps: Omit<Deps, 'gateways'>): OAuthGateway {
  void config;
  void deps;
  return {
    authorizeUrl: () => '',
    exchange: async () => {
      throw new Error('oauth not built yet');
    },
  };
}
