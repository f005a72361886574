// @vitest-environment jsdom
import { expect } from 'vitest';
import { accountClosingRequestMachine, type CloseAccountContext } from '../../machines/account-closing-request.machine';
import { askClosing, myClosing, refuseClosing } from '../server/account/closing-support';
import { newMember } from '../server/booking/support';
import { credit, newStaff } from '../server/orders/support';
import { screen, startScreenHarness } from './support/screen-harness';
import { defineScreenPaths, type World } from './support/screen-paths';

/**
 * Closing my account on /mine/closeAccount (PIPL; decision 057): the screen always says what is
 * erased and what is kept. A member with no open request asks, confirms once more (or thinks again),
 * and the request goes to the real server: refused while they hold a balance (10032, said in words),
 * or waiting for staff with a withdraw button. Withdrawn, the account stays; a withdrawal after staff
 * refused it meanwhile is refused (10036). A request refused by staff shows their reason and may be
 * asked for again. Lost requests are retried with the same key.
 */
const h = await startScreenHarness({ seed: true });
const REASON = '请先到店取回寄存物品';

interface Member {
  token: string;
  accountId: number;
  staff: { id: number; token: string };
  last?: 'ask' | 'confirm' | 'cancel' | 'withdraw' | 'retry';
}
type W = World<Member>;

const mine = {
  id: 1,
  state: 'requested',
  note: null,
  reason: null,
  createdAt: '2026-12-02T02:00:00.000Z',
  decidedAt: null,
  withdrawnAt: null,
};
const ok = (state: string) => ({ code: 200, status: true, data: { ...mine, state } });
const balanceLeft = { code: 10032, status: false, data: null };
const decided = { code: 10036, status: false, data: null };

const feedback = () => document.querySelector('[data-close-feedback]')?.textContent || null;
const askButton = () => document.querySelector<HTMLButtonElement>('[data-close-ask]');
const withdrawButton = () => document.querySelector<HTMLButtonElement>('[data-close-withdraw]');
const stored = async (w: W) =>
  ((await myClosing(h.server, w.token)).body.data as { state: string; reason: string | null } | null)?.state ?? null;
const requests = (w: W, since = 0) => w.sent.slice(since).filter((r) => r.invoke === 'ask' || r.invoke === 'withdraw');

/** The lists of what is erased and kept, on every state. */
function explains() {
  expect(document.querySelector('[data-close-erased]')?.textContent).toContain('身份证号');
  expect(document.querySelector('[data-close-kept]')?.textContent).toContain('订单、支付和余额流水');
}

/** No open request: the ask button, nothing pending or refused shown, nothing waiting on the server. */
async function idle(w: W, line: string | null) {
  explains();
  // a tap on "ask to close" always asks once more first
  expect(w.last).not.toBe('ask');
  expect(askButton()?.textContent).toBe('申请注销账号');
  expect(askButton()?.disabled).toBe(false);
  expect(withdrawButton()).toBe(null);
  expect(document.querySelector('[data-close-pending]')).toBe(null);
  expect(feedback()).toBe(line);
  expect(await stored(w)).not.toBe('requested');
}

/** Under review: said so, the withdraw button, the request waiting on the server. */
async function pending(w: W, line: string | null, server: string) {
  explains();
  expect(document.querySelector('[data-close-pending] [data-close-state]')?.textContent).toBe('注销申请审核中');
  expect(askButton()).toBe(null);
  expect(feedback()).toBe(line);
  expect(await stored(w)).toBe(server);
}

defineScreenPaths<Member>(h, {
  machine: accountClosingRequestMachine,
  screen: '/mine/closeAccount',
  inputs: {
    'never asked': { request: null },
    'a request under review': { request: mine },
    'a request refused by staff': { request: { ...mine, state: 'refused', reason: REASON } },
  },
  cases: {
    'xstate.done.actor.ask': [
      { output: ok('requested'), answer: { server: true } },
      { output: balanceLeft, answer: { server: true, arrange: (w: W) => credit(h.server, w.accountId, 100) } },
    ],
    'xstate.error.actor.ask': [{ error: new Error('network') }],
    'xstate.done.actor.withdraw': [
      { output: ok('withdrawn'), answer: { server: true } },
      {
        output: decided,
        answer: {
          server: true,
          arrange: async (w: W) => {
            const id = (await myClosing(h.server, w.token)).body.data.id as number;
            expect((await refuseClosing(h.server, w.staff.token, id, REASON)).status).toBe(200);
          },
        },
      },
    ],
    'xstate.error.actor.withdraw': [{ error: new Error('network') }],
  },
  offer: (e, s) => {
    const c = s.context as CloseAccountContext;
    // a balance left stays; a request staff refused meanwhile stays refused
    if (e.type === 'xstate.done.actor.ask') return !(c.errorCode === balanceLeft.code && (e.output as { code: number }).code === 200);
    if (e.type === 'xstate.done.actor.withdraw') return !(c.errorCode === decided.code && (e.output as { code: number }).code === 200);
    return true;
  },
  project: (c: CloseAccountContext) => ({ request: c.request?.state ?? null, errorCode: c.errorCode ?? null }),
  requests: {
    ask: { method: 'POST', path: /^\/api\/customers\/me\/closing$/ },
    withdraw: { method: 'POST', path: /^\/api\/customers\/me\/closing\/withdraw$/ },
  },

  async start(hh, input) {
    const m = await newMember(hh.server);
    const staff = await newStaff(hh.server);
    if (input !== 'never asked') {
      const r = await askClosing(hh.server, m.token);
      expect(r.status).toBe(200);
      if (input === 'a request refused by staff')
        expect((await refuseClosing(hh.server, staff.token, r.body.data.id, REASON)).status).toBe(200);
    }
    hh.jar.setClientCookie('token', m.token);
    return { token: m.token, accountId: m.id, staff, ui: await hh.open('/mine/closeAccount') };
  },

  events: {
    'closing.ask': (w) => {
      w.last = 'ask';
      return w.ui.user.click(askButton()!);
    },
    'closing.confirm': (w) => {
      w.last = 'confirm';
      return w.ui.user.click(screen.getByRole('button', { name: '确定注销' }));
    },
    'closing.cancel': (w) => {
      w.last = 'cancel';
      return w.ui.user.click(screen.getByRole('button', { name: '再想想' }));
    },
    'closing.withdraw': (w) => {
      w.last = 'withdraw';
      return w.ui.user.click(withdrawButton()!);
    },
    'network.retry': (w) => {
      w.last = 'retry';
      return w.ui.user.click(screen.getByRole('button', { name: '重试' }));
    },
  },

  states: {
    'idle.clean': (w) => idle(w, null),
    // the server refused: the balance said in words, nothing stored
    'idle.blocked': async (w) => {
      expect(requests(w).at(-1)?.answer).toBe(10032);
      await idle(w, '您的账户还有余额，请先用完或申请退款后再注销');
    },
    'idle.withdrawn': async (w) => {
      await idle(w, '已撤回注销申请，您的账号保持不变');
      expect(await stored(w)).toBe('withdrawn');
    },
    // staff's reason, and asking again allowed
    refusedByStaff: async (w) => {
      explains();
      expect(w.last).not.toBe('ask');
      expect(document.querySelector('[data-close-refused] [data-close-state]')?.textContent).toBe('注销申请未通过');
      expect(document.querySelector('[data-close-reason]')?.textContent).toBe(`原因：${REASON}`);
      expect(askButton()?.textContent).toBe('申请注销账号');
      expect(withdrawButton()).toBe(null);
      expect(await stored(w)).toBe('refused');
    },
    // asked once more, nothing sent yet
    confirming: async (w) => {
      explains();
      expect(w.last).toBe('ask');
      const dialog = screen.getByRole('alertdialog', { name: '确认注销' });
      expect(dialog.textContent).toContain('无法再登录');
      expect(askButton()).toBe(null);
      expect(await stored(w)).not.toBe('requested');
    },
    asking: async (w) => {
      expect(['confirm', 'retry']).toContain(w.last);
      expect(askButton()?.disabled).toBe(true);
      expect(askButton()?.textContent).toBe('提交中…');
      expect(w.held.get('ask')?.length).toBe(1);
    },
    askUnreachable: async (w) => {
      expect(requests(w).at(-1)?.answer).toBe('network');
      expect(feedback()).toBe('网络无法连接');
      expect(screen.getByRole('button', { name: '重试' })).toBeTruthy();
      expect(await stored(w)).not.toBe('requested');
    },
    'pending.waiting': async (w) => {
      await pending(w, null, 'requested');
      expect(withdrawButton()?.textContent).toBe('撤回注销申请');
      expect(withdrawButton()?.disabled).toBe(false);
    },
    // staff refused it meanwhile: the withdrawal's refusal said
    'pending.withdrawRefused': async (w) => {
      expect(requests(w).at(-1)?.answer).toBe(10036);
      await pending(w, '该注销申请已处理或已撤回', 'refused');
    },
    withdrawing: async (w) => {
      expect(['withdraw', 'retry']).toContain(w.last);
      expect(withdrawButton()?.disabled).toBe(true);
      expect(withdrawButton()?.textContent).toBe('提交中…');
      expect(w.held.get('withdraw')?.length).toBe(1);
    },
    withdrawUnreachable: async (w) => {
      expect(requests(w).at(-1)?.answer).toBe('network');
      await pending(w, '网络无法连接', 'requested');
      expect(screen.getByRole('button', { name: '重试' })).toBeTruthy();
    },
  },

  effects: {
    // a retry sends the same request under the same key
    'network.retry': (w, _e, before) => {
      const again = requests(w, before);
      expect(again.length).toBe(1);
      expect(again[0]!.key).toBe(requests(w).slice(0, -1).at(-1)?.key);
    },
    // a new intent has a key of its own
    'closing.confirm': (w, _e, before) => {
      const sent = requests(w, before);
      expect(sent.length).toBe(1);
      expect(
        requests(w)
          .slice(0, -1)
          .map((r) => r.key),
      ).not.toContain(sent[0]!.key);
    },
    'closing.withdraw': (w, _e, before) => {
      const sent = requests(w, before);
      expect(sent.length).toBe(1);
      expect(
        requests(w)
          .slice(0, -1)
          .map((r) => r.key),
      ).not.toContain(sent[0]!.key);
    },
    // asking and thinking again send nothing
    'closing.ask': (w, _e, before) => expect(w.sent.slice(before)).toEqual([]),
    'closing.cancel': (w, _e, before) => expect(w.sent.slice(before)).toEqual([]),
  },
});
