import type { LoginEnvelope } from '../domain/envelope';
import type { ApiClient } from './client';

export interface LoginRequest {
  username: string;
  password: string;
  loginType: 'password' | 'code' | 'openid';
  openid?: string;
  weixinPicture?: string;
  nicName?: string;
}

/** Login and account calls (spec §7). */
export function authCalls(http: ApiClient) {
  return {
    login: (body: LoginRequest) => http.post<LoginEnvelope['data']>('/oauth/login', { body }) as Promise<LoginEnvelope>,
    logout: () => http.post<null>('/oauth/logout'),
    bookedCount: () => http.get<number>('/customers/classes/schedule/booked/count'),
  };
}
