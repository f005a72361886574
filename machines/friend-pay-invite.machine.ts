import { assign, fromPromise, setup } from 'xstate';
import type { FriendInvitation, InviteAnswer, MemberInvitationAnswer, OrderDetail } from '../src/api/friend-pay';
import type { Envelope } from '../src/domain/envelope';
import { isOk } from '../src/domain/envelope';
import { newIntentKey } from '../src/domain/intent-key';
import { FRIEND_INVITATION_TTL_MS } from '../src/domain/pricing';

/** How often the member's page reads the order while the invitation is open. */
export const INVITE_WATCH_MS = 5_000;

export interface FriendInviteInput {
  orderNo: string;
  /** a split order's part; absent: the order's only unpaid share */
  partSeq?: number;
}

export interface FriendInviteContext extends FriendInviteInput {
  /** one per intent (opening the page, "invite again"), reused by its retries */
  inviteKey: string;
  /** one per withdraw confirmed, reused by its retries */
  withdrawKey?: string;
  invitation?: FriendInvitation;
  goodsName?: string;
  /** the friend who paid, as their messaging app named them ('' when it gave no name) */
  friendName?: string;
  /** how the friend paid */
  paidBy?: 'wechat' | 'alipay' | null;
  /** what the share accepts now, read with the latest invitation (absent: not read, the server decides on the tap) */
  actions?: MemberInvitationAnswer['actions'];
  /** the server's refusal (spec §8), shown translated */
  errorCode?: number;
}

export type FriendInviteEvent =
  | { type: 'link.copy' }
  | { type: 'invitation.withdraw' }
  | { type: 'confirm.accept' }
  | { type: 'confirm.dismiss' }
  | { type: 'network.retry' }
  | { type: 'invite.again' };

type Env = Envelope<unknown>;
/** the invitation's part in the order as the server has it now */
const partOf = (c: FriendInviteContext, d: OrderDetail) => d.parts.find((p) => p.seq === c.invitation?.partSeq);

/**
 * Asking a friend to pay my order, or one part of a split order (/friendsplit?orderNo=&partSeq=;
 * spec §4, §6; decisions 021, 099). Opening the page first reads what happened to the latest
 * invitation for it: open (its link), paid (by whom, how), expired, withdrawn, the friend's money given
 * back; with none it makes one (one Idempotency-Key per intent): the amount, an hour's countdown, the
 * link to share or copy. While
 * it is open the order is read every few seconds: paid by the friend (their name said), or ended
 * elsewhere. The member may withdraw it (confirmed first); once withdrawn, expired or ended, invite again.
 * Effects are provided: actors latestInvitation, invite, checkOrder, withdraw; action copyLink; delay untilExpiry (the
 * time left by the app's clock).
 * Tags say what the page shows: `busy` a request in flight (it says it is working), `unreachable` a retry,
 * `end` an invitation that is over (withdrawn, expired, ended elsewhere): the page offers what to do next (decision 103).
 */
export const friendPayInviteMachine = setup({
  types: {
    context: {} as FriendInviteContext,
    events: {} as FriendInviteEvent,
    input: {} as FriendInviteInput,
    tags: {} as 'busy' | 'unreachable' | 'end',
  },
  actors: {
    invite: fromPromise<Envelope<InviteAnswer>, { orderNo: string; partSeq?: number; idempotencyKey: string }>(async () => {
      throw new Error('invite is provided by the app');
    }),
    latestInvitation: fromPromise<Envelope<MemberInvitationAnswer>, { orderNo: string; partSeq?: number }>(async () => {
      throw new Error('latestInvitation is provided by the app');
    }),
    checkOrder: fromPromise<Envelope<OrderDetail>, { orderNo: string }>(async () => {
      throw new Error('checkOrder is provided by the app');
    }),
    withdraw: fromPromise<Envelope<OrderDetail>, { orderNo: string; partSeq: number; idempotencyKey: string }>(async () => {
      throw new Error('withdraw is provided by the app');
    }),
  },
  actions: {
    newInviteKey: assign({ inviteKey: () => newIntentKey(), errorCode: undefined, invitation: undefined }),
    newWithdrawKey: assign({ withdrawKey: () => newIntentKey(), errorCode: undefined }),
    keepInvitation: assign((_, params: { answer: InviteAnswer }) => ({
      invitation: params.answer.invitation,
      goodsName: params.answer.order.goodsName,
      errorCode: undefined,
    })),
    keepCode: assign((_, params: { code: number }) => ({ errorCode: params.code })),
    keepFriend: assign(({ context }, params: { order: OrderDetail }) => ({
      friendName: partOf(context, params.order)?.friendName ?? '',
      paidBy: partOf(context, params.order)?.paidBy === 'alipay' ? 'alipay' : 'wechat',
    })),
    keepLatest: assign((_, params: { answer: MemberInvitationAnswer }) => {
      const inv = params.answer.invitation;
      return {
        actions: params.answer.actions,
        goodsName: params.answer.goodsName,
        errorCode: undefined,
        ...(inv ? { invitation: inv, friendName: inv.friendName ?? '', paidBy: inv.paidBy } : {}),
      };
    }),
    copyLink: () => {},
  },
  delays: {
    // the app provides the time left by its clock; a fresh invitation has the hour
    untilExpiry: () => FRIEND_INVITATION_TTL_MS,
  },
  guards: {
    refused: (_, params: { envelope: Env }) => !isOk(params.envelope),
    latestIs: (_, params: { envelope: Envelope<MemberInvitationAnswer>; state: FriendInvitation['state'] | 'none' }) =>
      isOk(params.envelope) && (params.envelope.data.invitation?.state ?? 'none') === params.state,
    partPaid: ({ context }, params: { envelope: Envelope<OrderDetail> }) =>
      isOk(params.envelope) && partOf(context, params.envelope.data)?.state === 'paid',
    /** the order no longer waits for the friend on this part (withdrawn on another phone, cancelled, paid another way) */
    endedElsewhere: ({ context }, params: { envelope: Envelope<OrderDetail> }) =>
      isOk(params.envelope) &&
      !(params.envelope.data.state === 'friend_paying' && partOf(context, params.envelope.data)?.state === 'unpaid'),
  },
}).createMachine({
  id: 'friendPayInvite',
  context: ({ input }) => ({
    orderNo: input.orderNo,
    ...(input.partSeq !== undefined ? { partSeq: input.partSeq } : {}),
    inviteKey: newIntentKey(),
  }),
  initial: 'reading',
  states: {
    reading: {
      tags: ['busy'],
      description:
        'Re-opening the page: what happened to my latest invitation for it is read first (open, paid by whom, expired, withdrawn); none yet: one is made.',
      invoke: {
        id: 'latestInvitation',
        src: 'latestInvitation',
        input: ({ context }) => ({ orderNo: context.orderNo, partSeq: context.partSeq }),
        onDone: [
          {
            guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) },
            target: 'refused',
            actions: { type: 'keepCode', params: ({ event }) => ({ code: event.output.code }) },
          },
          { guard: { type: 'latestIs', params: ({ event }) => ({ envelope: event.output, state: 'none' }) }, target: 'creating' },
          {
            guard: { type: 'latestIs', params: ({ event }) => ({ envelope: event.output, state: 'open' }) },
            target: 'open',
            actions: { type: 'keepLatest', params: ({ event }) => ({ answer: event.output.data }) },
          },
          {
            guard: { type: 'latestIs', params: ({ event }) => ({ envelope: event.output, state: 'paid' }) },
            target: 'paid',
            actions: { type: 'keepLatest', params: ({ event }) => ({ answer: event.output.data }) },
          },
          {
            guard: { type: 'latestIs', params: ({ event }) => ({ envelope: event.output, state: 'expired' }) },
            target: 'expired',
            actions: { type: 'keepLatest', params: ({ event }) => ({ answer: event.output.data }) },
          },
          {
            guard: { type: 'latestIs', params: ({ event }) => ({ envelope: event.output, state: 'withdrawn' }) },
            target: 'withdrawn',
            actions: { type: 'keepLatest', params: ({ event }) => ({ answer: event.output.data }) },
          },
          // refunded: the friend's money went back with the part
          { target: 'ended', actions: { type: 'keepLatest', params: ({ event }) => ({ answer: event.output.data }) } },
        ],
        onError: 'readUnreachable',
      },
    },
    readUnreachable: {
      tags: ['unreachable'],
      description: 'The invitation could not be read: "network unreachable" with a retry.',
      on: { 'network.retry': 'reading' },
    },
    creating: {
      tags: ['busy'],
      description: 'The invitation is being made (or the open one read): "preparing the link…".',
      invoke: {
        id: 'invite',
        src: 'invite',
        input: ({ context }) => ({ orderNo: context.orderNo, partSeq: context.partSeq, idempotencyKey: context.inviteKey }),
        onDone: [
          {
            guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) },
            target: 'refused',
            actions: { type: 'keepCode', params: ({ event }) => ({ code: event.output.code }) },
          },
          { target: 'open', actions: { type: 'keepInvitation', params: ({ event }) => ({ answer: event.output.data }) } },
        ],
        onError: 'createUnreachable',
      },
    },
    createUnreachable: {
      tags: ['unreachable'],
      description: 'The invitation could not be made: "network unreachable" with a retry (the same request).',
      on: { 'network.retry': 'creating' },
    },
    refused: {
      description:
        'The server refused (paid, cancelled, nothing left to pay, a payment under way, a part to name): the reason and the way back to the order.',
      type: 'final',
    },
    open: {
      description: 'The invitation is open: what the friend pays, the time left, "share", "copy link" and "withdraw".',
      initial: 'watching',
      after: { untilExpiry: 'expired' },
      on: {
        'link.copy': { actions: 'copyLink' },
        'invitation.withdraw': 'confirmingWithdraw',
      },
      states: {
        watching: { description: 'Waiting a few seconds before reading the order again.', after: { [INVITE_WATCH_MS]: 'checking' } },
        checking: {
          description: 'Reading the order: has the friend paid, is the invitation still open?',
          invoke: {
            id: 'checkOrder',
            src: 'checkOrder',
            input: ({ context }) => ({ orderNo: context.orderNo }),
            onDone: [
              {
                guard: { type: 'partPaid', params: ({ event }) => ({ envelope: event.output }) },
                target: '#friendPayInvite.paid',
                actions: { type: 'keepFriend', params: ({ event }) => ({ order: event.output.data }) },
              },
              { guard: { type: 'endedElsewhere', params: ({ event }) => ({ envelope: event.output }) }, target: '#friendPayInvite.ended' },
              // still open (or the order could not be read this time): read again in a moment
              { target: 'watching' },
            ],
            onError: 'watching',
          },
        },
      },
    },
    confirmingWithdraw: {
      description: 'A confirm asks whether to withdraw the invitation: the member confirms, or says not now (nothing is sent).',
      on: { 'confirm.accept': { target: 'withdrawing', actions: 'newWithdrawKey' }, 'confirm.dismiss': 'open' },
    },
    withdrawing: {
      tags: ['busy'],
      description: 'The withdrawal was sent: "withdrawing…", nothing else to tap.',
      invoke: {
        id: 'withdraw',
        src: 'withdraw',
        input: ({ context }) => ({ orderNo: context.orderNo, partSeq: context.invitation!.partSeq, idempotencyKey: context.withdrawKey! }),
        onDone: [
          // over meanwhile (paid, or its hour ran out): the order read again says which
          {
            guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) },
            target: '#friendPayInvite.open.checking',
            actions: { type: 'keepCode', params: ({ event }) => ({ code: event.output.code }) },
          },
          { target: 'withdrawn' },
        ],
        onError: 'withdrawUnreachable',
      },
    },
    withdrawUnreachable: {
      tags: ['unreachable'],
      description: 'The withdrawal did not reach the server: retry (the same request) or close.',
      on: { 'network.retry': 'withdrawing', 'confirm.dismiss': 'open' },
    },
    withdrawn: {
      tags: ['end'],
      description: 'Withdrawn: the friend can no longer pay; "invite again" makes a new link.',
      on: { 'invite.again': { target: 'creating', actions: 'newInviteKey' } },
    },
    expired: {
      tags: ['end'],
      description: 'The hour is over unpaid: "invite again" makes a new link.',
      on: { 'invite.again': { target: 'creating', actions: 'newInviteKey' } },
    },
    ended: {
      tags: ['end'],
      description:
        'The invitation ended elsewhere (withdrawn on another phone, the order cancelled or paid another way): the way to the order, or "invite again".',
      on: { 'invite.again': { target: 'creating', actions: 'newInviteKey' } },
    },
    paid: { description: 'The friend paid: "paid by <name>", and the way to the order.', type: 'final' },
  },
});
