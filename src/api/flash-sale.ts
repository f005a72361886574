import type { FlashSaleActivity, FlashSaleQuery } from '../contracts/flash-sale';
import type { ApiClient } from './client';

// The answer is the server's own schema, inferred (src/contracts/flash-sale.ts): it cannot drift.
export type { FlashSaleActivity };

/** The flash sale (decision 009). Without an id: the live or next sale. */
export function flashSaleCalls(http: ApiClient) {
  return {
    activity: (id?: FlashSaleQuery['id']) =>
      http.get<FlashSaleActivity>('/product/goods/activity', { query: id === undefined ? {} : { id } }),
  };
}
