// @vitest-environment jsdom
import { act, fireEvent } from '@testing-library/react';
import { and, desc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { refundRequestMachine, type CardRefundContext } from '../../machines/card-refund.machine';
import { cardRefunds, orders, payments, refunds } from '../../src/server/db/schema/index';
import { book, cardRow, newClass } from '../server/booking/support';
import { boughtCard, staffRefund } from '../server/cards/refund-support';
import { newStaff } from '../server/orders/support';
import { dev, runRefundJobs } from '../server/orders/refund-support';
import { screen, startScreenHarness, within } from './support/screen-harness';
import { defineScreenPaths, sentBy, type World } from './support/screen-paths';

/**
 * Asking for a card's refund on /mine/refund and following the request (spec §4 refund, §5 "refund
 * requires agreeing to the refund policy"; decisions 030, 031), for a card bought for ¥199 with WeChat
 * Pay and never used (all of it comes back): no request yet, so the quote is read and the policy shown
 * with the amount; the member agrees and asks; the request waits for staff (cancel, or look again);
 * staff approve (the WeChat Pay stand-in pays it back at once, or later: refund running, or refuses it:
 * refund failed with its words), or reject with a reason (ask again). A class booked with the card on
 * another phone refuses the quote or the request (30043); staff deciding while the member cancels
 * refuses the cancel (30044). Each request may be lost on the network: a retry sends it again, the
 * same intent under the same key.
 */
const h = await startScreenHarness({ seed: true });
const PAID = 19_900;
const REASON = '会员卡已赠送他人使用';

interface Member {
  token: string;
  cardId: number;
  orderId: number;
  outTradeNo: string;
  staffToken: string;
  /** how many requests had been sent when the member last ticked the policy's box (-1: never) */
  ticked: number;
  /** how many requests had been sent when the member last closed a lost request, or looked again */
  closedAt: number;
  refreshedAt: number;
  /** the reads of my request the member caused: opening the page, "refresh", "retry" after a lost read */
  readAsks: number;
  /** the requests and cancels the member sent: taps on "ask" / "cancel", retries of a lost one */
  submitAsks: number;
  /** the card's name as the server has it (the confirm names it) */
  cardName: string;
  cancelAsks: number;
  /** the member's taps on "ask for the refund", and their answers to its confirm (ask or not now) */
  submitTaps: number;
  confirmAnswers: number;
}
type W = World<Member>;

type Tag =
  | 'none'
  | 'stillPending'
  | 'approveProcessing'
  | 'approveDone'
  | 'approveRefused'
  | 'reject'
  | 'notified'
  | 'stillFailed'
  | 'decidedMeanwhile';
const mine = (state: string, orderState: string) => ({ id: 1, state, orderState });
const QUOTE = { code: 200, status: true, data: { cardId: 1, paidCents: PAID, leftPerMille: 1000, feePercent: 0, amountCents: PAID } };
const bookingsAhead = { code: 30043, status: false, data: null };
const decided = { code: 30044, status: false, data: null };

const button = (action: string) => document.querySelector<HTMLButtonElement>(`[data-action="${action}"]`);
const alertText = () => screen.queryByRole('alert')?.textContent ?? null;
const text = (sel: string) => document.querySelector(sel)?.textContent ?? null;
const requestsOf = (w: W) =>
  h.server.deps.db.select().from(cardRefunds).where(eq(cardRefunds.cardId, w.cardId)).orderBy(desc(cardRefunds.id));
const orderState = async (w: W) =>
  (await h.server.deps.db.select({ state: orders.state }).from(orders).where(eq(orders.id, w.orderId)))[0]!.state;
const refundOf = async (w: W) =>
  (
    await h.server.deps.db
      .select({ id: refunds.id, outRefundNo: refunds.outRefundNo, failureMessage: refunds.failureMessage })
      .from(refunds)
      .innerJoin(payments, eq(payments.id, refunds.paymentId))
      .where(and(eq(payments.orderId, w.orderId), eq(refunds.cause, 'order_refund')))
      .orderBy(desc(refunds.id))
  )[0];
const pendingId = async (w: W) => (await requestsOf(w)).find((r) => r.state === 'pending')!.id;
/** the last request of one of these invokes lost on the network */
const lastLost = (w: W, until = w.sent.length) =>
  w.sent
    .slice(0, until)
    .filter((r) => r.answer === 'network')
    .at(-1);
/** the cancel refused since the member last looked again (its words stay until then) */
/** the box ticked since the last quote came (a new quote is a new policy to agree to) */
const agreed = (w: W) => w.ticked > w.sent.lastIndexOf(sentBy(w, 'quoteRefund').at(-1)!);
const cancelRefusedSince = (w: W) => sentBy(w, 'cancelRefund', w.refreshedAt).some((r) => r.answer === decided.code);

const approve = (w: W) => async () =>
  expect((await staffRefund(h.server, w.staffToken, 'approve', await pendingId(w))).body.code).toBe(200);
const arrangements: Record<Tag, ((w: W) => Promise<void>) | undefined> = {
  none: undefined,
  stillPending: undefined,
  approveDone: (w) => approve(w)(),
  approveProcessing: async (w) => {
    await dev(h.server, 'wechat', '/refunds/arrange', { outTradeNo: w.outTradeNo, status: 'processing', deliveries: 0 });
    await approve(w)();
  },
  approveRefused: async (w) => {
    await dev(h.server, 'wechat', '/refunds/arrange', { outTradeNo: w.outTradeNo, refuse: 'NOT_ENOUGH' });
    await approve(w)();
  },
  reject: async (w) => expect((await staffRefund(h.server, w.staffToken, 'reject', await pendingId(w), REASON)).body.code).toBe(200),
  // WeChat Pay pays the processing refund back and says so
  notified: async (w) => {
    const rf = (await refundOf(w))!;
    expect((await dev(h.server, 'wechat', '/refunds/simulate', { outRefundNo: rf.outRefundNo, outcome: 'success' })).status).toBe(200);
    for (let i = 0; i < 5 && (await orderState(w)) !== 'refunded'; i++) {
      h.server.clock.advance(10 * 60_000);
      await runRefundJobs(h.server, rf.id);
    }
  },
  stillFailed: undefined,
  decidedMeanwhile: undefined,
};
const loaded = (tag: Tag, output: ReturnType<typeof mine> | null) => ({
  tag,
  output,
  answer: { server: true as const, ...(arrangements[tag] ? { arrange: arrangements[tag] } : {}) },
});

async function noRequestWaiting(w: W) {
  expect((await requestsOf(w)).filter((r) => r.state === 'pending')).toEqual([]);
}

defineScreenPaths<Member>(h, {
  machine: refundRequestMachine,
  screen: '/mine/refund',
  inputs: { 'a card paid by WeChat Pay, never used': { cardId: 1 } },
  cases: {
    'xstate.done.actor.loadRequest': [
      loaded('none', null),
      loaded('stillPending', mine('pending', 'paid')),
      loaded('approveProcessing', mine('approved', 'refunding')),
      loaded('approveDone', mine('approved', 'refunded')),
      loaded('approveRefused', mine('approved', 'refund_failed')),
      loaded('reject', mine('rejected', 'paid')),
      loaded('notified', mine('approved', 'refunded')),
      loaded('stillFailed', mine('approved', 'refund_failed')),
      loaded('decidedMeanwhile', mine('approved', 'refunded')),
    ],
    'xstate.error.actor.loadRequest': [{ error: new Error('network') }],
    'xstate.done.actor.quoteRefund': [
      { output: QUOTE, answer: { server: true } },
      {
        output: bookingsAhead,
        // a class booked with the card on another phone before the page asked
        answer: { server: true, arrange: async (w: W) => void (await book(h.server, w.token, (await newClass(h.server)).id, w.cardId)) },
      },
    ],
    'xstate.error.actor.quoteRefund': [{ error: new Error('network') }],
    'xstate.done.actor.requestRefund': [
      { output: { code: 200, status: true, data: mine('pending', 'paid') }, answer: { server: true } },
      {
        output: bookingsAhead,
        // a class booked with the card on another phone while the request is on its way
        answer: { server: true, arrange: async (w: W) => void (await book(h.server, w.token, (await newClass(h.server)).id, w.cardId)) },
      },
    ],
    'xstate.error.actor.requestRefund': [{ error: new Error('network') }],
    'xstate.done.actor.cancelRefund': [
      { output: { code: 200, status: true, data: mine('cancelled', 'paid') }, answer: { server: true } },
      // staff approved it (paid back at once) while the cancel is on its way
      { output: decided, answer: { server: true, arrange: (w: W) => approve(w)() } },
    ],
    'xstate.error.actor.cancelRefund': [{ error: new Error('network') }],
  },
  offer: (e, s) => {
    const c = s.context as CardRefundContext;
    const prev = c.request;
    if (e.type === 'xstate.done.actor.loadRequest') {
      const tag = (e as unknown as { tag: Tag }).tag;
      if (prev === undefined) return tag === 'none';
      if (c.errorCode === decided.code) return tag === 'decidedMeanwhile';
      if (prev?.state === 'pending') return ['stillPending', 'approveProcessing', 'approveDone', 'approveRefused', 'reject'].includes(tag);
      if (prev?.state === 'approved' && prev.orderState === 'refunding') return tag === 'notified';
      if (prev?.state === 'approved' && prev.orderState === 'refund_failed') return tag === 'stillFailed';
      return false;
    }
    // the network lost only the first read of each
    if (e.type === 'xstate.error.actor.loadRequest') return prev === undefined;
    if (e.type === 'xstate.error.actor.quoteRefund') return prev === null;
    // a class booked meanwhile only before the first quote
    if (e.type === 'xstate.done.actor.quoteRefund')
      return (e as unknown as { output: { code: number } }).output.code === 200 || prev === null;
    // the box ticked once, on the first policy; a refusal is read and the path ends there
    if (e.type === 'policy.toggle') return !c.agreed && prev === null;
    if (c.errorCode !== undefined && s.matches('policy')) return false;
    return true;
  },
  project: (c: CardRefundContext) => ({
    request: c.request === undefined ? 'unread' : c.request === null ? null : `${c.request.state}/${c.request.orderState}`,
    quote: c.quoteCode ?? (c.quote ? 'quoted' : null),
    agreed: c.agreed,
    errorCode: c.errorCode ?? null,
  }),
  requests: {
    loadRequest: { method: 'GET', path: /^\/api\/customers\/cards\/refund\/mine$/ },
    quoteRefund: { method: 'GET', path: /^\/api\/customers\/cards\/refund\/quote$/ },
    requestRefund: { method: 'POST', path: /^\/api\/customers\/cards\/refund$/ },
    cancelRefund: { method: 'POST', path: /^\/api\/customers\/cards\/refund\/cancel$/ },
  },

  async start(hh) {
    const { m, card, order, outTradeNo } = await boughtCard(hh.server, 'wechat');
    const staff = await newStaff(hh.server);
    hh.jar.setClientCookie('token', m.token);
    const ui = await hh.open(`/mine/refund?id=${card.id}`);
    return {
      ui,
      token: m.token,
      cardId: card.id,
      orderId: order.id,
      outTradeNo,
      staffToken: staff.token,
      ticked: -1,
      closedAt: -1,
      refreshedAt: 0,
      readAsks: 1,
      submitAsks: 0,
      cardName: (await cardRow(hh.server, card.id)).name,
      cancelAsks: 0,
      submitTaps: 0,
      confirmAnswers: 0,
    };
  },

  events: {
    'policy.toggle': async (w) => {
      w.ticked = w.sent.length;
      await act(async () => {
        fireEvent.click(document.querySelector('input[name="agreed"]')!);
      });
    },
    'refund.submit': async (w) => {
      w.submitTaps += 1;
      await w.ui.user.click(button('refund-submit')!);
    },
    'confirm.accept': async (w) => {
      w.submitAsks += 1;
      w.confirmAnswers += 1;
      await w.ui.user.click(await screen.findByRole('button', { name: '确定申请退款' }));
    },
    'confirm.dismiss': async (w) => {
      w.confirmAnswers += 1;
      await w.ui.user.click(await screen.findByRole('button', { name: '再想想' }));
    },
    'refund.cancel': async (w) => {
      w.cancelAsks += 1;
      await w.ui.user.click(button('refund-cancel')!);
    },
    'refund.again': (w) => w.ui.user.click(button('refund-again')!),
    'refund.refresh': async (w) => {
      w.refreshedAt = w.sent.length;
      w.readAsks += 1;
      await w.ui.user.click(button('refund-refresh')!);
    },
    'network.retry': async (w) => {
      const lost = lastLost(w)?.invoke ?? '';
      if (['loadRequest', 'quoteRefund'].includes(lost)) w.readAsks += 1;
      if (lost === 'requestRefund') w.submitAsks += 1;
      if (lost === 'cancelRefund') w.cancelAsks += 1;
      await w.ui.user.click(screen.getByRole('button', { name: '重试' }));
    },
    'form.close': async (w) => {
      w.closedAt = w.sent.length;
      await w.ui.user.click(screen.getByRole('button', { name: '关闭' }));
    },
  },

  states: {
    // reading my latest request on this card
    loading: async (w) => {
      expect(text('[data-refund-loading]')).toBe('加载中');
      // read when the member asked, and again after a cancel came too late; never on its own
      const tooLate = sentBy(w, 'cancelRefund').filter((r) => r.answer === decided.code).length;
      expect(sentBy(w, 'loadRequest').length, 'the reads of my request').toBe(w.readAsks + tooLate);
      expect(w.held.get('loadRequest')?.map((r) => r.path)).toEqual([`/api/customers/cards/refund/mine?cardId=${w.cardId}`]);
      expect(button('refund-submit')).toBe(null);
    },
    // no request waiting: the quote is asked for this card
    quoting: async (w) => {
      expect(text('[data-refund-loading]')).toBe('加载中');
      // only once my request was read (none, cancelled or rejected): a lost read is not "no request"
      expect(sentBy(w, 'loadRequest').at(-1)?.answer, 'my request read').toBe(200);
      expect(w.held.get('quoteRefund')?.map((r) => r.path)).toEqual([`/api/customers/cards/refund/quote?cardId=${w.cardId}`]);
      await noRequestWaiting(w);
    },
    readUnreachable: async (w) => {
      expect(['loadRequest', 'quoteRefund']).toContain(lastLost(w)?.invoke);
      expect(alertText()).toContain('网络无法连接');
      expect(screen.getByRole('button', { name: '重试' })).toBeTruthy();
      expect(document.querySelector('[data-refund-policy]')).toBe(null);
    },
    // the policy and the amount it gives back; "ask" only once agreed; nothing asked yet
    policy: async (w) => {
      expect(document.querySelector('[data-refund-policy]')).not.toBe(null);
      // the amount is the server's for now: read again after a cancelled request
      const cancelled = w.sent.findLastIndex((r) => r.invoke === 'cancelRefund' && r.answer === 200);
      expect(
        w.sent.findLastIndex((r) => r.invoke === 'quoteRefund' && r.answer === 200),
        'the quote read since the cancel',
      ).toBeGreaterThan(cancelled);
      expect(text('[data-refund-quote]')).toBe('可退基数：¥199剩余比例：100%手续费：0%可退金额：¥199退回微信支付¥199');
      expect(document.querySelector<HTMLInputElement>('input[name="agreed"]')?.checked).toBe(agreed(w));
      expect(button('refund-submit')?.textContent).toBe('申请退款');
      expect(button('refund-submit')?.disabled, 'asked only with the policy agreed').toBe(!agreed(w));
      expect(screen.queryByRole('button', { name: '确定申请退款' }), 'no confirm until the member asks').toBe(null);
      const refused = sentBy(w, 'requestRefund').at(-1)?.answer === bookingsAhead.code;
      expect(alertText()).toBe(refused ? '这张会员卡还有已预约或正在上的课程，请先取消预约' : null);
      await noRequestWaiting(w);
    },
    // asked once before anything is sent: the card and the amount back named
    confirmingRefund: async (w) => {
      expect(screen.getByText(`确定为「${w.cardName}」申请退款吗？可退¥199，审核通过后会员卡作废，款项退回：`)).toBeTruthy();
      // and where it goes: the card was paid by WeChat Pay alone
      const dialog = screen.getByRole('dialog');
      expect(within(dialog).getByRole('list', { name: '退回去向' }).textContent).toBe('退回微信支付¥199');
      expect(screen.getByRole('button', { name: '确定申请退款' })).toBeTruthy();
      // open only after a tap on "ask for the refund" the member has not answered yet
      expect(w.submitTaps, "the confirm follows the member's tap on ask").toBe(w.confirmAnswers + 1);
      expect(sentBy(w, 'requestRefund').length, 'nothing asked before the member confirms').toBe(w.submitAsks);
      expect(w.held.get('requestRefund') ?? []).toEqual([]);
      await noRequestWaiting(w);
    },
    submitting: async (w) => {
      expect(screen.queryByRole('button', { name: '确定申请退款' }), 'asked once').toBe(null);
      expect(sentBy(w, 'requestRefund').length, 'asked only when the member did').toBe(w.submitAsks);
      expect(button('refund-submit')?.textContent).toBe('正在提交…');
      expect(button('refund-submit')?.disabled).toBe(true);
      expect(w.held.get('requestRefund')?.map((r) => r.body)).toEqual([{ cardId: w.cardId, agreed: true }]);
      await noRequestWaiting(w);
    },
    submitUnreachable: async (w) => {
      expect(sentBy(w, 'requestRefund').at(-1)?.answer).toBe('network');
      expect(alertText()).toContain('网络无法连接');
      expect(w.closedAt, 'said until the member closes it').toBeLessThan(w.sent.lastIndexOf(sentBy(w, 'requestRefund').at(-1)!));
      await noRequestWaiting(w);
    },
    // asked once: waiting for staff with the amount quoted; cancel offered
    waiting: async (w) => {
      expect(text('[data-refund-state]')).toBe('待门店审核');
      expect(document.querySelector('[data-refund]')?.textContent).toContain('申请时显示的可退金额：¥199');
      expect(button('refund-cancel')?.textContent).toBe('取消申请');
      expect(button('refund-cancel')?.disabled).toBe(false);
      expect(button('refund-refresh')).not.toBe(null);
      expect(alertText()).toBe(null);
      const rows = await requestsOf(w);
      expect(rows.filter((r) => r.state === 'pending').map((r) => r.quotedCents)).toEqual([PAID]);
      expect(await orderState(w)).toBe('paid');
    },
    cancelling: async (w) => {
      expect(sentBy(w, 'cancelRefund').length, 'cancelled only when the member did').toBe(w.cancelAsks);
      expect(button('refund-cancel')?.textContent).toBe('正在取消…');
      expect(button('refund-cancel')?.disabled).toBe(true);
      expect(w.held.get('cancelRefund')?.map((r) => r.body)).toEqual([{ id: (await requestsOf(w))[0]!.id }]);
    },
    cancelUnreachable: async (w) => {
      expect(sentBy(w, 'cancelRefund').at(-1)?.answer).toBe('network');
      expect(alertText()).toContain('网络无法连接');
      expect((await requestsOf(w))[0]?.state).toBe('pending');
    },
    // approved: the card ended, the money on its way back (WeChat Pay still processing)
    running: async (w) => {
      expect(text('[data-refund-state]')).toBe('已通过，退款中');
      expect(text('[data-refund-given]')).toBe('退款金额：¥199');
      expect(button('refund-cancel')).toBe(null);
      expect(button('refund-refresh')).not.toBe(null);
      expect((await requestsOf(w))[0]?.state).toBe('approved');
      expect(await orderState(w)).toBe('refunding');
      expect((await cardRow(h.server, w.cardId)).status).toBe('invalid');
    },
    // the money is back: refund done
    done: async (w) => {
      expect(text('[data-refund-state]')).toBe('退款完成');
      expect(text('[data-refund-given]')).toBe('退款金额：¥199');
      expect(button('refund-cancel')).toBe(null);
      expect(button('refund-refresh')).toBe(null);
      expect((await requestsOf(w))[0]?.state).toBe('approved');
      expect(await orderState(w)).toBe('refunded');
      expect((await cardRow(h.server, w.cardId)).status).toBe('invalid');
      // a cancel that came too late is said
      expect(alertText()).toBe(cancelRefusedSince(w) ? '该退款申请当前状态不能这样处理' : null);
    },
    // WeChat Pay refused to pay it back: its words, and the club will handle it
    failed: async (w) => {
      const rf = await refundOf(w);
      expect(rf?.failureMessage).toBeTruthy();
      expect(text('[data-refund-state]')).toBe('退款失败');
      expect(text('[data-refund-failure]')).toBe(`退款未能完成：${rf!.failureMessage}。门店会尽快处理，如有疑问请联系门店。`);
      expect(button('refund-refresh')).not.toBe(null);
      expect(await orderState(w)).toBe('refund_failed');
    },
    rejected: async (w) => {
      expect(text('[data-refund-state]')).toBe('未通过');
      expect(text('[data-refund-reason]')).toBe(`未通过原因：${REASON}`);
      expect(button('refund-again')?.textContent).toBe('重新申请退款');
      expect(button('refund-cancel')).toBe(null);
      expect((await requestsOf(w))[0]?.state).toBe('rejected');
      expect((await cardRow(h.server, w.cardId)).status).toBe('inactive');
    },
    // the server refuses a refund now: its reason, nothing to ask
    unavailable: async (w) => {
      expect(sentBy(w, 'quoteRefund').at(-1)?.answer).toBe(bookingsAhead.code);
      expect(text('[data-refund-unavailable]')).toBe('暂时不能退款：这张会员卡还有已预约或正在上的课程，请先取消预约');
      expect(button('refund-submit')).toBe(null);
      expect(await requestsOf(w)).toEqual([]);
    },
  },

  effects: {
    // tapping "ask" only opens the confirm; accepting it is the intent
    'refund.submit': (w, _e, before) => expect(w.sent.length).toBe(before),
    'confirm.dismiss': (w, _e, before) => {
      expect(w.sent.length).toBe(before);
      expect(screen.queryByRole('button', { name: '确定申请退款' })).toBe(null);
    },
    'confirm.accept': (w, _e, before) => {
      const [tap] = sentBy(w, 'requestRefund', before);
      expect(tap?.key, 'the request carries an Idempotency-Key').toBeDefined();
      expect(
        sentBy(w, 'requestRefund')
          .slice(0, -1)
          .map((r) => r.key),
        'a new intent, a new key',
      ).not.toContain(tap!.key);
    },
    'refund.cancel': (w, _e, before) => {
      const [tap] = sentBy(w, 'cancelRefund', before);
      expect(tap?.key, 'the cancel carries an Idempotency-Key').toBeDefined();
      expect(
        sentBy(w, 'cancelRefund')
          .slice(0, -1)
          .map((r) => r.key),
        'a new intent, a new key',
      ).not.toContain(tap!.key);
    },
    'network.retry': (w, _e, before) => {
      const lost = lastLost(w, before)!;
      const again = w.sent.slice(before).filter((r) => r.invoke);
      // a lost read starts from my request again; a lost request or cancel is sent again with its key
      expect(again[0]?.invoke, 'the request that was lost is sent again').toBe(lost.invoke === 'quoteRefund' ? 'loadRequest' : lost.invoke);
      if (lost.invoke === 'requestRefund' || lost.invoke === 'cancelRefund')
        expect(again[0]!.key, 'the same intent: the same key').toBe(lost.key);
    },
    'policy.toggle': (w, _e, before) => expect(w.sent.length).toBe(before),
    'form.close': (w, _e, before) => {
      expect(w.sent.length).toBe(before);
      expect(alertText()).toBe(null);
    },
    'refund.refresh': (w, _e, before) => expect(sentBy(w, 'loadRequest', before)).toHaveLength(1),
    'refund.again': (w, _e, before) => expect(sentBy(w, 'quoteRefund', before)).toHaveLength(1),
  },
});
