import type { CardRefundQuote, MyCardRefund, StaffCardRefund } from '../contracts/card-refunds';
import type { ApiClient } from './client';

// The answers are the server's own schemas, inferred (src/contracts/card-refunds.ts): they cannot drift.
export type { CardRefundQuote, MyCardRefund, StaffCardRefund };

/** Card refund (decision 030): the policy's quote, the member's request and its state; the staff queue. */
export function cardRefundCalls(http: ApiClient) {
  return {
    /** what the policy gives back for my card now, or the code refusing its refund */
    quote: (cardId: number) => http.get<CardRefundQuote>('/customers/cards/refund/quote', { query: { cardId } }),
    /** ask for the refund, the policy agreed to */
    request: (cardId: number, idempotencyKey: string) =>
      http.post<MyCardRefund>('/customers/cards/refund', { body: { cardId, agreed: true }, idempotencyKey }),
    cancel: (id: number, idempotencyKey: string) =>
      http.post<MyCardRefund>('/customers/cards/refund/cancel', { body: { id }, idempotencyKey }),
    /** my latest request on one of my cards (null when none) */
    mine: (cardId: number) => http.get<MyCardRefund | null>('/customers/cards/refund/mine', { query: { cardId } }),
    /** staff: the requests waiting for a decision */
    staffQueue: () => http.get<StaffCardRefund[]>('/staff/card-refunds'),
    /** staff: the latest requests decided by staff, with who and when */
    staffDecided: () => http.get<StaffCardRefund[]>('/staff/card-refunds', { query: { decided: '1' } }),
    staffApprove: (id: number, idempotencyKey: string) =>
      http.post<StaffCardRefund>('/staff/card-refunds/approve', { body: { id }, idempotencyKey }),
    staffReject: (id: number, reason: string, idempotencyKey: string) =>
      http.post<StaffCardRefund>('/staff/card-refunds/reject', { body: { id, reason }, idempotencyKey }),
  };
}
