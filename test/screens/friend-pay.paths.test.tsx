// @vitest-environment jsdom
import { eq, like } from 'drizzle-orm';
import { expect } from 'vitest';
import {
  FRIEND_RECHECK_MS,
  FRIEND_RESULT_TIMEOUT_MS,
  friendPayMachine,
  type FriendPayContext,
  type FriendPayInput,
} from '../../machines/friend-pay.machine';
import { setPageLeaver } from '../../src/app/leave-page';
import { BRIDGE_READY_TIMEOUT_MS, setBridgeHost, type BridgeWindow } from '../../src/app/screens/orders/wechat-bridge';
import { countdownParts } from '../../src/domain/flash-sale';
import { formatYuan } from '../../src/domain/money';
import { accounts, friendInvitations, paymentAttempts } from '../../src/server/db/schema/index';
import { payAsFriend } from '../../src/server/services/orders/friend-pay';
import { orderRow } from '../server/orders/support';
import { issueOpenId } from '../server/payments/support';
import { screen, startScreenHarness } from './support/screen-harness';
import { friendPayWorld, type InvitedOrder } from './support/friend-pay-world';
import { defineScreenPaths, sentBy, type World } from './support/screen-paths';

/**
 * A friend pays a member's order on /payfriend?t= (spec §4, §6, §8; decision 021, decision 003
 * "Friend authorization"), on the real screen and server. The friend has no account: the page shows
 * the goods, the amount and the time left; a tap on pay asks the server for a WeChat Pay payment;
 * without the messaging app's user-info authorization the server says 40019 and the page goes
 * through it once (the OAuth stand-in, followed by the test as the browser would) and comes back to
 * pay; a second 40019 is said, never a second trip on its own. The messaging app's pay sheet is
 * played by the test through the in-page bridge; WeChat Pay's result by its stand-in's signed
 * notification; the member (withdrawing), another friend (paying first) and time (the hour) by the
 * real server.
 *
 * Worlds (the symbolic token names them; start makes them real): the link opened without and with a
 * live authorization; back from the authorization with it and without it; back from WeChat Pay's
 * cashier with the payment not yet settled; and links to an invitation paid, expired, withdrawn or
 * unknown.
 */
const h = await startScreenHarness({ seed: true });
const PRICE = 19_900;

const WORLDS = {
  'the link, not authorized': { token: 'sym-view', state: 'open', resume: 'view' },
  'the link, authorized earlier': { token: 'sym-authorized', state: 'open', resume: 'view' },
  'back from the authorization': { token: 'sym-back', state: 'open', resume: 'authorized' },
  'back from the authorization, refused there': { token: 'sym-back-refused', state: 'open', resume: 'authorized' },
  'back from the cashier': { token: 'sym-result', state: 'open', resume: 'result' },
  'a paid invitation': { token: 'sym-paid', state: 'paid', resume: 'view' },
  'an expired invitation': { token: 'sym-expired', state: 'expired', resume: 'view' },
  'a withdrawn invitation': { token: 'sym-withdrawn', state: 'withdrawn', resume: 'view' },
  'an unknown link': { token: 'sym-unknown', state: null, resume: 'view' },
} as const;
type WorldName = keyof typeof WORLDS;
const inputs: Record<string, FriendPayInput> = Object.fromEntries(
  Object.entries(WORLDS).map(([name, w]) => [
    name,
    {
      token: w.token,
      resume: w.resume,
      invitation: w.state
        ? {
            state: w.state,
            goodsName: 'sym',
            amountCents: PRICE,
            expiresAt: 'sym',
            member: { name: 'sym', avatar: null },
            money: {
              scope: 'share' as const,
              goodsTotalCents: PRICE,
              couponCents: 0,
              paidCents: 0,
              refundedCents: 0,
              refundingCents: 0,
              toPayCents: PRICE,
              payers: [],
            },
          }
        : null,
    },
  ]),
);

/** The messaging app's in-page bridge, played by the test: it comes when told, and answers the sheet. */
function testBridge() {
  const host = { document: new EventTarget(), location: window.location } as unknown as BridgeWindow;
  const calls: Array<{ params: Record<string, string>; answered: boolean; said?: string; answer(errMsg: string): void }> = [];
  return {
    host,
    calls,
    ready() {
      host.WeixinJSBridge = {
        invoke(_name, params, callback) {
          const call = {
            params: params as unknown as Record<string, string>,
            answered: false,
            answer: (m: string) => ((call.answered = true), (call.said = m), callback({ err_msg: m })),
          } as (typeof calls)[number];
          calls.push(call);
        },
      };
      host.document.dispatchEvent(new Event('WeixinJSBridgeReady'));
    },
  };
}

interface Friend extends InvitedOrder {
  world: WorldName;
  /** the friend's open id, when the world has them authorized */
  openId?: string;
  bridge: ReturnType<typeof testBridge>;
  /** where the page asked the browser to go (the authorization) */
  left: string[];
  /** how often the page's wait for the bridge ran out */
  bridgeWaits: number;
  /** how often the friend asked to pay (taps on pay, and coming back from the authorization) */
  asks: number;
  /** when (on the path's clock) the friend paid, or failed to pay, in WeChat Pay's sheet */
  sheetAt?: number;
}
type W = World<Friend>;

const ok = (data: unknown) => ({ code: 200, status: true, data });
const refusal = (code: number) => ({ code, status: false, data: null });
const view = (state: string) => ok({ state, goodsName: 'sym', amountCents: PRICE, expiresAt: 'sym' });
/** the result machine's answer (the invitation, paid or over): its state is what the walk tells apart */
const settled = (state: string) => ({ state });

const payButton = () => document.querySelector<HTMLButtonElement>('[data-action="pay"]');
const action = (name: string) => document.querySelector<HTMLButtonElement>(`[data-action="${name}"]`);
const said = () => document.querySelector('[data-friend-pay] [role="status"], [data-friend-pay] [role="alert"]')?.textContent ?? null;
const alertText = () => screen.queryByRole('alert')?.textContent ?? null;
const resultPanel = () => document.querySelector<HTMLElement>('[data-payment-result]')?.dataset.paymentResult ?? null;
const timeLeft = () => document.querySelector('[data-time-left]')?.textContent ?? null;

let friends = 0;
/** the authorize URL the page must leave for: the user-info scope, back to this page marked as authorized */
const authorizeUrl = (t: string) =>
  `/api/oauth/wechat/authorize?from=${encodeURIComponent(`/payfriend?t=${t}&step=authorized`)}&scope=userinfo`;

const world = friendPayWorld(h);
const { authorizeHere, throughAuthorization, settlePaid, withdrawByMember, hourOver, pass } = world;
const invitation = (w: W) => world.invitation(w);
/** the trades opened on the order (the friend's, and another friend's) */
const tradesOf = (w: W) =>
  h.server.deps.db
    .select()
    .from(paymentAttempts)
    .where(like(paymentAttempts.outTradeNo, `${w.orderNo}-%`));
/** another friend starts paying it on their phone (their trade open on the part) */
async function anotherFriendPaying(w: W) {
  const openId = `o_other_friend_${++friends}_${Date.now()}`;
  await issueOpenId(h.server, openId);
  await payAsFriend(h.server.deps, w.t, { openId, nickname: '另一位好友', avatar: null });
}
/** the sheet of WeChat Pay answers (the bridge comes first if it had not) */
async function sheet(w: W, outcome: 'ok' | 'cancel' | 'fail') {
  if (!w.bridge.host.WeixinJSBridge) w.bridge.ready();
  const until = Date.now() + 1500;
  while (!w.bridge.calls.some((c) => !c.answered)) {
    if (Date.now() > until) throw new Error('the page never asked the bridge to pay');
    await new Promise((r) => setTimeout(r, 5));
  }
  if (outcome !== 'cancel') w.sheetAt = w.time();
  w.bridge.calls.find((c) => !c.answered)!.answer(`get_brand_wcpay_request:${outcome}`);
}
const sheetPaid = (w: W) =>
  w.bridge.calls.some((c) => c.said === 'get_brand_wcpay_request:ok' || c.said === 'get_brand_wcpay_request:fail');
/** The friend paid (or failed to) in WeChat Pay's sheet, or came back from its cashier: only the server's result decides now. */
const paidInSheet = (w: W) => w.world === 'back from the cashier' || sheetPaid(w);
/** A payment is under way: the page opened the friend's WeChat Pay trade, or came back from its cashier; it is continued, never started over. */
const paymentStarted = (w: W) => w.world === 'back from the cashier' || sentBy(w, 'startPay').some((r) => r.answer === 200);
/** since when the page waits for WeChat Pay's result (the sheet answered, or the page opened back from the cashier) */
const resultWaitSince = (w: W) => w.sheetAt ?? 0;
/** The link the page was opened with is one the server does not know (not found, never "expired" or "paid"). */
async function unknownLink(w: W) {
  const t = new URLSearchParams(w.ui.path().split('?')[1]).get('t') ?? '';
  return (await h.server.call('GET', `/api/friend/invitation?t=${encodeURIComponent(t)}`)).body.code === 70004;
}

/** What a retry does: the page changes; a lost pay answer is asked again under its key, otherwise no payment is asked for. */
function retried(w: W, _e: unknown, before: number, seenBefore: unknown) {
  expect(`${said()} | ${resultPanel()} | ${w.left.length}`, 'a retry changes what the page shows').not.toBe(seenBefore);
  const lost = w.sent
    .slice(0, before)
    .filter((r) => r.invoke)
    .at(-1);
  const again = sentBy(w, 'startPay', before);
  if (lost?.invoke === 'startPay' && lost.answer === 'network') expect(again.map((r) => r.key)).toEqual([lost.key]);
  else expect(again).toEqual([]);
}

defineScreenPaths<Friend>(h, {
  machine: friendPayMachine,
  screen: '/payfriend',
  inputs,
  cases: {
    'xstate.done.actor.startPay': [
      { output: ok({ payment: { method: 'wechat', jsapi: {} }, amountCents: PRICE }), answer: { server: true } },
      { output: refusal(40019), answer: { server: true } },
      { output: refusal(40018), answer: { server: true, arrange: anotherFriendPaying } },
      { output: refusal(40022), answer: { server: true, arrange: withdrawByMember } },
      // the member's account closed meanwhile
      {
        output: refusal(40013),
        answer: {
          server: true,
          arrange: (w: W) =>
            h.server.deps.db
              .update(accounts)
              .set({ banned: true })
              .where(eq(accounts.id, w.member.id))
              .then(() => {}),
        },
      },
    ],
    'xstate.error.actor.startPay': [{ error: new Error('network') }],
    'xstate.done.actor.wechatPay': [
      { output: 'ok', perform: (w: W) => sheet(w, 'ok') },
      { output: 'cancel', perform: (w: W) => sheet(w, 'cancel') },
      { output: 'fail', perform: (w: W) => sheet(w, 'fail') },
    ],
    // outside the messaging app the bridge never comes: the page gives up after its wait
    'xstate.error.actor.wechatPay': [
      {
        error: new Error('no bridge'),
        perform: (w: W) => {
          w.bridgeWaits++;
          return pass(BRIDGE_READY_TIMEOUT_MS);
        },
      },
    ],
    'xstate.done.actor.loadInvitation': [
      { output: view('open'), answer: { server: true } },
      { output: view('paid'), answer: { server: true, arrange: settlePaid } },
      { output: view('expired'), answer: { server: true } },
      { output: view('withdrawn'), answer: { server: true } },
      // the invitation is gone from the server (nothing else makes a link unknown once opened)
      {
        output: refusal(70004),
        answer: {
          server: true,
          arrange: (w: W) =>
            h.server.deps.db
              .delete(friendInvitations)
              .where(eq(friendInvitations.token, w.t))
              .then(() => {}),
        },
      },
    ],
    'xstate.error.actor.loadInvitation': [{ error: new Error('network') }],
    // the result asked of the server (the child machine friendPayResult, walked in friend-pay-result.paths.test.tsx):
    // its answer once the invitation is paid or over; at once while "confirming", past the wait after its 10 s
    'xstate.done.actor.pollInvitation': [
      { output: settled('paid'), answer: { server: true, arrange: settlePaid } },
      { output: settled('expired'), answer: { server: true, arrange: hourOver } },
      { output: settled('withdrawn'), answer: { server: true, arrange: withdrawByMember } },
    ],
    'xstate.done.actor.recheckInvitation': (
      [
        ['paid', settlePaid],
        ['expired', hourOver],
        ['withdrawn', withdrawByMember],
      ] as const
    ).map(([state, arrange]) => ({
      output: settled(state),
      perform: async (w: W) => {
        await arrange(w);
        await pass(FRIEND_RECHECK_MS);
      },
    })),
  },
  offer: (e, s) => offerFor(e as never, s.context as FriendPayContext),
  project: (c: FriendPayContext) => ({ inv: c.invitation?.state ?? null, resume: c.resume, errorCode: c.errorCode ?? null }),
  requests: {
    startPay: { method: 'POST', path: /^\/api\/friend\/pay$/ },
    // the page's loader reads the invitation too: only the chart's own reads are held
    loadInvitation: { method: 'GET', path: /^\/api\/friend\/invitation$/, shared: true },
    pollInvitation: { method: 'GET', path: /^\/api\/friend\/invitation$/, shared: true },
    recheckInvitation: { method: 'GET', path: /^\/api\/friend\/invitation$/, shared: true },
  },

  async start(hh, input) {
    const name = input as WorldName;
    const order = await world.invitedOrder();
    const t = order.t;
    const bridge = testBridge();
    setBridgeHost(bridge.host);
    const left: string[] = [];
    setPageLeaver((url) => left.push(url));
    const w = { ...order, world: name, bridge, left, bridgeWaits: 0, asks: 0 } as Friend;
    let url = `/payfriend?t=${t}`;
    switch (name) {
      case 'the link, authorized earlier':
        w.openId = await authorizeHere(t);
        break;
      case 'back from the authorization':
        // the friend tapped pay, the server said 40019, the page went through the authorization and is back
        w.openId = await authorizeHere(t, 'authorized');
        w.asks = 1;
        url += '&step=authorized';
        break;
      case 'back from the authorization, refused there':
        // the provider refused (no profile): back with nothing set
        w.asks = 1;
        url += '&step=authorized';
        break;
      case 'back from the cashier': {
        // the friend paid in WeChat Pay's cashier; its result has not reached the server yet
        w.openId = await authorizeHere(t);
        const r = await hh.server.call('POST', '/api/friend/pay', { body: { t }, headers: { cookie: hh.jar.header() } });
        expect(r.status).toBe(200);
        url += '&step=result';
        break;
      }
      case 'a paid invitation':
        await anotherFriendPaying(w as W);
        await settlePaid(w as W);
        break;
      case 'an expired invitation':
        await hourOver(w as W);
        break;
      case 'a withdrawn invitation':
        await withdrawByMember(w as W);
        break;
      case 'an unknown link':
        url = `/payfriend?t=${t}x`;
        break;
    }
    const ui = await hh.open(url);
    return { ...w, ui };
  },

  events: {
    // a double tap: one payment
    'invitation.pay': async (w) => {
      w.asks++;
      await w.ui.user.dblClick(payButton()!);
    },
    'network.retry': (w) => w.ui.user.click(action('retry')!),
    'payment.retry': (w) => w.ui.user.click(action('retry')!),
    'invitation.refresh': (w) => w.ui.user.click(action('refresh')!),
    'xstate.after.untilExpiry.friendPay.ready': async (w) => {
      // the hour runs out while the page is open
      await pass(Math.max(0, (await invitation(w)).expiresAt.getTime() - h.server.clock.now().getTime()));
    },
  },

  states: {
    notFound: async (w) => {
      expect(screen.getByText('这个代付链接无效')).toBeTruthy();
      expect(await unknownLink(w), 'said only of a link the server does not know').toBe(true);
      expect(payButton()).toBe(null);
      expect(w.sent.filter((r) => r.path.startsWith('/api/friend/pay'))).toEqual([]);
    },
    loading: (w) => {
      expect(w.held.get('loadInvitation')?.map((r) => r.path)).toEqual([`/api/friend/invitation?t=${w.t}`]);
      expect(said()).toBe('正在读取代付邀请…');
      expect(payButton()).toBe(null);
      // read again when the hour ran out on the page, when the server said someone else pays it (40018)
      // or that it is over (40022), or on a retry of a read: never instead of the authorization it asked for
      expect([undefined, 40018, 40022], 'read again only when it may have changed').toContain(sentBy(w, 'startPay').at(-1)?.answer);
      expect(paymentStarted(w), 'a payment under way waits for its result').toBe(false);
    },
    loadUnreachable: async (w) => {
      const last = sentBy(w, 'loadInvitation').at(-1);
      if (last?.answer === 'network') expect(alertText()).toBe('网络无法连接');
      else {
        expect(last?.answer, 'the server no longer knows the invitation').toBe(70004);
        expect(alertText()).toBe('没有找到');
      }
      expect(action('retry')?.textContent).toBe('重试');
      expect(payButton()).toBe(null);
    },
    ready: async (w) => {
      const inv = await invitation(w);
      expect(inv.state).toBe('open');
      expect(inv.expiresAt.getTime(), 'offered only while the hour lasts').toBeGreaterThan(h.server.clock.now().getTime());
      expect(document.querySelector('[data-goods-name]')?.textContent).toBe('20次卡');
      expect(document.querySelector('[data-amount]')?.textContent).toBe(formatYuan(PRICE));
      expect(timeLeft()).toBe(countdownParts(inv.expiresAt.getTime() - h.server.clock.now().getTime()).clock);
      expect(payButton()?.disabled).toBe(false);
      expect(payButton()?.textContent).toBe(`立即代付 ${formatYuan(PRICE)}`);
      // a friend coming back from the authorization pays on without a second tap
      expect(w.world, 'back from the authorization the page pays on').not.toMatch(/^back from the authorization/);
      const last = sentBy(w, 'startPay').at(-1);
      expect(last?.answer, 'a refused payment is never left on the plain page').not.toBe(40019);
      expect(paymentStarted(w), 'a payment under way is continued in WeChat Pay, never offered from the start again').toBe(false);
    },
    paying: (w) => {
      expect(w.left, 'no trip to the authorization while paying').toEqual([]);
      expect(timeLeft()).not.toBe(null);
    },
    'paying.requesting': (w) => {
      const [p, ...more] = w.held.get('startPay') ?? [];
      expect(more).toEqual([]);
      expect(p?.body).toEqual({ t: w.t });
      expect(p?.key, 'an Idempotency-Key').toBeDefined();
      expect(sentBy(w, 'startPay').length, 'a payment is asked only when the friend asked').toBeLessThanOrEqual(
        w.asks + sentBy(w, 'startPay').filter((r) => r.answer === 'network').length,
      );
      expect(payButton()?.disabled).toBe(true);
      expect(payButton()?.textContent).toBe('正在发起支付…');
    },
    'paying.unreachable': (w) => {
      expect(sentBy(w, 'startPay').at(-1)?.answer).toBe('network');
      expect(alertText()).toBe('网络无法连接');
      expect(action('retry')).not.toBe(null);
    },
    'paying.inWechat': async (w) => {
      expect(said()).toBe('正在打开微信支付…');
      expect(sentBy(w, 'startPay').at(-1)?.answer).toBe(200);
      const trades = (await tradesOf(w)).filter((a) => a.state === 'open');
      expect(
        trades.map((a) => a.payerOpenId),
        "the friend's own trade is open",
      ).toEqual([w.openId]);
      expect(w.bridge.calls.filter((c) => !c.answered).length, 'the sheet is not answered yet').toBeLessThanOrEqual(1);
      expect(sheetPaid(w), 'the sheet opens only until the friend paid in it').toBe(false);
    },
    'paying.sheetCancelled': async (w) => {
      expect(w.bridge.calls.at(-1)?.said).toBe('get_brand_wcpay_request:cancel');
      expect(said()).toBe('您已取消支付');
      expect(action('retry')?.textContent).toBe('继续支付');
      expect((await invitation(w)).state).toBe('open');
    },
    'paying.bridgeUnavailable': (w) => {
      expect(w.bridge.host.WeixinJSBridge, 'the bridge never came').toBeFalsy();
      expect(w.bridgeWaits).toBeGreaterThan(0);
      expect(alertText()).toBe('无法打开微信支付：请在微信中打开这个链接完成代付');
    },
    authorizing: async (w) => {
      expect(sentBy(w, 'startPay').at(-1)?.answer, 'sent only when the server asked for it').toBe(40019);
      // one trip, to the user-info authorization, coming back to this page to pay on
      expect(w.left).toEqual([authorizeUrl(w.t)]);
      expect(said()).toBe('正在前往微信授权…');
      const { back, cookies } = await throughAuthorization(w.left[0]!, `o_check_${++friends}`);
      expect(back).toBe(`/payfriend?t=${w.t}&step=authorized`);
      expect(
        cookies.some((c) => c.startsWith('wxFriend=')),
        'the authorization gives the friend cookie',
      ).toBe(true);
    },
    authorizationFailed: (w) => {
      expect(w.ui.path()).toBe(`/payfriend?t=${w.t}&step=authorized`);
      expect(sentBy(w, 'startPay').at(-1)?.answer).toBe(40019);
      expect(w.left, 'never a second trip on its own').toEqual([]);
      expect(alertText()).toBe('微信授权未成功，暂时无法代付');
      expect(action('retry')?.textContent).toBe('重新授权');
    },
    takenByOther: async (w) => {
      expect(sentBy(w, 'startPay').at(-1)?.answer).toBe(40018);
      expect(alertText()).toBe('已有好友在为这笔款项付款或已付款');
      expect(action('refresh')?.textContent).toBe('刷新');
      expect(
        (await tradesOf(w)).some((a) => a.payerOpenId !== w.openId && (a.state === 'open' || a.state === 'paid')),
        "another friend's trade",
      ).toBe(true);
    },
    refused: async (w) => {
      const code = sentBy(w, 'startPay').at(-1)?.answer;
      expect(code).toBe(40013);
      expect(alertText()).toBe('该会员不存在或已被禁用');
      expect(payButton()?.textContent).toBe('重试');
      expect((await invitation(w)).state).toBe('open');
    },
    awaitingResult: (w) => {
      expect(resultPanel()).toBe('confirming');
      expect(paidInSheet(w), 'the friend paid in the sheet, or came back from the cashier').toBe(true);
      expect(payButton()).toBe(null);
      // "confirming" for the wait for the result; past it "being confirmed", never "confirming" again
      expect(w.time() - resultWaitSince(w), 'only within the wait for the result').toBeLessThan(FRIEND_RESULT_TIMEOUT_MS);
      // the server is asked at once whether it is paid (every 2 s after: friend-pay-result.paths.test.tsx)
      expect(w.held.get('pollInvitation')?.map((r) => r.path)).toEqual([`/api/friend/invitation?t=${w.t}`]);
    },
    checking: async (w) => {
      expect(resultPanel()).toBe('checking');
      expect(w.time() - resultWaitSince(w), 'only after the wait for the result').toBeGreaterThanOrEqual(FRIEND_RESULT_TIMEOUT_MS);
      expect(paidInSheet(w)).toBe(true);
      expect(payButton(), 'never offered again while it may be paid').toBe(null);
      // asked again only after a while (every 10 s: friend-pay-result.paths.test.tsx), and only while it is open
      expect(w.held.get('recheckInvitation') ?? []).toEqual([]);
      expect((await invitation(w)).state).toBe('open');
    },
    paid: async (w) => {
      expect(resultPanel()).toBe('paid');
      expect((await invitation(w)).state).toBe('paid');
      expect((await orderRow(h.server, w.orderNo)).state).toBe('fully_paid');
      expect(payButton()).toBe(null);
    },
    endedUnpaid: async (w) => {
      expect(resultPanel()).toBe('ended');
      expect(screen.getByText('本次支付未完成，没有扣款；如已扣款，款项将原路退回。')).toBeTruthy();
      const inv = await invitation(w);
      expect(inv.state === 'withdrawn' || inv.expiresAt.getTime() <= h.server.clock.now().getTime(), 'withdrawn, or its hour is over').toBe(
        true,
      );
      expect(payButton()).toBe(null);
      expect(paidInSheet(w), 'said to a friend who paid in the sheet (the money comes back), not to one who never paid').toBe(true);
    },
    over: async (w) => {
      const inv = await invitation(w);
      const expired = inv.state === 'expired' || (inv.state === 'open' && inv.expiresAt.getTime() <= h.server.clock.now().getTime());
      expect(expired || inv.state === 'withdrawn').toBe(true);
      expect(resultPanel()).toBe(expired ? 'expired' : 'withdrawn');
      expect(screen.getByText(expired ? '代付邀请已过期' : '对方已撤回代付邀请')).toBeTruthy();
      expect(payButton()).toBe(null);
      expect(timeLeft()).toBe(null);
      // a friend whose payment was under way is told that it ended and what happens to the money (endedUnpaid)
      expect(paymentStarted(w), '"nothing to pay" only to a friend who had not started paying').toBe(false);
    },
  },

  seen: (w) => `${said()} | ${resultPanel()} | ${w.left.length}`,
  effects: {
    // a double tap asks once, with a key never sent before
    'invitation.pay': (w, _e, before) => {
      const taps = sentBy(w, 'startPay', before);
      expect(taps, 'a double tap pays once').toHaveLength(1);
      expect(
        sentBy(w, 'startPay')
          .slice(0, -1)
          .map((r) => r.key),
        'a new tap, a new key',
      ).not.toContain(taps[0]!.key);
    },
    // a retry of a lost answer (network.retry) asks again under its key; a retry of the pay sheet or
    // the authorization (payment.retry) asks for no payment
    'network.retry': retried,
    'payment.retry': retried,
    'invitation.refresh': (w, _e, before) =>
      expect(
        w.sent
          .slice(before)
          .filter((r) => r.invoke)
          .map((r) => r.invoke),
      ).toEqual(['loadInvitation']),
    // the wait for the result running out asks nothing itself: the next ask is a re-check's while later
    [`xstate.after.${FRIEND_RESULT_TIMEOUT_MS}.friendPay.awaitingResult`]: (w, _e, before) =>
      expect(w.sent.slice(before).filter((r) => r.invoke)).toEqual([]),
  },
});

/** The walk, pruned to what each world's friend does and what its server answers. */
function offerFor(e: { type: string; output?: unknown }, c: FriendPayContext): boolean {
  const world = c.token;
  const answer = e.output as { code?: number; data?: { state?: string } | null } | string | undefined;
  const code = typeof answer === 'object' ? answer.code : undefined;
  const state = typeof answer === 'object' ? answer.data?.state : undefined;
  switch (e.type) {
    case 'xstate.done.actor.startPay':
      if (world === 'sym-view' || world === 'sym-back-refused') return code === 40019;
      if (world === 'sym-back') return code === 200;
      return world === 'sym-authorized' && code !== 40019;
    case 'xstate.error.actor.startPay':
      return world === 'sym-view' || world === 'sym-authorized';
    case 'xstate.done.actor.wechatPay':
      return world === 'sym-authorized' || (world === 'sym-back' && answer === 'ok');
    case 'xstate.error.actor.wechatPay':
      return world === 'sym-authorized';
    case 'xstate.after.untilExpiry.friendPay.ready':
      return world === 'sym-view';
    case 'xstate.done.actor.loadInvitation':
      // read again: after the hour ran out (expired), after 40022 (the member withdrew it, or it is gone),
      // after 40018 (the other friend still paying, or paid)
      if (c.errorCode === 40022) return state === 'withdrawn' || code === 70004;
      if (c.errorCode === 40018) return state === 'open' || state === 'paid';
      return c.errorCode === undefined && state === 'expired';
    case 'xstate.error.actor.loadInvitation':
      return c.errorCode === undefined;
    case 'xstate.done.actor.pollInvitation':
    case 'xstate.done.actor.recheckInvitation':
      // the result's answer (the invitation itself): over unpaid is walked from the cashier's world
      return world === 'sym-result' || (e.output as { state: string }).state === 'paid';
    case `xstate.after.${FRIEND_RESULT_TIMEOUT_MS}.friendPay.awaitingResult`:
      return world === 'sym-result';
    default:
      return true;
  }
}
