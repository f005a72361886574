// @vitest-environment jsdom
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import {
  friendPayInviteMachine,
  INVITE_WATCH_MS,
  type FriendInviteContext,
  type FriendInviteInput,
} from '../../machines/friend-pay-invite.machine';
import { countdownParts } from '../../src/domain/flash-sale';
import { formatYuan } from '../../src/domain/money';
import { friendInvitations, paymentParts } from '../../src/server/db/schema/index';
import { runDueJobs } from '../../src/server/jobs/runner';
import { payAsFriend } from '../../src/server/services/orders/friend-pay';
import { actorTimers } from '../../src/app/app-clock';
import { act } from '@testing-library/react';
import { create, credit, newGoods, newMember, orderRow, pay } from '../server/orders/support';
import { issueOpenId } from '../server/payments/support';
import { screen, startScreenHarness } from './support/screen-harness';
import { askFirst, defineScreenPaths, oneKeyPerIntent, sentBy, type World } from './support/screen-paths';

/**
 * Asking a friend to pay my order on /friendsplit?orderNo=&partSeq= (spec §4, §6, §8; decisions 021
 * and 099), on the real screen and server: opening the page first reads what happened to the latest
 * invitation for it (re-opened after the friend paid: by whom and how; after the hour: expired, with
 * invite again and pay another way; withdrawn; the friend's money given back), and with none makes
 * the invitation (or answers the one still open), shows what the friend pays, the hour counting down and the link to share or copy; while it
 * is open the page reads the order every few seconds and says who paid; the member withdraws it
 * (confirmed first), and after it was withdrawn, expired or ended elsewhere invites again. The server
 * refuses what spec §8 names (paid, cancelled, nothing to pay, a payment under way, a split order's
 * part not named, not mine); a network failure offers a retry under the same key.
 *
 * The friend (paying through WeChat Pay's stand-in), the member's other phone (withdrawing) and time
 * (the hour; the server's expiry job runs as its runner would) are played by the real server.
 */
const h = await startScreenHarness({ seed: true });
const PRICE = 19_900;

const WORLDS = {
  'an unpaid order': 'sym-unpaid',
  'a split order, its last part': 'sym-split-part',
  'an order a friend is already asked to pay': 'sym-asked',
  'a paid order': 'sym-paid',
  'a cancelled order': 'sym-cancelled',
  'an order the balance paid in full': 'sym-covered',
  'an order being paid by WeChat Pay': 'sym-paying',
  "another member's order": 'sym-not-mine',
  'a part its friend paid, re-opened': 'sym-reopen-paid',
  'an invitation past its hour, re-opened': 'sym-reopen-expired',
  'a withdrawn invitation, re-opened': 'sym-reopen-withdrawn',
  "a part whose friend's money went back, re-opened": 'sym-reopen-refunded',
} as const;
/** what the server says happened to each world's latest invitation ('none': never made) */
const LATEST: Partial<Record<(typeof WORLDS)[WorldName], string>> = {
  'sym-asked': 'open',
  'sym-not-mine': 'refused',
  'sym-reopen-paid': 'paid',
  'sym-reopen-expired': 'expired',
  'sym-reopen-withdrawn': 'withdrawn',
  'sym-reopen-refunded': 'refunded',
};
const REOPENED: readonly string[] = ['sym-reopen-paid', 'sym-reopen-expired', 'sym-reopen-withdrawn', 'sym-reopen-refunded'];
type WorldName = keyof typeof WORLDS;
/** what the server answers each world's invitation */
const REFUSED: Partial<Record<(typeof WORLDS)[WorldName], number>> = {
  'sym-paid': 40011,
  'sym-cancelled': 40014,
  'sym-covered': 40020,
  'sym-paying': 40002,
  'sym-not-mine': 70004,
};
const REFUSAL_TEXT: Record<number, string> = {
  40011: '订单已支付，请勿重复支付',
  40014: '订单已取消',
  40020: '余额已抵扣全部金额，无需好友代付',
  40002: '订单正在支付中，请等待支付结果后再请好友代付',
  70003: '这个订单已拆分，请在拆分支付页选择要请好友支付的一份',
  70004: '没有找到这个订单',
};
const inputs: Record<string, FriendInviteInput> = Object.fromEntries(Object.entries(WORLDS).map(([name, orderNo]) => [name, { orderNo }]));

interface Member {
  world: WorldName;
  token: string;
  accountId: number;
  orderNo: string;
  partSeq?: number;
  /** the link of the invitation open before the page was opened */
  askedBefore?: string;
  /** what the page put on the clipboard (the browser's, played by the test; absent: none, the field is selected) */
  clipboard?: string[];
  /** the friend who paid, as WeChat named them */
  friendName?: string;
  /** how often the member confirmed a withdrawal, and tapped "invite again" */
  accepted: number;
  again: number;
  /** the tokens of the invitations the page showed open */
  shown?: Set<string>;
}
type W = World<Member>;

const ok = (data: unknown) => ({ code: 200, status: true, data });
const refusal = (code: number) => ({ code, status: false, data: null });
const invitationOut = {
  order: { goodsName: 'sym' },
  invitation: { orderNo: 'sym', partSeq: 1, amountCents: PRICE, state: 'open', token: 'sym', link: 'sym', expiresAt: 'sym' },
};
const latestOut = (state: string) =>
  ok({
    goodsName: 'sym',
    actions: [],
    invitation: state === 'none' ? null : { ...invitationOut.invitation, state, friendName: null, paidBy: null },
  });
const detailOut = (state: string, part: string) =>
  ok({
    state,
    parts: [{ seq: 1, kind: 'share', amountCents: PRICE, state: part, paidBy: null, friendName: part === 'paid' ? 'sym' : null }],
  });

const action = (name: string) => document.querySelector<HTMLButtonElement>(`[data-action="${name}"]`);
const statusText = () => document.querySelector('[data-friend-invite] [role="status"]')?.textContent ?? null;
const alertText = () => screen.queryByRole('alert')?.textContent ?? null;
const linkField = () => document.querySelector<HTMLInputElement>('[data-invite-link]');
const timeLeft = () => document.querySelector('[data-time-left]')?.textContent ?? null;
const toastText = () => document.querySelector('[data-toast-type]')?.textContent ?? null;
const dialogOpen = () => screen.queryByRole('button', { name: '确定撤回' }) !== null;

/** the order's invitations, oldest first */
async function invitationsOf(w: W) {
  const o = await orderRow(h.server, w.orderNo);
  return h.server.deps.db.select().from(friendInvitations).where(eq(friendInvitations.orderId, o.id)).orderBy(friendInvitations.id);
}
const latest = async (w: W) => (await invitationsOf(w)).at(-1);
const linkOf = (token: string) => `${h.server.deps.config.publicUrl}/payfriend?t=${encodeURIComponent(token)}`;
async function partSeqOf(w: W, invitationPartId: number) {
  const [p] = await h.server.deps.db.select().from(paymentParts).where(eq(paymentParts.id, invitationPartId));
  return p!;
}

let friends = 0;
/** a friend pays the open invitation (WeChat Pay's stand-in, its signed notification) */
async function friendPays(w: W) {
  const inv = (await invitationsOf(w)).find((i) => i.state === 'open');
  // paid already (a moment before the member's withdrawal)
  if (!inv && (await latest(w))?.state === 'paid') return;
  const openId = `o_invite_friend_${++friends}_${Date.now()}`;
  await issueOpenId(h.server, openId);
  w.friendName = `好友${friends}`;
  const start = await payAsFriend(h.server.deps, inv!.token, { openId, nickname: w.friendName, avatar: null });
  const prepayId = (start.payment as { prepayId: string }).prepayId;
  expect((await h.server.call('POST', '/api/dev/pay/wechat/simulate', { body: { prepayId, outcome: 'pay' } })).status).toBe(200);
  expect((await invitationsOf(w)).find((i) => i.id === inv!.id)?.state).toBe('paid');
}
/** the member withdraws it on another phone */
const withdrawnElsewhere = async (w: W) =>
  expect(
    (await h.server.call('POST', '/api/orders/friend/withdraw', { token: w.token, body: { orderNo: w.orderNo, partSeq: w.partSeq } }))
      .status,
  ).toBe(200);
/** the hour passes for the page and the server; the server's runner does what is due */
async function hourOver(w: W) {
  const left = Math.max(0, (await latest(w))!.expiresAt.getTime() - h.server.clock.now().getTime());
  h.server.clock.advance(left);
  const clock = actorTimers().clock as unknown as { increment(ms: number): void };
  await act(async () => clock.increment(left));
  for (let n = await runDueJobs(h.server.deps), i = 0; n > 0 && i < 100; n = await runDueJobs(h.server.deps), i++);
}

/**
 * The invitation shown is the server's open one for the order: its link, amount and time left (or,
 * while the page reads the order again after a withdrawal came too late, the one the friend just paid).
 */
async function showsOpen(w: W) {
  const tooLate = sentBy(w, 'withdraw').at(-1)?.answer === 40022;
  const open = (await invitationsOf(w)).filter((i) => i.state === (tooLate ? 'paid' : 'open'));
  expect(open, 'one open invitation').toHaveLength(1);
  const inv = open[0]!;
  if (!tooLate) {
    expect(inv.expiresAt.getTime(), 'open only within its hour').toBeGreaterThan(h.server.clock.now().getTime());
    expect((await orderRow(h.server, w.orderNo)).state).toBe('friend_paying');
  }
  expect(linkField()?.value).toBe(linkOf(inv.token));
  (w.shown ??= new Set()).add(inv.token);
  if (w.askedBefore) expect(linkField()?.value, 'asked again while open: the same link').toBe(w.askedBefore);
  const part = await partSeqOf(w, inv.partId);
  if (w.partSeq !== undefined) expect(part.seq).toBe(w.partSeq);
  expect(document.querySelector('[data-amount]')?.textContent).toBe(formatYuan(part.amountCents));
  expect(document.querySelector('[data-goods-name]')?.textContent).toBe('20次卡');
  expect(timeLeft()).toBe(countdownParts(inv.expiresAt.getTime() - h.server.clock.now().getTime()).clock);
  expect(action('share')).not.toBe(null);
  expect(action('copy-link')).not.toBe(null);
  return inv;
}
/** the request that answered last: reading the latest invitation, or making one */
const lastAnswer = (w: W) => w.sent.filter((r) => r.invoke === 'invite' || r.invoke === 'latestInvitation').at(-1)?.answer;
/** after the invitation is over: invite again, and the way to the order */
function offersAgain(w: W) {
  expect(action('invite-again')?.textContent).toBe('重新邀请好友');
  expect(document.querySelector<HTMLAnchorElement>('[data-action="view-order"]')?.getAttribute('href')).toBe(
    `/orderdetail?orderNo=${w.orderNo}`,
  );
  expect(linkField(), 'no link to share').toBe(null);
  expect(action('withdraw')).toBe(null);
}

const keys = oneKeyPerIntent<Member>('invite', { intent: 'invite.again', retry: 'network.retry', alsoRetries: 'withdraw' });
const asked = askFirst<Member>('withdraw', { ask: ['invitation.withdraw'], confirmText: '确定撤回' });

defineScreenPaths<Member>(h, {
  machine: friendPayInviteMachine,
  screen: '/friendsplit',
  inputs,
  cases: {
    'xstate.done.actor.invite': [ok(invitationOut), ...Object.keys(REFUSAL_TEXT).map((c) => refusal(Number(c)))].map((output) => ({
      output,
      answer: { server: true },
    })),
    'xstate.error.actor.invite': [{ error: new Error('network') }],
    'xstate.done.actor.latestInvitation': [
      ...['none', 'open', 'paid', 'expired', 'withdrawn', 'refunded'].map((state) => ({
        output: latestOut(state),
        answer: { server: true },
      })),
      { output: refusal(70004), answer: { server: true } },
    ],
    'xstate.error.actor.latestInvitation': [{ error: new Error('network') }],
    'xstate.done.actor.checkOrder': [
      { output: detailOut('friend_paying', 'unpaid'), answer: { server: true } },
      { output: detailOut('fully_paid', 'paid'), answer: { server: true, arrange: friendPays } },
      { output: detailOut('unpaid', 'unpaid'), answer: { server: true, arrange: withdrawnElsewhere } },
    ],
    'xstate.error.actor.checkOrder': [{ error: new Error('network') }],
    'xstate.done.actor.withdraw': [
      { output: ok({ state: 'unpaid' }), answer: { server: true } },
      // the friend paid a moment before: nothing open to withdraw
      { output: refusal(40022), answer: { server: true, arrange: friendPays } },
    ],
    'xstate.error.actor.withdraw': [{ error: new Error('network') }],
  },
  offer: (e, s) => offerFor(e as never, s.context as FriendInviteContext),
  project: (c: FriendInviteContext) => ({ inv: c.invitation ? 'open' : null, errorCode: c.errorCode ?? null }),
  requests: {
    invite: { method: 'POST', path: /^\/api\/orders\/friend\/invite$/ },
    latestInvitation: { method: 'GET', path: /^\/api\/orders\/friend\/invitation$/ },
    checkOrder: { method: 'GET', path: /^\/api\/orders\/detail$/ },
    withdraw: { method: 'POST', path: /^\/api\/orders\/friend\/withdraw$/ },
  },

  async start(hh, input) {
    const world = input as WorldName;
    const m = await newMember(hh.server);
    await credit(hh.server, m.id, 50_000);
    const g = await newGoods(hh.server);
    const useBalance = world === 'an order the balance paid in full';
    const orderNo = (
      await create(hh.server, m.token, { goodsId: g.id, ...(useBalance ? { useBalance: true, expectedAmountToPayCents: 0 } : {}) })
    ).body.data.orderNo as string;
    const w = { world, token: m.token, accountId: m.id, orderNo, accepted: 0, again: 0 } as Member;
    const post = (path: string, body: unknown) => hh.server.call('POST', `/api/orders/${path}`, { token: m.token, body });
    switch (world) {
      case 'a split order, its last part':
        expect((await post('split', { orderNo, parts: [10_000, 9_900] })).status).toBe(200);
        expect((await post('pay', { orderNo, method: 'balance', partSeq: 2 })).status).toBe(200);
        w.partSeq = 3;
        break;
      case 'an order a friend is already asked to pay':
        w.askedBefore = (await post('friend/invite', { orderNo })).body.data.invitation.link as string;
        break;
      case 'a paid order':
        expect((await pay(hh.server, m.token, orderNo, 'balance')).status).toBe(200);
        break;
      case 'a cancelled order':
        expect((await post('cancel', { orderNo })).status).toBe(200);
        break;
      case 'an order being paid by WeChat Pay':
        expect((await pay(hh.server, m.token, orderNo, 'wechat')).status).toBe(200);
        break;
      case 'a part its friend paid, re-opened':
      case "a part whose friend's money went back, re-opened": {
        expect((await post('split', { orderNo, parts: [10_000, 9_900] })).status).toBe(200);
        w.partSeq = 2;
        expect((await post('friend/invite', { orderNo, partSeqs: [2] })).status).toBe(200);
        await friendPays({ ...w, ui: undefined } as unknown as W);
        w.friendName = `好友${friends}`;
        // undoing the split gives the friend's money back with the part
        if (world !== 'a part its friend paid, re-opened') expect((await post('unsplit', { orderNo })).status).toBe(200);
        break;
      }
      case 'an invitation past its hour, re-opened': {
        expect((await post('friend/invite', { orderNo })).status).toBe(200);
        const [inv] = await invitationsOf({ orderNo } as W);
        hh.server.clock.advance(inv!.expiresAt.getTime() - hh.server.clock.now().getTime());
        for (let n = await runDueJobs(hh.server.deps), i = 0; n > 0 && i < 100; n = await runDueJobs(hh.server.deps), i++);
        break;
      }
      case 'a withdrawn invitation, re-opened':
        expect((await post('friend/invite', { orderNo })).status).toBe(200);
        expect((await post('friend/withdraw', { orderNo })).status).toBe(200);
        break;
      case "another member's order": {
        // the page is opened by a member to whom the order does not belong
        const other = await newMember(hh.server);
        w.token = other.token;
        w.accountId = other.id;
        break;
      }
    }
    hh.jar.setClientCookie('token', w.token);
    const ui = await hh.open(`/friendsplit?orderNo=${orderNo}${w.partSeq !== undefined ? `&partSeq=${w.partSeq}` : ''}`);
    // the browser's clipboard (after the harness's user-event put its own): there in the unpaid order's
    // world; elsewhere none, and the link's field is selected instead
    const clipboard: string[] = [];
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: world === 'an unpaid order' ? { writeText: async (text: string) => void clipboard.push(text) } : undefined,
    });
    return { ...w, clipboard: world === 'an unpaid order' ? clipboard : undefined, ui };
  },

  events: {
    'link.copy': (w) => w.ui.user.click(action('copy-link')!),
    'invitation.withdraw': (w) => w.ui.user.click(action('withdraw')!),
    'confirm.accept': async (w) => {
      w.accepted++;
      await w.ui.user.click(await screen.findByRole('button', { name: '确定撤回' }));
    },
    'confirm.dismiss': async (w) =>
      w.ui.user.click(screen.queryByRole('button', { name: '再想想' }) ?? screen.getByRole('button', { name: '关闭' })),
    'network.retry': (w) => w.ui.user.click(screen.getByRole('button', { name: '重试' })),
    'invite.again': async (w) => {
      w.again++;
      await w.ui.user.click(action('invite-again')!);
    },
    'xstate.after.untilExpiry.friendPayInvite.open': (w) => hourOver(w),
  },

  states: {
    reading: (w) => {
      const [r, ...more] = w.held.get('latestInvitation') ?? [];
      expect(more).toEqual([]);
      expect(r?.path).toBe(`/api/orders/friend/invitation?orderNo=${w.orderNo}${w.partSeq !== undefined ? `&partSeq=${w.partSeq}` : ''}`);
      expect(statusText()).toBe('正在读取代付邀请…');
      expect(linkField()).toBe(null);
      // read on opening the page (and again after a lost read), before anything else is asked
      expect(
        w.sent.filter((q) => q.invoke && q.invoke !== 'latestInvitation').map((q) => q.invoke),
        'read only on opening the page',
      ).toEqual([]);
    },
    readUnreachable: (w) => {
      expect(sentBy(w, 'latestInvitation').at(-1)?.answer).toBe('network');
      expect(alertText()).toBe('网络无法连接');
      expect(screen.getByRole('button', { name: '重试' })).toBeTruthy();
    },
    creating: async (w) => {
      const [r, ...more] = w.held.get('invite') ?? [];
      expect(more).toEqual([]);
      expect(r?.body).toEqual({ orderNo: w.orderNo, ...(w.partSeq !== undefined ? { partSeqs: [w.partSeq] } : {}) });
      expect(r?.key).toBeDefined();
      // asked for on opening the page and on "invite again" (a retry repeats a lost one): never on its own
      const lost = sentBy(w, 'invite').filter((q) => q.answer === 'network').length;
      expect(sentBy(w, 'invite').length, 'an invitation only when the member asked for one').toBeLessThanOrEqual(1 + w.again + lost);
      // on opening, a link is asked for only when the order has had none (one open, paid, expired or
      // withdrawn is said as it is); after one, only on "invite again"
      if (w.again === 0) {
        expect(sentBy(w, 'latestInvitation').at(-1)?.answer, 'asked for once the read answered').toBe(200);
        expect(await invitationsOf(w), 'no invitation made for it yet').toEqual([]);
      } else expect((await latest(w))?.state, 'the last one is over').not.toBe('open');
      expect(statusText()).toBe('正在生成代付链接…');
      expect(linkField()).toBe(null);
    },
    createUnreachable: (w) => {
      expect(sentBy(w, 'invite').at(-1)?.answer).toBe('network');
      expect(alertText()).toBe('网络无法连接');
      expect(action('retry')?.textContent).toBe('重试');
    },
    refused: async (w) => {
      const code = REFUSED[WORLDS[w.world]];
      expect(lastAnswer(w)).toBe(code);
      expect(alertText()).toBe(REFUSAL_TEXT[code!]);
      expect(document.querySelector<HTMLAnchorElement>('[data-action="view-order"]')?.getAttribute('href')).toBe(
        `/orderdetail?orderNo=${w.orderNo}`,
      );
      expect(linkField()).toBe(null);
      expect(
        (await invitationsOf(w)).filter((i) => i.state === 'open'),
        'nothing to share',
      ).toEqual([]);
    },
    open: async (w) => {
      await showsOpen(w);
      expect(lastAnswer(w)).toBe(200);
    },
    'open.watching': async (w) => {
      expect(w.held.get('checkOrder') ?? []).toEqual([]);
      // a withdrawal refused because the invitation is over (40022) is followed by reading the order, never by waiting on
      expect(sentBy(w, 'withdraw').at(-1)?.answer, 'waits for the friend only while the invitation is open').not.toBe(40022);
      expect(statusText()).toBe('等待好友支付…');
      expect(action('withdraw')?.disabled).toBe(false);
    },
    'open.checking': (w) => {
      expect(w.held.get('checkOrder')?.map((r) => r.path)).toEqual([`/api/orders/detail?orderNo=${w.orderNo}`]);
      // read every few seconds: a while after the last answer (the invitation shown, the order read), or
      // at once after a withdrawal refused because the invitation is over
      const last = w.sent.filter((q) => q.invoke && q.at !== undefined).at(-1);
      if (!(last?.invoke === 'withdraw' && last.answer === 40022))
        expect(w.time() - (last?.at ?? 0), 'the order read only after waiting').toBeGreaterThanOrEqual(INVITE_WATCH_MS);
    },
    confirmingWithdraw: async (w) => {
      expect(dialogOpen()).toBe(true);
      await showsOpen(w);
    },
    withdrawing: async (w) => {
      const inv = await showsOpen(w);
      const [r, ...more] = w.held.get('withdraw') ?? [];
      expect(more).toEqual([]);
      expect(r?.body).toEqual({ orderNo: w.orderNo, partSeq: (await partSeqOf(w, inv.partId)).seq });
      expect(r?.key, 'an Idempotency-Key').toBeDefined();
      // withdrawn only when the member confirmed it (a retry repeats a lost one)
      const lost = sentBy(w, 'withdraw').filter((q) => q.answer === 'network').length;
      expect(sentBy(w, 'withdraw').length, 'a withdrawal only when the member confirmed one').toBeLessThanOrEqual(w.accepted + lost);
      expect(action('withdraw')?.disabled).toBe(true);
      expect(action('withdraw')?.textContent).toBe('正在撤回…');
    },
    withdrawUnreachable: async (w) => {
      await showsOpen(w);
      expect(sentBy(w, 'withdraw').at(-1)?.answer).toBe('network');
      expect(alertText()).toContain('网络无法连接');
      expect(screen.getByRole('button', { name: '重试' })).toBeTruthy();
    },
    withdrawn: async (w) => {
      if (w.world === 'a withdrawn invitation, re-opened') {
        // re-opened: it says so, with the goods and the amount it was for, and what the member may do now
        expect(screen.getByRole('heading', { name: '20次卡' })).toBeTruthy();
        expect(screen.getByRole('button', { name: '换个方式支付' }).getAttribute('href')).toBe(`/orderdetail?orderNo=${w.orderNo}`);
      } else expect(sentBy(w, 'withdraw').at(-1)?.answer, 'withdrawn here').toBe(200);
      expect((await latest(w))?.state).toBe('withdrawn');
      expect((await orderRow(h.server, w.orderNo)).state, 'the order waits for the member again').toBe('unpaid');
      expect(statusText()).toBe('已撤回代付邀请，好友无法再通过这个链接支付');
      offersAgain(w);
    },
    expired: async (w) => {
      expect((await latest(w))?.state).toBe('expired');
      expect(statusText()).toBe('代付邀请已过期：好友未在 1 小时内完成支付，邀请已自动取消');
      if (w.world === 'an invitation past its hour, re-opened') {
        expect(sentBy(w, 'invite'), 're-opened: nothing is sent on its own').toEqual([]);
        expect(screen.getByRole('button', { name: '换个方式支付' }).getAttribute('href')).toBe(`/orderdetail?orderNo=${w.orderNo}`);
        expect(document.querySelector('[data-amount]')?.textContent).toBe(formatYuan(PRICE));
      }
      offersAgain(w);
    },
    ended: async (w) => {
      if (w.world === "a part whose friend's money went back, re-opened") {
        expect((await latest(w))?.state, "the friend's money went back").toBe('refunded');
        expect(statusText()).toBe('代付邀请已结束');
        expect(action('invite-again'), 'the part is gone: no new link for it').toBe(null);
        expect(screen.getByRole('button', { name: '查看订单' }).getAttribute('href')).toBe(`/orderdetail?orderNo=${w.orderNo}`);
        return;
      }
      expect((await latest(w))?.state, 'withdrawn on another phone').toBe('withdrawn');
      expect(w.shown?.has((await latest(w))!.token), 'while this page showed it open').toBe(true);
      expect(
        sentBy(w, 'withdraw').filter((r) => r.answer === 200),
        'not withdrawn here',
      ).toEqual([]);
      expect(statusText()).toBe('代付邀请已结束');
      offersAgain(w);
    },
    paid: async (w) => {
      const inv = (await invitationsOf(w)).find((i) => i.state === 'paid');
      expect(inv, 'the friend paid').toBeDefined();
      expect((await partSeqOf(w, inv!.partId)).state).toBe('paid');
      expect(statusText()).toBe(`已由好友 ${w.friendName} 代付（微信支付）`);
      if (REOPENED.includes(WORLDS[w.world])) expect(sentBy(w, 'invite'), 're-opened: nothing is sent on its own').toEqual([]);
      expect(document.querySelector<HTMLAnchorElement>('[data-action="view-order"]')?.getAttribute('href')).toBe(
        `/orderdetail?orderNo=${w.orderNo}`,
      );
      expect(action('invite-again')).toBe(null);
      expect(linkField()).toBe(null);
    },
  },

  effects: {
    ...keys,
    ...asked,
    // "not now" in the confirm, or "close" after a lost withdrawal: nothing is sent, not even a read
    'confirm.dismiss': async (w, e, before, seen) => {
      await asked['confirm.dismiss']!(w, e, before, seen);
      expect(
        w.sent
          .slice(before)
          .filter((r) => r.invoke)
          .map((r) => r.invoke),
        'closing sends nothing',
      ).toEqual([]);
    },
    'confirm.accept': (w, _e, before) => {
      const [tap] = sentBy(w, 'withdraw', before);
      expect(tap?.key).toBeDefined();
      expect(
        sentBy(w, 'withdraw')
          .slice(0, -1)
          .map((r) => r.key),
      ).not.toContain(tap!.key);
    },
    'network.retry': (w, e, before, seen) => {
      const lost = w.sent
        .slice(0, before)
        .filter((r) => r.invoke)
        .at(-1);
      if (lost?.invoke === 'latestInvitation') expect(sentBy(w, 'latestInvitation', before), 'read again').toHaveLength(1);
      else if (lost?.invoke === 'withdraw')
        expect(
          sentBy(w, 'withdraw', before).map((r) => r.key),
          'the same withdrawal again',
        ).toEqual([lost.key]);
      else return keys['network.retry']!(w, e, before, seen);
    },
    'link.copy': async (w, _e, before) => {
      expect(w.sent.slice(before).filter((r) => r.invoke)).toEqual([]);
      const link = linkOf((await invitationsOf(w)).find((i) => i.state === 'open')!.token);
      if (w.clipboard) {
        expect(w.clipboard.at(-1)).toBe(link);
        expect(toastText()).toBe('链接已复制，发给好友吧');
      } else {
        // no clipboard: the link is selected for a long press
        expect(document.activeElement).toBe(linkField());
        expect(toastText()).toBe('请长按链接复制');
      }
    },
    // an answer from the server never asks the member anything: the withdraw confirm opens only on their tap
    'xstate.done.actor.invite': () => expect(dialogOpen(), 'no confirm after the invitation is made').toBe(false),
    'xstate.done.actor.checkOrder': () => expect(dialogOpen(), 'no confirm after reading the order').toBe(false),
    'xstate.error.actor.checkOrder': () => expect(dialogOpen(), 'no confirm after a failed read').toBe(false),
    'xstate.done.actor.withdraw': () => expect(dialogOpen(), 'no confirm after the withdrawal is answered').toBe(false),
    [`xstate.after.${INVITE_WATCH_MS}.friendPayInvite.open.watching`]: (w, _e, before) =>
      expect(sentBy(w, 'checkOrder', before)).toHaveLength(1),
  },
});

/** The walk, pruned to what each world's server answers and what its member does. */
function offerFor(e: { type: string; output?: { code: number; data: { state?: string } | null } }, c: FriendInviteContext): boolean {
  const world = c.orderNo as (typeof WORLDS)[WorldName];
  const code = e.output?.code;
  // a withdrawal refused because the friend had paid: the page reads the order, and finds it paid
  if (c.errorCode === 40022) return e.type === 'xstate.done.actor.checkOrder' && e.output?.data?.state === 'fully_paid';
  switch (e.type) {
    case 'xstate.done.actor.latestInvitation': {
      const want = LATEST[world] ?? 'none';
      if (want === 'refused') return code === 70004;
      return code === 200 && ((e.output?.data as { invitation: { state: string } | null } | null)?.invitation?.state ?? 'none') === want;
    }
    case 'xstate.error.actor.latestInvitation':
      return world === 'sym-unpaid';
    case 'invite.again':
      // the part is gone with the undone split: nothing to invite for, the order leads on
      return world !== 'sym-reopen-refunded';
    case 'xstate.done.actor.invite':
      return code === (REFUSED[world] ?? 200);
    case 'xstate.error.actor.invite':
      return world === 'sym-unpaid';
    case 'xstate.done.actor.checkOrder':
      // a split order's part: its friend pays (the order still waits for the other part)
      if (world === 'sym-split-part') return e.output?.data?.state === 'fully_paid';
      return world === 'sym-unpaid';
    case 'xstate.error.actor.checkOrder':
    case 'xstate.after.untilExpiry.friendPayInvite.open':
    case 'invitation.withdraw':
      return world === 'sym-unpaid';
    case `xstate.after.${INVITE_WATCH_MS}.friendPayInvite.open.watching`:
      return world === 'sym-unpaid' || world === 'sym-split-part';
    case 'link.copy':
      return world === 'sym-unpaid' || world === 'sym-split-part';
    default:
      return true;
  }
}
