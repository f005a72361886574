import type {
  FriendInvitation,
  FriendInvitationView,
  FriendPayAnswer,
  FriendPayBody,
  InviteAnswer,
  InviteBody,
  MemberInvitationAnswer,
  OrderDetail,
  WithdrawBody,
} from '../contracts/orders';
import type { ApiClient } from './client';

// The request and answer types are the server's own schemas, inferred (src/contracts/orders.ts): they cannot drift.
export type {
  FriendInvitation,
  FriendInvitationView,
  FriendPayAnswer,
  InviteAnswer,
  InviteBody,
  MemberInvitationAnswer,
  OrderDetail,
  WithdrawBody,
};

/**
 * Friend pay (decision 021): the member invites a friend to pay an order or one part of it
 * and may withdraw it; the friend, with no account, reads the invitation by its token and pays it
 * (the wxFriend cookie of the messaging app's user-info authorization goes with the request).
 * Mutations carry the intent's key.
 */
export function friendPayCalls(http: ApiClient) {
  return {
    invite: (body: InviteBody, idempotencyKey: string) => http.post<InviteAnswer>('/orders/friend/invite', { body, idempotencyKey }),
    withdraw: (body: WithdrawBody, idempotencyKey: string) => http.post<OrderDetail>('/orders/friend/withdraw', { body, idempotencyKey }),
    latest: (q: { orderNo: string; partSeq?: number }) =>
      http.get<MemberInvitationAnswer>('/orders/friend/invitation', { query: { orderNo: q.orderNo, partSeq: q.partSeq } }),
    invitation: (t: string) => http.get<FriendInvitationView>('/friend/invitation', { query: { t } }),
    pay: (body: FriendPayBody, idempotencyKey: string) => http.post<FriendPayAnswer>('/friend/pay', { body, idempotencyKey }),
  };
}
