import type { Envelope, LoginEnvelope } from '../domain/envelope';
import type { ApiClient } from './client';

export interface LoginRequest {
  /** the phone, trimmed */
  username: string;
  /** the password or the verification code, trimmed */
  password: string;
  loginType: 'password' | 'code' | 'openid';
  /** the open-id ticket from the `openId` cookie (never a raw open id) */
  openid?: string;
  weixinPicture?: string;
  nicName?: string;
}

/** The member as GET /customers/me (and the login answer's data) describes them. */
export interface Profile {
  id: number;
  username: string;
  phone: string;
  level: string;
  role: string;
  name: string | null;
  wxAvatar: string | null;
  wxNickname: string | null;
  avatarUrl: string | null;
}

/** Reset step one answers a single-use ticket (10 min). */
export interface ResetTicket {
  ticket: string;
  expiresIn?: number;
}

/** A code texted: valid `expiresIn` seconds; the next one can be asked after `resendAfter` seconds. */
export interface CodeSent {
  expiresIn: number;
  resendAfter: number;
}

/** A refusal to text a code within the resend cooldown (10007): the seconds left. */
export interface CodeTooSoon {
  retryAfter: number;
}

export type ValidCodeEnvelope = Envelope<CodeSent | CodeTooSoon | null>;
export type ResetVerifyEnvelope = Envelope<ResetTicket | null>;
export type PlainEnvelope = Envelope<unknown>;

/** Login and account calls (spec §7). Each returns the envelope: refusals are envelopes with a code. */
export function authCalls(http: ApiClient) {
  return {
    /** GET /oauth/valid-code: texts a verification code to the phone */
    sendCode: (phone: string) => http.get<CodeSent | CodeTooSoon | null>('/oauth/valid-code', { query: { phone } }) as Promise<ValidCodeEnvelope>,
    login: (body: LoginRequest) => http.post<LoginEnvelope['data']>('/oauth/login', { body }) as Promise<LoginEnvelope>,
    logout: () => http.post<null>('/oauth/logout'),
    verifyToken: (token: string) => http.post<unknown>('/oauth/token/verify', { body: { token } }),
    /** reset step one: phone + SMS code buy a ticket */
    resetPasswordVerify: (username: string, code: string) =>
      http.post<ResetTicket | null>('/oauth/resetPasswordVerify', { body: { username, password: code } }) as Promise<ResetVerifyEnvelope>,
    /** reset step two: the ticket travels in Authorization-token */
    resetPassword: (ticket: string, password: string) => http.post<unknown>('/oauth/resetPassword', { body: { password }, token: ticket }) as Promise<PlainEnvelope>,
    changePassword: (oldPassword: string, newPassword: string) =>
      http.post<unknown>('/customers/password', { body: { oldPassword, newPassword } }) as Promise<PlainEnvelope>,
    me: () => http.get<Profile>('/customers/me'),
    bookedCount: () => http.get<number>('/customers/classes/schedule/booked/count'),
  };
}
