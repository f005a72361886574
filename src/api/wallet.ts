import type { GoodsKind } from '../domain/catalog';
import type { Paged } from '../domain/envelope';
import type { CouponState } from '../domain/pricing';
import type { ApiClient } from './client';

/** One of my coupons (spec §3 coupon: discount, validity); `state` is the spec §4 tab it shows under. */
export interface MemberCoupon {
  id: number;
  name: string;
  /** cents off when percentOff is null */
  offCents: number;
  /** percent off the price (10 = 10% off), rounded half up to the cent */
  percentOff: number | null;
  minSpendCents: number;
  /** goods kinds it applies to; empty = every kind but coupons */
  appliesTo: GoodsKind[];
  validFrom: string;
  validUntil: string;
  state: CouponState;
  usedAt: string | null;
}

/** One row of my balance ledger (every change is a row; the balance is their sum). */
export interface BalanceLedgerRow {
  id: number;
  changeCents: number;
  /** topup | order | cancel | refund | grant */
  reason: string;
  orderId: number | null;
  createdAt: string;
}

/** My coupons by tab and my balance history (/mine/coupons, /mine/balanceHistory). */
export function walletCalls(http: ApiClient) {
  return {
    coupons: (q: { state?: CouponState; pagenum: number; pagesize: number }) => http.get<Paged<MemberCoupon>>('/customers/coupons', { query: { ...q } }),
    balanceHistory: (q: { pagenum: number; pagesize: number }) => http.get<Paged<BalanceLedgerRow>>('/customers/balance/history', { query: q }),
  };
}
