import type { BalanceLedgerRow, CouponsQuery, MemberCoupon } from '../contracts/wallet';
import type { PageQuery } from '../contracts/common';
import type { Paged } from '../domain/envelope';
import type { ApiClient } from './client';

// The answers are the server's own schemas, inferred (src/contracts): they cannot drift.
export type { BalanceLedgerRow, MemberCoupon };

/** My coupons by tab and my balance history (/mine/coupons, /mine/balanceHistory). */
export function walletCalls(http: ApiClient) {
  return {
    coupons: (q: CouponsQuery) => http.get<Paged<MemberCoupon>>('/customers/coupons', { query: { ...q } }),
    balanceHistory: (q: PageQuery) => http.get<Paged<BalanceLedgerRow>>('/customers/balance/history', { query: q }),
  };
}
