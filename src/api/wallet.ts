import type { BalanceLedgerRow, CouponGift, CouponGiftBody, CouponsQuery, MemberCoupon } from '../contracts/wallet';
import type { PageQuery } from '../contracts/common';
import type { Paged } from '../domain/envelope';
import type { ApiClient } from './client';

// The answers are the server's own schemas, inferred (src/contracts): they cannot drift.
export type { BalanceLedgerRow, CouponGift, CouponGiftBody, MemberCoupon };

/** One of my coupons and the gifts I may still make (GET /customers/coupons/detail). */
export interface CouponDetail {
  coupon: MemberCoupon;
  giftsLeft: number;
}

/** My coupons by tab (/mine/coupons), gifting one (/mine/coupons/all/Donation), my balance history (/mine/balanceHistory). */
export function walletCalls(http: ApiClient) {
  return {
    coupons: (q: CouponsQuery) => http.get<Paged<MemberCoupon>>('/customers/coupons', { query: { ...q } }),
    coupon: (id: number) => http.get<CouponDetail>('/customers/coupons/detail', { query: { id } }),
    giftCoupon: (body: CouponGiftBody, idempotencyKey: string) =>
      http.post<CouponGift>('/customers/coupons/gift', { body, idempotencyKey }),
    balanceHistory: (q: PageQuery) => http.get<Paged<BalanceLedgerRow>>('/customers/balance/history', { query: q }),
  };
}
