import type { CodeSent, CodeTooSoon, LoginBody, LoginData, Profile, TokenCheck } from '../contracts/auth';
import type { ResetTicket } from '../contracts/auth-password';
import type { Envelope } from '../domain/envelope';
import type { ApiClient } from './client';

// The request and answer types are the server's own schemas, inferred (src/contracts/auth.ts, password.ts): they cannot drift.
export type { CodeSent, CodeTooSoon, LoginData, Profile, ResetTicket, TokenCheck };

/**
 * What the app sends to log in: the contract's body with the login types the app offers (the wire
 * takes any string, so a wrong one is the server's own refusal, 10005). test/unit/contracts.test-d.ts
 * checks it fits the contract.
 */
export type LoginRequest = Omit<LoginBody, 'loginType'> & { loginType: 'password' | 'code' | 'openid' };

/** The login answer: the member in `data`, and the token at the top level too (spec §7). */
export type LoginEnvelope = Envelope<LoginData> & { token: string };
export type ValidCodeEnvelope = Envelope<CodeSent | CodeTooSoon | null>;
export type ResetVerifyEnvelope = Envelope<ResetTicket | null>;
export type PlainEnvelope = Envelope<unknown>;

/** Login and account calls (spec §7). Each returns the envelope: refusals are envelopes with a code. */
export function authCalls(http: ApiClient) {
  return {
    /** GET /oauth/valid-code: texts a verification code to the phone */
    sendCode: (phone: string) =>
      http.get<CodeSent | CodeTooSoon | null>('/oauth/valid-code', { query: { phone } }) as Promise<ValidCodeEnvelope>,
    login: (body: LoginRequest) => http.post<LoginData>('/oauth/login', { body }) as Promise<LoginEnvelope>,
    logout: () => http.post<null>('/oauth/logout'),
    verifyToken: (token: string) => http.post<TokenCheck>('/oauth/token/verify', { body: { token } }),
    /** reset step one: phone + SMS code buy a ticket */
    resetPasswordVerify: (username: string, code: string) =>
      http.post<ResetTicket | null>('/oauth/resetPasswordVerify', { body: { username, password: code } }) as Promise<ResetVerifyEnvelope>,
    /** reset step two: the ticket travels in Authorization-token */
    resetPassword: (ticket: string, password: string) =>
      http.post<null>('/oauth/resetPassword', { body: { password }, token: ticket }) as Promise<PlainEnvelope>,
    changePassword: (oldPassword: string, newPassword: string) =>
      http.post<null>('/customers/password', { body: { oldPassword, newPassword } }) as Promise<PlainEnvelope>,
    me: () => http.get<Profile>('/customers/me'),
    bookedCount: () => http.get<number>('/customers/classes/schedule/booked/count'),
  };
}
