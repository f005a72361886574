import type { PageQuery } from '../contracts/common';
import type { BalanceLedgerRow } from '../contracts/payments';
import type { Paged } from '../domain/envelope';
import type { ApiClient } from './client';

// The answers are the server's own schemas, inferred (src/contracts): they cannot drift.
export type { BalanceLedgerRow };

/** My balance history (/mine/balanceHistory). */
export function paymentCalls(http: ApiClient) {
  return {
    balanceHistory: (q: PageQuery) => http.get<Paged<BalanceLedgerRow>>('/customers/balance/history', { query: q }),
  };
}
