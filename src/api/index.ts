import { authCalls } from './auth';
import { bookingCalls } from './booking';
import { catalogCalls } from './catalog';
import { createApiClient, type ApiClientOptions } from './client';
import { flashSaleCalls } from './flash-sale';
import { friendCalls } from './friend';
import { goodsCalls } from './goods';
import { memberGoodsCalls } from './member-goods';
import { orderCalls } from './orders';
import { transferCalls } from './transfers';
import { cardRefundCalls } from './card-refunds';
import { walletCalls } from './wallet';

/** The app's whole API: one client, calls grouped by area. Machines receive these as provided actors. */
export function createApi(opts: ApiClientOptions) {
  const http = createApiClient(opts);
  return {
    auth: authCalls(http),
    catalog: catalogCalls(http),
    booking: bookingCalls(http),
    goods: goodsCalls(http),
    flashSale: flashSaleCalls(http),
    friend: friendCalls(http),
    memberGoods: memberGoodsCalls(http),
    orders: orderCalls(http),
    transfers: transferCalls(http),
    cardRefunds: cardRefundCalls(http),
    wallet: walletCalls(http),
  };
}

export type Api = ReturnType<typeof createApi>;
