import type { MyAccountClosing, StaffAccountClosing } from '../contracts/account-closing';
import type { ApiClient } from './client';

// The answers are the server's own schemas, inferred (src/contracts/account-closing.ts): they cannot drift.
export type { MyAccountClosing, StaffAccountClosing };

/** Closing an account (decision 057): my request, asking and withdrawing; the staff queue, confirm and refuse. */
export function accountClosingCalls(http: ApiClient) {
  return {
    mine: () => http.get<MyAccountClosing | null>('/customers/me/closing'),
    ask: (note: string | null, idempotencyKey: string) =>
      http.post<MyAccountClosing>('/customers/me/closing', { body: { note }, idempotencyKey }),
    withdraw: (idempotencyKey: string) => http.post<MyAccountClosing>('/customers/me/closing/withdraw', { idempotencyKey }),
    staffQueue: () => http.get<StaffAccountClosing[]>('/staff/account-closings'),
    staffConfirm: (id: number, idempotencyKey: string) =>
      http.post<StaffAccountClosing>('/staff/account-closings/confirm', { body: { id }, idempotencyKey }),
    staffRefuse: (id: number, reason: string, idempotencyKey: string) =>
      http.post<StaffAccountClosing>('/staff/account-closings/refuse', { body: { id, reason }, idempotencyKey }),
  };
}
