import type { CouponGift, CouponGiftBody, CouponsQuery, MemberCoupon } from '../contracts/coupons';
import type { Paged } from '../domain/envelope';
import type { ApiClient } from './client';

// The answers are the server's own schemas, inferred (src/contracts): they cannot drift.
export type { CouponGift, CouponGiftBody, MemberCoupon };

/** One of my coupons and the gifts I may still make (GET /customers/coupons/detail). */
export interface CouponDetail {
  coupon: MemberCoupon;
  giftsLeft: number;
}

/** My coupons by tab (/mine/coupons), gifting one (/mine/coupons/all/Donation). */
export function couponCalls(http: ApiClient) {
  return {
    list: (q: CouponsQuery) => http.get<Paged<MemberCoupon>>('/customers/coupons', { query: { ...q } }),
    detail: (id: number) => http.get<CouponDetail>('/customers/coupons/detail', { query: { id } }),
    gift: (body: CouponGiftBody, idempotencyKey: string) => http.post<CouponGift>('/customers/coupons/gift', { body, idempotencyKey }),
  };
}
