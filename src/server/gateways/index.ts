import type { PaymentGateways } from './payments/types';

/**
 * Outside parties, each behind a small interface with a real adapter and a local stand-in that speaks
 * the provider's protocol (DESIGN.md §1). The app code only sees these interfaces.
 */
export interface SmsGateway {
  /** sends a verification code to a phone; throws on provider failure */
  sendCode(phone: string, code: string): Promise<void>;
}

export interface OAuthIdentity {
  openId: string;
  nickname?: string;
  avatar?: string;
}

export interface OAuthGateway {
  /** the provider's authorize URL (silent scope) that comes back to redirectUri with ?code&state */
  authorizeUrl(redirectUri: string, state: string): string;
  /** exchanges the code for the identity */
  exchange(code: string): Promise<OAuthIdentity>;
}

export interface LatLng {
  lat: number;
  lng: number;
}

export interface MapsGateway {
  /** metres from one point to each destination, in order */
  distances(from: LatLng, to: LatLng[]): Promise<number[]>;
}

export interface Gateways {
  sms: SmsGateway;
  oauth: OAuthGateway;
  maps: MapsGateway;
  payments: PaymentGateways;
}
