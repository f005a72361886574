// @vitest-environment jsdom
import { expect } from 'vitest';
import { orderCancelMachine, type OrderCancelContext } from '../../machines/order-cancel.machine';
import { balance, create, credit, newGoods, newMember, orderRow, pay } from '../server/buying/support';
import { screen, startScreenHarness } from './support/screen-harness';
import { askFirst, confirmStepEvents, defineScreenPaths, oneKeyPerIntent, sentBy, type World } from './support/screen-paths';

/**
 * Cancelling one of my unpaid orders on /orderdetail (spec §4: an unpaid order may be cancelled; what
 * it held comes back): a confirm first; the server cancels it once and gives the balance it used
 * back; a refusal says why and shows the order as it is now (here: paid on another phone meanwhile);
 * a network failure offers a retry under the same key, or closing.
 */
const h = await startScreenHarness({ seed: true });

/** the part of the price the order takes from the member's balance */
const BALANCE_USED = 5_000;

interface Member {
  token: string;
  accountId: number;
  orderNo: string;
}
type W = World<Member>;

const ok = { code: 200, status: true, data: { state: 'cancelled' } };
const notCancellable = { code: 40003, status: false, data: null };

const cancelButton = () => document.querySelector<HTMLButtonElement>('[data-action="cancel-order"]');
const payButton = () => document.querySelector<HTMLButtonElement>('[data-action="pay-order"]');
const stateLabel = () => document.querySelector('[data-order-state-label]')?.textContent ?? null;
const toastText = () => document.querySelector('[data-toast-type]')?.textContent ?? null;
const alertText = () => screen.queryByRole('alert')?.textContent ?? null;
const dialogOpen = () => screen.queryByRole('button', { name: '确定取消' }) !== null;
const stored = async (w: W) => (await orderRow(h.server, w.orderNo)).state;
/** whether a cancel of this path was refused (the order was paid on another phone) */
const paidElsewhere = (w: W) => sentBy(w, 'cancelOrder').some((r) => r.answer === notCancellable.code);

/** the order as the server has it, unpaid, with its balance still held */
async function stillUnpaid(w: W) {
  expect(await stored(w)).toBe('unpaid');
  expect(await balance(h.server, w.token), 'the balance the order uses is still held').toBe(0);
}

const asked = askFirst<Member>('cancelOrder', { ask: ['order.cancel'], confirmText: '确定取消' });

defineScreenPaths<Member>(h, {
  machine: orderCancelMachine,
  screen: '/orderdetail',
  inputs: { 'an unpaid order using part of the balance': { orderNo: 'sym' } },
  cases: {
    'xstate.done.actor.cancelOrder': [
      { output: ok, answer: { server: true } },
      {
        output: notCancellable,
        // paid by balance on another phone a moment ago
        answer: {
          server: true,
          arrange: async (w: W) => {
            await credit(h.server, w.accountId, 19_900 - BALANCE_USED);
            expect((await pay(h.server, w.token, w.orderNo, 'balance')).body.code).toBe(200);
          },
        },
      },
    ],
    'xstate.error.actor.cancelOrder': [{ error: new Error('network') }],
  },
  // once paid elsewhere the reloaded page offers no cancel: the path ends there
  offer: (e, s) => !(e.type === 'order.cancel' && (s.context as OrderCancelContext).errorCode === notCancellable.code),
  project: (c: OrderCancelContext) => ({ errorCode: c.errorCode ?? null }),
  requests: { cancelOrder: { method: 'POST', path: /^\/api\/orders\/cancel$/ } },

  async start(hh) {
    const m = await newMember(hh.server);
    const g = await newGoods(hh.server);
    await credit(hh.server, m.id, BALANCE_USED);
    const created = await create(hh.server, m.token, { goodsId: g.id, useBalance: true });
    expect(created.body.data.balanceUsedCents).toBe(BALANCE_USED);
    hh.jar.setClientCookie('token', m.token);
    const ui = await hh.open(`/orderdetail?orderNo=${created.body.data.orderNo}`);
    return { ui, token: m.token, accountId: m.id, orderNo: created.body.data.orderNo as string };
  },

  events: {
    'order.cancel': (w) => w.ui.user.click(cancelButton()!),
    ...confirmStepEvents<Member>('确定取消'),
  },

  states: {
    // "cancel order" is there exactly when the server's order can still be cancelled
    idle: async (w) => {
      expect(dialogOpen()).toBe(false);
      expect(toastText()).toBe(null);
      if (paidElsewhere(w)) {
        expect(await stored(w)).toBe('paid');
        expect(stateLabel()).toBe('已支付');
        expect(cancelButton(), 'a paid order offers no cancel').toBe(null);
        expect(alertText(), 'the refusal was closed').toBe(null);
      } else {
        await stillUnpaid(w);
        expect(stateLabel()).toBe('待支付');
        expect(cancelButton()?.textContent).toBe('取消订单');
        expect(cancelButton()?.disabled).toBe(false);
        expect(payButton(), 'the order can still be paid').not.toBe(null);
      }
    },
    confirming: async (w) => {
      expect(screen.getByText('确定取消这个订单吗？')).toBeTruthy();
      expect(dialogOpen()).toBe(true);
      expect(
        sentBy(w, 'cancelOrder').filter((r) => r.answer === undefined),
        'nothing sent before the confirm',
      ).toEqual([]);
      await stillUnpaid(w);
    },
    cancelling: async (w) => {
      expect(dialogOpen()).toBe(false);
      expect(cancelButton()?.textContent).toBe('正在取消…');
      expect(cancelButton()?.disabled).toBe(true);
      expect(w.held.get('cancelOrder')?.map((r) => r.body)).toEqual([{ orderNo: w.orderNo }]);
      await stillUnpaid(w);
    },
    cancelled: async (w) => {
      // the toast first: it hides itself after 2 s
      expect(toastText()).toBe('订单已取消');
      expect(sentBy(w, 'cancelOrder').at(-1)?.answer).toBe(200);
      expect(await stored(w)).toBe('cancelled');
      expect(await balance(h.server, w.token), 'the balance the order held is back').toBe(BALANCE_USED);
      // the page reloaded the order: cancelled, nothing to pay or cancel
      expect(stateLabel()).toBe('已取消');
      expect(cancelButton()).toBe(null);
      expect(payButton()).toBe(null);
      expect(alertText()).toBe(null);
    },
    refused: async (w) => {
      expect(sentBy(w, 'cancelOrder').at(-1)?.answer).toBe(notCancellable.code);
      expect(alertText()).toBe('订单当前状态不能取消');
      expect(screen.getByRole('button', { name: '关闭' })).toBeTruthy();
      expect(toastText(), 'nothing was cancelled').toBe(null);
      // paid on the other phone: the page shows the order as it is now
      expect(await stored(w)).toBe('paid');
      expect(stateLabel()).toBe('已支付');
      expect(cancelButton()).toBe(null);
      expect(payButton()).toBe(null);
    },
    unreachable: async (w) => {
      expect(sentBy(w, 'cancelOrder').at(-1)?.answer).toBe('network');
      expect(alertText()).toContain('网络无法连接');
      expect(screen.getByRole('button', { name: '重试' })).toBeTruthy();
      expect(cancelButton(), 'retry or close, not a new intent').toBe(null);
      expect(toastText()).toBe(null);
      await stillUnpaid(w);
      expect(stateLabel()).toBe('待支付');
    },
  },

  effects: {
    ...oneKeyPerIntent<Member>('cancelOrder', { intent: 'confirm.accept', retry: 'network.retry' }),
    ...asked,
    // "not now", or closing what was said: nothing is left on the screen to read or retry
    'confirm.dismiss': async (w, e, before, seen) => {
      await asked['confirm.dismiss']!(w, e, before, seen);
      expect(alertText(), 'closed: the message is gone').toBe(null);
    },
  },
});
