import type { Logger } from '../logger';
import type { CaptchaGateway } from './captcha';
import type { KeyAdapter } from './keys/key-adapter';
import type { PaymentGateways } from './payments/types';
import type { ObjectStore } from './storage';

/**
 * Outside parties, each behind a small interface with a real adapter and a local stand-in that speaks
 * the provider's protocol (DESIGN.md §1). The app code only sees these interfaces.
 */
export interface SmsGateway {
  /** sends a verification code to a phone; throws on provider failure. `log`: the request's logger */
  sendCode(phone: string, code: string, log: Logger): Promise<void>;
}

/** The messaging app's web-authorization scopes: silent (open id only), or asking for the user's profile. */
export type OAuthScope = 'snsapi_base' | 'snsapi_userinfo';

/** What the provider answers for a code: the open id, and the access token with the scope it was granted. */
export interface OAuthGrant {
  openId: string;
  /** '' when the provider sent none (the silent flow never uses it) */
  accessToken: string;
  /** as the provider answered it, e.g. 'snsapi_base' or 'snsapi_userinfo' ('' when absent) */
  scope: string;
}

/** The user's profile, read with an access token of scope snsapi_userinfo. */
export interface OAuthProfile {
  openId: string;
  nickname: string | null;
  avatar: string | null;
}

export interface OAuthGateway {
  /** the provider's authorize URL (silent snsapi_base unless told) that comes back to redirectUri with ?code&state */
  authorizeUrl(redirectUri: string, state: string, scope?: OAuthScope): string;
  /** exchanges the code for the open id and an access token */
  exchange(code: string): Promise<OAuthGrant>;
  /** the user's nickname and avatar (the token must be of scope snsapi_userinfo and for that open id) */
  userInfo(accessToken: string, openId: string): Promise<OAuthProfile>;
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
  /** uploaded photos' bytes outside PostgreSQL; null keeps them in the row (decision 042) */
  storage: ObjectStore | null;
  /** the security check before a login or a code from a network or phone that keeps failing */
  captcha: CaptchaGateway;
  /** wraps the data keys of ID numbers and photos encrypted at rest (decision 055) */
  keys: KeyAdapter;
}
