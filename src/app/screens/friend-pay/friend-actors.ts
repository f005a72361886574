import { fromPromise } from 'xstate';
import { friendPayInviteMachine } from '../../../../machines/friend-pay-invite.machine';
import { friendPayResultMachine } from '../../../../machines/friend-pay-result.machine';
import { friendPayMachine } from '../../../../machines/friend-pay.machine';
import type { Api } from '../../../api/index';
import type { Clock } from '../../../domain/clock';
import { leavePage } from '../../leave-page';
import { bridgeHost, installWechatBridgeStandIn, payInWechat } from '../orders/wechat-bridge';
import { friendAuthorizePath, friendPayPath } from './friend-paths';

/** ms from now until an instant, by the app's clock (never below zero). */
const until = (clock: Clock, iso: string | undefined) => (iso ? Math.max(0, Date.parse(iso) - clock.now().getTime()) : 0);

/**
 * The member's invitation machine with the browser's API, the app's clock and the page's copy. The API
 * is asked for when a request goes out: the server renders the page from an actor never started.
 */
export function provideFriendInvite(fx: { api: () => Api; clock: Clock; copyLink(link: string): void }) {
  const { api } = fx;
  return friendPayInviteMachine.provide({
    actors: {
      invite: fromPromise(({ input }) =>
        api().friendPay.invite(
          { orderNo: input.orderNo, ...(input.partSeq !== undefined ? { partSeqs: [input.partSeq] } : {}) },
          input.idempotencyKey,
        ),
      ),
      latestInvitation: fromPromise(({ input }) => api().friendPay.latest({ orderNo: input.orderNo, partSeq: input.partSeq })),
      checkOrder: fromPromise(({ input }) => api().orders.detail(input.orderNo)),
      withdraw: fromPromise(({ input }) =>
        api().friendPay.withdraw({ orderNo: input.orderNo, partSeq: input.partSeq }, input.idempotencyKey),
      ),
    },
    actions: { copyLink: ({ context }) => context.invitation && fx.copyLink(context.invitation.link) },
    delays: { untilExpiry: ({ context }) => until(fx.clock, context.invitation?.expiresAt) },
  });
}

/** The friend's pay machine with the browser's API (asked for when a request goes out), the app's clock, the messaging app's bridge and the authorization. */
export function provideFriendPay(fx: { api: () => Api; clock: Clock; standIn: boolean }) {
  const { api } = fx;
  const loadInvitation = fromPromise(({ input }: { input: { token: string } }) => api().friendPay.invitation(input.token));
  return friendPayMachine.provide({
    actors: {
      loadInvitation,
      friendPayResult: friendPayResultMachine.provide({ actors: { loadInvitation } }),
      startPay: fromPromise(({ input }) => api().friendPay.pay({ t: input.token }, input.idempotencyKey)),
      wechatPay: fromPromise(({ input }) => {
        const host = bridgeHost();
        if (host) return payInWechat(input.jsapi, host);
        if (!fx.standIn) return payInWechat(input.jsapi);
        // demo mode (decision 011): the stand-in bridge opens the stand-in's cashier, which comes back here
        const page = { document: new EventTarget(), location: window.location } as unknown as Window;
        installWechatBridgeStandIn(page, friendPayPath(input.token, 'result'));
        return payInWechat(input.jsapi, page);
      }),
    },
    actions: { authorize: ({ context }) => leavePage(friendAuthorizePath(context.token)) },
    delays: { untilExpiry: ({ context }) => until(fx.clock, context.invitation?.expiresAt) },
  });
}
