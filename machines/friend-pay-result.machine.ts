import { assign, fromPromise, setup } from 'xstate';
import type { FriendInvitationView } from '../src/api/friend-pay';
import type { Envelope } from '../src/domain/envelope';
import { isOk } from '../src/domain/envelope';

export interface FriendPayResultInput {
  /** the invitation's token, from the link */
  token: string;
  /** ms between two asks */
  every: number;
  /** ask at once (the wait for the result begins), or wait first (the re-checks past that wait) */
  askAtOnce: boolean;
}

export interface FriendPayResultContext extends FriendPayResultInput {
  /** the invitation as the server answered it once it was paid or over */
  invitation?: FriendInvitationView;
}

/** An invitation in one of these states will not change any more. */
const SETTLED: ReadonlyArray<FriendInvitationView['state']> = ['paid', 'expired', 'withdrawn'];

/**
 * WeChat Pay's result for a friend's payment, asked of the server (spec §4; decision 021): the
 * invitation is read, and read again every while, until it is paid or over (expired, withdrawn); a
 * read that fails or finds it still open waits and asks again. The friend-pay machine invokes it
 * twice: asking at once, every 2 s, while it says "confirming"; then every 10 s, waiting first,
 * past that wait. Its output is the invitation as the server had it, paid or over.
 * Effects are provided: actor loadInvitation.
 */
export const friendPayResultMachine = setup({
  types: {
    context: {} as FriendPayResultContext,
    input: {} as FriendPayResultInput,
    output: {} as FriendInvitationView,
  },
  actors: {
    loadInvitation: fromPromise<Envelope<FriendInvitationView>, { token: string }>(async () => {
      throw new Error('loadInvitation is provided by the app');
    }),
  },
  actions: {
    keepInvitation: assign((_, params: { invitation: FriendInvitationView }) => ({ invitation: params.invitation })),
  },
  delays: {
    every: ({ context }) => context.every,
  },
  guards: {
    askAtOnce: ({ context }) => context.askAtOnce,
    settled: (_, params: { envelope: Envelope<FriendInvitationView> }) =>
      isOk(params.envelope) && SETTLED.includes(params.envelope.data.state),
  },
}).createMachine({
  id: 'friendPayResult',
  context: ({ input }) => ({ ...input }),
  initial: 'starting',
  states: {
    starting: {
      description: 'Asks at once, or waits first.',
      always: [{ guard: 'askAtOnce', target: 'asking' }, { target: 'waiting' }],
    },
    asking: {
      description: 'Asking the server whether the invitation is paid.',
      invoke: {
        id: 'loadInvitation',
        src: 'loadInvitation',
        input: ({ context }) => ({ token: context.token }),
        onDone: [
          {
            guard: { type: 'settled', params: ({ event }) => ({ envelope: event.output }) },
            target: 'settled',
            actions: { type: 'keepInvitation', params: ({ event }) => ({ invitation: event.output.data }) },
          },
          // still open, or the server could not say this time
          { target: 'waiting' },
        ],
        onError: 'waiting',
      },
    },
    waiting: { description: 'Waiting a while before asking again.', after: { every: 'asking' } },
    settled: { description: 'Paid, or over unpaid: the invitation as the server has it goes to the page.', type: 'final' },
  },
  output: ({ context }) => context.invitation!,
});
