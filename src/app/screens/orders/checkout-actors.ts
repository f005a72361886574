import { fromPromise } from 'xstate';
import { orderCheckoutMachine } from '../../../../machines/order-checkout.machine';
import { paymentOrderMachine } from '../../../../machines/payment-order.machine';
import type { Api } from '../../../api/index';
import { successPath } from './checkout-paths';
import { leavePage } from '../../leave-page';
import { bridgeHost, installWechatBridgeStandIn, payInWechat } from './wechat-bridge';

export interface CheckoutEffects {
  api: Api;
  /** demo mode: the providers are local stand-ins (GET /pay/methods) */
  standIn: boolean;
  /** the footer badge and the member's goods are stale after a purchase */
  purchaseChanged(): void;
}

/** The pay-order machine with the browser's API and the page's effects as its actors. */
export function providePayOrder(fx: CheckoutEffects) {
  const { api } = fx;
  return paymentOrderMachine.provide({
    actors: {
      loadOrder: fromPromise(({ input }) => api.orders.detail(input.orderNo)),
      startPayment: fromPromise(({ input }) => api.orders.pay(input.orderNo, input.method, input.idempotencyKey, input.partSeq)),
      wechatPay: fromPromise(({ input }) => {
        const host = bridgeHost();
        if (host) return payInWechat(input.jsapi, host);
        if (!fx.standIn) return payInWechat(input.jsapi);
        // demo mode (decision 011): the stand-in's prepay ids mean nothing to the real messaging app, so a
        // stand-in bridge, on its own page-like object, takes the bridge's place even inside the app
        const page = { document: new EventTarget(), location: window.location } as unknown as Window;
        installWechatBridgeStandIn(page, successPath(input.orderNo, input.partSeq));
        return payInWechat(input.jsapi, page);
      }),
    },
    actions: {
      purchaseChanged: () => fx.purchaseChanged(),
      // the page unloads; coming back from Alipay lands on /payf?orderNo= (the return URL)
      openAlipay: ({ context }) => {
        if (context.payment?.method === 'alipay') leavePage(context.payment.url);
      },
    },
  });
}

/** The checkout machine with the browser's API as its actors, and the pay-order machine for its order. */
export function provideCheckout(fx: CheckoutEffects) {
  const { api } = fx;
  return orderCheckoutMachine.provide({
    actors: {
      loadGoods: fromPromise(({ input }) => api.goods.detail(input.goodsId)),
      quote: fromPromise(({ input }) => api.orders.quote(input)),
      createOrder: fromPromise(({ input }) => api.orders.create(input.body, input.idempotencyKey)),
      findUnpaidOrder: fromPromise(async () => {
        // the list's to-pay tab holds exactly the orders waiting for money; a member has one at a time
        const r = await api.orders.mine({ status: 'to_pay', pagenum: 0, pagesize: 1 });
        return r.code === 200 ? (r.data.list[0]?.orderNo ?? null) : null;
      }),
      payOrder: providePayOrder(fx),
    },
  });
}
