import type { FlashSalePhase } from '../domain/flash-sale';
import type { ApiClient } from './client';

/** GET /product/goods/activity (spec §3 card activity detail, §7): a flash sale as the app shows it. */
export interface FlashSaleActivity {
  id: number;
  sellNumber: number;
  maxNumber: number;
  /** can be bought now by this caller (spec spelling); `message` says why not */
  isUable: boolean;
  message: string | null;
  phase: FlashSalePhase;
  goodsId: number;
  activityId: number | null;
  title: string;
  startsAt: string;
  endsAt: string;
  /** the server's clock when it answered: countdowns run from it, not from the phone's clock */
  serverNow: string;
  /** the caller already holds a place */
  mine: boolean;
}

/** The flash sale (decision 009). Without an id: the live or next sale. */
export function flashSaleCalls(http: ApiClient) {
  return {
    activity: (id?: number) => http.get<FlashSaleActivity>('/product/goods/activity', { query: id === undefined ? {} : { id } }),
  };
}
