import { accountClosingCalls } from './account-closing';
import { authCalls } from './auth';
import { bindingCalls, staffCalls } from './binding';
import { bookingCalls } from './booking';
import { catalogCalls } from './catalog';
import { createApiClient, type ApiClientOptions } from './client';
import { flashSaleCalls } from './flash-sale';
import { friendPayCalls } from './friend-pay';
import { goodsCalls } from './catalog-goods';
import { cardCalls } from './cards';
import { orderCalls } from './orders';
import { personCalls } from './person';
import { scheduleCalls } from './schedule';
import { cardTransferCalls } from './card-transfers';
import { cardRefundCalls } from './card-refunds';
import { complaintCalls } from './complaints';
import { invoiceCalls } from './invoices';
import { couponCalls } from './coupons';
import { paymentCalls } from './payments';

/** The app's whole API: one client, calls grouped by area. Machines receive these as provided actors. */
export function createApi(opts: ApiClientOptions) {
  const http = createApiClient(opts);
  return {
    auth: authCalls(http),
    binding: bindingCalls(http),
    staff: staffCalls(http),
    catalog: catalogCalls(http),
    booking: bookingCalls(http),
    goods: goodsCalls(http),
    flashSale: flashSaleCalls(http),
    friendPay: friendPayCalls(http),
    cards: cardCalls(http),
    orders: orderCalls(http),
    cardTransfers: cardTransferCalls(http),
    schedule: scheduleCalls(http),
    cardRefunds: cardRefundCalls(http),
    complaints: complaintCalls(http),
    invoices: invoiceCalls(http),
    coupons: couponCalls(http),
    payments: paymentCalls(http),
    person: personCalls(http),
    accountClosing: accountClosingCalls(http),
  };
}

export type Api = ReturnType<typeof createApi>;
