import type { MemberByPhone, MyTransfer, TransferApplyBody } from '../contracts/card-transfers';
import type { ApiClient } from './client';

// The answers are the server's own schemas, inferred (src/contracts/card-transfers.ts): they cannot drift.
export type { MemberByPhone, MyTransfer, TransferApplyBody };

/** Card transfer (decision 026): the recipient lookup, the images, the application and its state. */
export function cardTransferCalls(http: ApiClient) {
  return {
    /** a member's masked name by phone, or 30036 no such member */
    memberByPhone: (phone: string) => http.get<MemberByPhone>('/customers/members/phone', { query: { phone } }),
    /** one image of the application (base64); its id goes in the application */
    uploadImage: (image: string) => http.post<{ imageId: number }>('/customers/transfers/image', { body: { image } }),
    apply: (body: TransferApplyBody, idempotencyKey: string) =>
      http.post<MyTransfer>('/customers/transfers/apply', { body, idempotencyKey }),
    cancel: (id: number, idempotencyKey: string) => http.post<MyTransfer>('/customers/transfers/cancel', { body: { id }, idempotencyKey }),
    /** my latest application on one of my cards (null when none) */
    mine: (cardId: number) => http.get<MyTransfer | null>('/customers/transfers/mine', { query: { cardId } }),
  };
}
