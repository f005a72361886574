import { assign, fromPromise, setup } from 'xstate';
import type { FriendInvitationView, FriendPayAnswer } from '../src/api/friend-pay';
import type { WechatJsapiParams } from '../src/api/orders';
import type { Envelope } from '../src/domain/envelope';
import { isOk } from '../src/domain/envelope';
import { newIntentKey } from '../src/domain/intent-key';
import { FRIEND_INVITATION_TTL_MS } from '../src/domain/pricing';
import { friendPayResultMachine } from './friend-pay-result.machine';
import type { WechatBridgeOutcome } from './payment-order.machine';

/** How often the invitation is asked for its result while WeChat Pay settles it, for how long, then how often. */
export const FRIEND_POLL_MS = 2_000;
export const FRIEND_RESULT_TIMEOUT_MS = 30_000;
export const FRIEND_RECHECK_MS = 10_000;

/** Catalogue codes the chart branches on (src/domain/errors.ts; plain numbers so the chart loads without Lingui). */
const FRIEND_ALREADY_ACTED = 40018;
const NEEDS_AUTHORIZATION = 40019;
const INVITATION_OVER = 40022;

/**
 * Where the friend's page starts: 'view' opened from the link; 'authorized' back from the messaging
 * app's user-info authorization (the friend had tapped pay); 'result' back from WeChat Pay's cashier.
 */
export type FriendPayResume = 'view' | 'authorized' | 'result';

export interface FriendPayInput {
  /** the invitation's token, from the link */
  token: string;
  /** the invitation as the page loaded it; null: no such link */
  invitation: FriendInvitationView | null;
  resume: FriendPayResume;
}

export interface FriendPayContext {
  token: string;
  invitation: FriendInvitationView | null;
  /** what the page was opened for; consumed by the first routing (a later reload is a plain view) */
  resume: FriendPayResume;
  /** the page came back from the authorization: another 40019 is said, never a second trip */
  authorized: boolean;
  /** one per pay intent (a tap), reused by its retries: a double tap pays once */
  payKey?: string;
  jsapi?: WechatJsapiParams;
  /** the server's refusal (spec §8), shown translated */
  errorCode?: number;
}

export type FriendPayEvent =
  | { type: 'invitation.pay' }
  | { type: 'network.retry' }
  | { type: 'payment.retry' }
  | { type: 'invitation.refresh' };

type Env = Envelope<unknown>;

/**
 * A friend pays a member's order, or one part of it (/payfriend?t=; spec §4, §6; decision 021): no
 * account, only the link. The page shows what and how much, and for how long; a tap on pay asks the
 * server for a WeChat Pay JSAPI payment (one Idempotency-Key per tap); without the messaging app's
 * user-info authorization the server says 40019 and the page goes through it once and comes back to
 * pay (a second 40019 is said with a retry, never a loop). The pay sheet opens through the in-app
 * bridge; then the invitation is asked for until it is paid or over (the child machine friendPayResult:
 * every 2 s, and past a while, "being confirmed", every 10 s). Someone
 * else paying (40018), the invitation over (40022, read again to say expired or withdrawn) and the
 * hour running out while the page is open are each said.
 * Effects are provided: actors loadInvitation, startPay, wechatPay, friendPayResult (with its
 * loadInvitation); action authorize (leaves the
 * page); delay untilExpiry (the time left by the app's clock).
 * Tags: `ended` the invitation's end is shown (paid, ended unpaid, over), without its time left.
 */
export const friendPayMachine = setup({
  types: {
    context: {} as FriendPayContext,
    events: {} as FriendPayEvent,
    input: {} as FriendPayInput,
    tags: {} as 'ended',
  },
  actors: {
    loadInvitation: fromPromise<Envelope<FriendInvitationView>, { token: string }>(async () => {
      throw new Error('loadInvitation is provided by the app');
    }),
    startPay: fromPromise<Envelope<FriendPayAnswer>, { token: string; idempotencyKey: string }>(async () => {
      throw new Error('startPay is provided by the app');
    }),
    wechatPay: fromPromise<WechatBridgeOutcome, { jsapi: WechatJsapiParams; token: string }>(async () => {
      throw new Error('wechatPay is provided by the app');
    }),
    friendPayResult: friendPayResultMachine,
  },
  actions: {
    newPayKey: assign({ payKey: () => newIntentKey(), errorCode: undefined }),
    resumed: assign({ resume: 'view' as const }),
    keepInvitation: assign((_, params: { invitation: FriendInvitationView }) => ({ invitation: params.invitation })),
    keepCode: assign((_, params: { code: number }) => ({ errorCode: params.code })),
    forgetCode: assign({ errorCode: undefined }),
    keepPayment: assign((_, params: { answer: FriendPayAnswer }) => ({
      jsapi: params.answer.payment.method === 'wechat' ? params.answer.payment.jsapi : undefined,
    })),
    authorize: () => {},
  },
  delays: {
    // the app provides the time left by its clock; a fresh invitation has the hour
    untilExpiry: () => FRIEND_INVITATION_TTL_MS,
  },
  guards: {
    noInvitation: ({ context }) => context.invitation === null,
    paidNow: ({ context }) => context.invitation?.state === 'paid',
    resultPending: ({ context }) => context.resume === 'result' && context.invitation?.state === 'open',
    payAfterAuthorization: ({ context }) => context.resume === 'authorized' && context.invitation?.state === 'open',
    openNow: ({ context }) => context.invitation?.state === 'open',
    refused: (_, params: { envelope: Env }) => !isOk(params.envelope),
    needsAuthorization: (_, params: { envelope: Env }) => params.envelope.code === NEEDS_AUTHORIZATION,
    stillUnauthorized: ({ context }, params: { envelope: Env }) => context.authorized && params.envelope.code === NEEDS_AUTHORIZATION,
    someoneElse: (_, params: { envelope: Env }) => params.envelope.code === FRIEND_ALREADY_ACTED,
    invitationOver: (_, params: { envelope: Env }) => params.envelope.code === INVITATION_OVER,
    resultPaid: (_, params: { invitation: FriendInvitationView }) => params.invitation.state === 'paid',
    bridgeSaidCancel: (_, params: { outcome: WechatBridgeOutcome }) => params.outcome === 'cancel',
  },
}).createMachine({
  id: 'friendPay',
  context: ({ input }) => ({
    token: input.token,
    invitation: input.invitation,
    resume: input.resume,
    authorized: input.resume === 'authorized',
  }),
  initial: 'routing',
  states: {
    routing: {
      description: 'Where the page goes by the invitation as the server has it: unknown, paid, to pay, being paid, or over.',
      always: [
        { guard: 'noInvitation', target: 'notFound' },
        { guard: 'paidNow', target: 'paid', actions: 'resumed' },
        { guard: 'resultPending', target: 'awaitingResult', actions: 'resumed' },
        { guard: 'payAfterAuthorization', target: 'paying', actions: ['resumed', 'newPayKey'] },
        { guard: 'openNow', target: 'ready', actions: 'resumed' },
        { target: 'over', actions: 'resumed' },
      ],
    },
    loading: {
      description: 'The invitation is read again to see where it stands.',
      invoke: {
        id: 'loadInvitation',
        src: 'loadInvitation',
        input: ({ context }) => ({ token: context.token }),
        onDone: [
          {
            guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) },
            target: 'loadUnreachable',
            actions: { type: 'keepCode', params: ({ event }) => ({ code: event.output.code }) },
          },
          { target: 'routing', actions: { type: 'keepInvitation', params: ({ event }) => ({ invitation: event.output.data }) } },
        ],
        onError: { target: 'loadUnreachable', actions: 'forgetCode' },
      },
    },
    loadUnreachable: {
      description: "The invitation could not be read again: why (the network, or the server's reason), with a retry.",
      on: { 'network.retry': 'loading' },
    },
    notFound: { description: 'No such invitation: "this link is not valid", nothing to pay.', type: 'final' },
    ready: {
      description: 'The invitation: the goods, the amount in yuan, the time left, and "pay for your friend".',
      after: { untilExpiry: 'loading' },
      on: { 'invitation.pay': { target: 'paying', actions: 'newPayKey' } },
    },
    paying: {
      description: 'A payment under way for the invitation.',
      initial: 'requesting',
      states: {
        requesting: {
          description: 'The payment is being started ("starting the payment…"); the pay button waits.',
          invoke: {
            id: 'startPay',
            src: 'startPay',
            input: ({ context }) => ({ token: context.token, idempotencyKey: context.payKey! }),
            onDone: [
              {
                guard: { type: 'stillUnauthorized', params: ({ event }) => ({ envelope: event.output }) },
                target: '#friendPay.authorizationFailed',
              },
              {
                guard: { type: 'needsAuthorization', params: ({ event }) => ({ envelope: event.output }) },
                target: '#friendPay.authorizing',
              },
              {
                guard: { type: 'someoneElse', params: ({ event }) => ({ envelope: event.output }) },
                target: '#friendPay.takenByOther',
                actions: { type: 'keepCode', params: ({ event }) => ({ code: event.output.code }) },
              },
              // over meanwhile: read again to say whether it expired or was withdrawn
              {
                guard: { type: 'invitationOver', params: ({ event }) => ({ envelope: event.output }) },
                target: '#friendPay.loading',
                actions: { type: 'keepCode', params: ({ event }) => ({ code: event.output.code }) },
              },
              {
                guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) },
                target: '#friendPay.refused',
                actions: { type: 'keepCode', params: ({ event }) => ({ code: event.output.code }) },
              },
              { target: 'inWechat', actions: { type: 'keepPayment', params: ({ event }) => ({ answer: event.output.data }) } },
            ],
            onError: 'unreachable',
          },
        },
        /** no answer: a retry sends the same key, so the friend is charged once at most */
        unreachable: {
          description: 'No answer to the payment: "network unreachable" with a retry under the same key.',
          on: { 'network.retry': 'requesting' },
        },
        inWechat: {
          description: 'WeChat Pay\'s sheet is opening ("opening WeChat Pay…").',
          invoke: {
            id: 'wechatPay',
            src: 'wechatPay',
            input: ({ context }) => ({ jsapi: context.jsapi!, token: context.token }),
            onDone: [
              { guard: { type: 'bridgeSaidCancel', params: ({ event }) => ({ outcome: event.output }) }, target: 'sheetCancelled' },
              // ok or fail: only the server's result decides
              { target: '#friendPay.awaitingResult' },
            ],
            onError: 'bridgeUnavailable',
          },
        },
        sheetCancelled: {
          description: 'The friend closed WeChat Pay\'s sheet: "continue paying" opens the same payment again.',
          on: { 'payment.retry': 'inWechat' },
        },
        bridgeUnavailable: {
          description: 'Not inside the messaging app: "open this link in WeChat to pay", with a retry.',
          on: { 'payment.retry': 'inWechat' },
        },
      },
    },
    authorizing: {
      description: "The browser goes through the messaging app's user-info authorization and comes back to pay.",
      type: 'final',
      entry: 'authorize',
    },
    authorizationFailed: {
      description: 'Back from the authorization and still not authorized: the reason, and "authorize again".',
      on: { 'payment.retry': 'authorizing' },
    },
    takenByOther: {
      description: 'Someone else is paying it or has paid it (40018): said, with "refresh".',
      on: { 'invitation.refresh': 'loading' },
    },
    refused: {
      description: 'The server refused (the member is gone, WeChat Pay is down): the reason, and "try again".',
      on: { 'invitation.pay': { target: 'paying', actions: 'newPayKey' } },
    },
    awaitingResult: {
      description: '"Confirming the payment…" while WeChat Pay settles it: the invitation asked for at once, then every 2 s.',
      after: { [FRIEND_RESULT_TIMEOUT_MS]: 'checking' },
      invoke: {
        id: 'pollInvitation',
        src: 'friendPayResult',
        input: ({ context }) => ({ token: context.token, every: FRIEND_POLL_MS, askAtOnce: true }),
        onDone: [
          {
            guard: { type: 'resultPaid', params: ({ event }) => ({ invitation: event.output }) },
            target: 'paid',
            actions: { type: 'keepInvitation', params: ({ event }) => ({ invitation: event.output }) },
          },
          { target: 'endedUnpaid', actions: { type: 'keepInvitation', params: ({ event }) => ({ invitation: event.output }) } },
        ],
      },
    },
    checking: {
      description: 'Past the wait: "the payment is being confirmed", never called failed; the invitation still asked for, every 10 s.',
      invoke: {
        id: 'recheckInvitation',
        src: 'friendPayResult',
        input: ({ context }) => ({ token: context.token, every: FRIEND_RECHECK_MS, askAtOnce: false }),
        onDone: [
          {
            guard: { type: 'resultPaid', params: ({ event }) => ({ invitation: event.output }) },
            target: 'paid',
            actions: { type: 'keepInvitation', params: ({ event }) => ({ invitation: event.output }) },
          },
          { target: 'endedUnpaid', actions: { type: 'keepInvitation', params: ({ event }) => ({ invitation: event.output }) } },
        ],
      },
    },
    paid: { tags: ['ended'], description: 'Paid: "thank you", the amount paid; nothing more to do.', type: 'final' },
    endedUnpaid: {
      tags: ['ended'],
      description: 'The invitation ended before the payment was confirmed: nothing was charged, or what was taken is refunded.',
      type: 'final',
    },
    over: { tags: ['ended'], description: 'The invitation expired or was withdrawn by the member: nothing to pay.', type: 'final' },
  },
});
