// @vitest-environment jsdom
import { expect } from 'vitest';
import { friendPayResultMachine, type FriendPayResultContext, type FriendPayResultInput } from '../../machines/friend-pay-result.machine';
import { FRIEND_POLL_MS, FRIEND_RECHECK_MS, FRIEND_RESULT_TIMEOUT_MS } from '../../machines/friend-pay.machine';
import { orderRow } from '../server/orders/support';
import { friendPayWorld, type InvitedOrder } from './support/friend-pay-world';
import { screen, startScreenHarness } from './support/screen-harness';
import { defineScreenPaths, sentBy, type World } from './support/screen-paths';

/**
 * WeChat Pay's result for a friend's payment (spec §4; decision 021; machines/friend-pay-result.machine.ts),
 * the child machine the friend's page invokes while it waits: walked on /payfriend?t=&step=result, the
 * page the friend comes back to from WeChat Pay's cashier with the payment not settled yet. The page asks
 * the server whether the invitation is paid, at once and every 2 s while it says "confirming", and every
 * 10 s (waiting first) past that wait, while it says "being confirmed"; an answer that it is still open,
 * or a failed read, waits and asks again; paid or over (expired, withdrawn) ends the asking and the page
 * says it. WeChat Pay (its signed notification), the member (withdrawing) and time (the hour) are
 * played by the real server.
 */
const h = await startScreenHarness({ seed: true });
const world = friendPayWorld(h);

const WORLDS = {
  'confirming (asked at once, every 2 s)': { token: 'sym-now', every: FRIEND_POLL_MS, askAtOnce: true },
  'being confirmed (asked every 10 s, waiting first)': { token: 'sym-later', every: FRIEND_RECHECK_MS, askAtOnce: false },
} satisfies Record<string, FriendPayResultInput>;
type WorldName = keyof typeof WORLDS;

interface Friend extends InvitedOrder {
  world: WorldName;
}
type W = World<Friend>;

const ok = (data: unknown) => ({ code: 200, status: true, data });
const view = (state: string) => ok({ state, goodsName: 'sym', amountCents: 19_900, expiresAt: 'sym' });
const resultPanel = () => document.querySelector<HTMLElement>('[data-payment-result]')?.dataset.paymentResult ?? null;
const payButton = () => document.querySelector<HTMLButtonElement>('[data-action="pay"]');
const invitationRequest = (w: W) => `/api/friend/invitation?t=${w.t}`;

/** what the page says while it waits: "confirming" within the wait for the result, "being confirmed" past it */
function saysWaiting(w: W) {
  expect(resultPanel()).toBe(WORLDS[w.world].askAtOnce ? 'confirming' : 'checking');
  expect(payButton(), 'never offered again while it may be paid').toBe(null);
}

defineScreenPaths<Friend>(h, {
  machine: friendPayResultMachine,
  screen: '/payfriend (the result)',
  inputs: WORLDS,
  cases: {
    'xstate.done.actor.loadInvitation': [
      { output: view('open'), answer: { server: true } },
      { output: view('paid'), answer: { server: true, arrange: world.settlePaid } },
      { output: view('expired'), answer: { server: true, arrange: world.hourOver } },
      { output: view('withdrawn'), answer: { server: true, arrange: world.withdrawByMember } },
    ],
    'xstate.error.actor.loadInvitation': [{ error: new Error('network') }],
  },
  // paid, expired and withdrawn are each walked to the end
  project: (c: FriendPayResultContext) => c.invitation?.state ?? null,
  requests: {
    // the page's loader reads the invitation too: only the chart's own reads are held
    loadInvitation: { method: 'GET', path: /^\/api\/friend\/invitation$/, shared: true },
  },

  async start(hh, input) {
    const name = input as WorldName;
    const order = await world.invitedOrder();
    // the friend paid in WeChat Pay's cashier; its result has not reached the server yet
    await world.authorizeHere(order.t);
    expect((await hh.server.call('POST', '/api/friend/pay', { body: { t: order.t }, headers: { cookie: hh.jar.header() } })).status).toBe(
      200,
    );
    const ui = await hh.open(`/payfriend?t=${order.t}&step=result`);
    // past the wait for the result, the page asks less often (what it asked meanwhile, the server answered: open)
    if (!WORLDS[name].askAtOnce) await world.pass(FRIEND_RESULT_TIMEOUT_MS);
    return { ...order, world: name, ui };
  },

  events: {
    'xstate.after.every.friendPayResult.waiting': (w) => world.pass(WORLDS[w.world].every),
  },

  states: {
    asking: (w) => {
      saysWaiting(w);
      expect(w.held.get('loadInvitation')?.map((r) => r.path)).toEqual([invitationRequest(w)]);
    },
    waiting: async (w) => {
      saysWaiting(w);
      expect(w.held.get('loadInvitation') ?? []).toEqual([]);
      // asks again only while the invitation may still be paid
      expect((await world.invitation(w)).state).toBe('open');
      const last = sentBy(w, 'loadInvitation').at(-1);
      if (WORLDS[w.world].askAtOnce) expect(last, 'asked at once').toBeDefined();
      if (last) expect(last.answer === 'network' || last.answer === 200, 'the last read failed, or found it open').toBe(true);
    },
    settled: async (w) => {
      const inv = await world.invitation(w);
      expect(w.held.get('loadInvitation') ?? [], 'nothing more asked').toEqual([]);
      if (inv.state === 'paid') {
        expect(resultPanel()).toBe('paid');
        expect((await orderRow(h.server, w.orderNo)).state).toBe('fully_paid');
      } else {
        expect(
          inv.state === 'withdrawn' || inv.expiresAt.getTime() <= h.server.clock.now().getTime(),
          'withdrawn, or its hour is over',
        ).toBe(true);
        expect(resultPanel()).toBe('ended');
        expect(screen.getByText('本次支付未完成，没有扣款；如已扣款，款项将原路退回。')).toBeTruthy();
      }
      expect(payButton()).toBe(null);
    },
  },

  effects: {
    // a wait's end asks once, for this invitation
    'xstate.after.every.friendPayResult.waiting': (w, _e, before) =>
      expect(sentBy(w, 'loadInvitation', before).map((r) => r.path)).toEqual([invitationRequest(w)]),
  },
});
