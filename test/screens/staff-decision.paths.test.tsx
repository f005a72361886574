// @vitest-environment jsdom
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { accounts } from '../../src/server/db/schema/index';
import { staffDecisionMachine, type StaffDecisionContext } from '../../machines/staff-decision.machine';
import { accountRow, askClosing, closingRow } from '../server/account/closing-support';
import { newMember } from '../server/booking/support';
import { credit, newStaff } from '../server/orders/support';
import { screen, startScreenHarness } from './support/screen-harness';
import { defineScreenPaths, oneKeyPerIntent, sentBy, type World } from './support/screen-paths';

/**
 * A staff queue's decisions, on the account-closing queue /staff/accountClosings (decision 057) against
 * the real server: a tap on 确认注销 first says what it will do (whose account, erased, not undone;
 * decision 102) and sends nothing until 确定注销, then one decision under a new key and the row leaves
 * the queue once the account is erased; 再想想 returns to the queue with nothing sent; a refusal
 * (拒绝, with its reason) moves nothing and goes at once; a refusal (the member came to hold a balance meanwhile) is said at the
 * row, which stays; a decision that did not reach the server offers retry under the same key (the
 * row is decided once) or close, and the other rows wait meanwhile.
 */
const h = await startScreenHarness({ seed: true });

interface Queue {
  /** the world's closing requests, oldest first, with their members */
  rows: Array<{ id: number; accountId: number; name: string; phone: string }>;
  /** the rows whose member got a balance to make their confirm refused */
  credited: Set<number>;
  /** the row of the last tap (its confirm asks before anything is sent) */
  tapped?: number;
}
type W = World<Queue>;

const ok = { code: 200, status: true, data: {} };
const holdsBalance = { code: 10032, status: false, data: null };
const BALANCE_MESSAGE = '您的账户还有余额，请先用完或申请退款后再注销';

const rowOf = (id: number) => document.querySelector<HTMLElement>(`[data-staff-closing="${id}"]`);
const buttonsOf = (id: number) => [...(rowOf(id)?.querySelectorAll('button') ?? [])];
const confirmOf = (id: number) => buttonsOf(id).find((b) => b.textContent === '确认注销' || b.textContent === '提交中…');
const refuseOf = (id: number) => buttonsOf(id).find((b) => b.textContent === '拒绝');
const dialog = () => screen.queryByRole('dialog');
const REFUSE_REASON = '账户仍有未完成的课程';
const alertOf = (id: number) => rowOf(id)?.querySelector('[role=alert]')?.textContent ?? null;
/** the rows a decision answered 200 was sent for, by how: confirmed (erased) or refused (kept) */
const decidedAs = (w: W, how: 'confirm' | 'refuse') =>
  new Set(
    sentBy(w, 'decide')
      .filter((r) => r.answer === 200 && r.path.endsWith(`/${how}`))
      .map((r) => (r.body as { id: number }).id),
  );
/** the rows decided (confirmed or refused): off the queue */
const confirmed = (w: W) => new Set([...decidedAs(w, 'confirm'), ...decidedAs(w, 'refuse')]);
/** the row the last decision was sent for */
const lastRow = (w: W) => (sentBy(w, 'decide').at(-1)?.body as { id: number } | undefined)?.id;
/** the rows still waiting on the queue in this world */
const waiting = (w: W) => w.rows.filter((r) => !confirmed(w).has(r.id));
/** the row the next tap decides: the oldest one still waiting whose member holds nothing */
const next = (w: W) => waiting(w).find((r) => !w.credited.has(r.id));

/** what the server stored matches the decisions answered so far: confirmed ones erased, the rest waiting */
async function storedAsDecided(w: W) {
  const done = decidedAs(w, 'confirm');
  const refused = decidedAs(w, 'refuse');
  for (const r of w.rows) {
    const stored = await closingRow(h.server, r.id);
    if (done.has(r.id)) {
      expect(stored.state).toBe('closed');
      expect((await accountRow(h.server, r.accountId)).phone).toBe(`closed-${r.accountId}`);
    } else if (refused.has(r.id)) {
      expect(stored.state).toBe('refused');
      expect(stored.reason).toBe(REFUSE_REASON);
      expect((await accountRow(h.server, r.accountId)).phone, 'a refusal erases nothing').toBe(r.phone);
    } else {
      expect(stored.state, `closing ${r.id} still waits`).toBe('requested');
    }
  }
}

/** every waiting row is listed; no confirmed one is */
function listedAsDecided(w: W) {
  for (const r of w.rows) expect(rowOf(r.id) !== null, `row ${r.id} listed`).toBe(!confirmed(w).has(r.id));
}

defineScreenPaths<Queue>(h, {
  machine: staffDecisionMachine,
  screen: '/staff/accountClosings',
  cases: {
    // a confirm asks first (it erases the account); a refusal moves nothing and goes at once
    'decision.send': [{ decision: { asks: true } }, { decision: { asks: false } }],
    'xstate.done.actor.decide': [
      { output: ok, answer: { server: true } },
      {
        output: holdsBalance,
        // the member of the row being confirmed was credited a moment ago
        answer: {
          server: true,
          arrange: async (w: W) => {
            const id = lastRow(w)!;
            w.credited.add(id);
            await credit(h.server, w.rows.find((r) => r.id === id)!.accountId, 100);
          },
        },
      },
    ],
    'xstate.error.actor.decide': [{ error: new Error('network') }],
  },
  // a refusal is never refused for a balance: only a confirm checks what the member holds
  offer: (e, s) =>
    !(e.type === 'xstate.done.actor.decide' && e.output.code === holdsBalance.code && !(s.context as StaffDecisionContext).decision?.asks),
  project: (c: StaffDecisionContext) => ({ errorCode: c.errorCode ?? null, asks: c.decision?.asks ?? null }),
  requests: { decide: { method: 'POST', path: /^\/api\/staff\/account-closings\/(confirm|refuse)$/ } },

  async start(hh) {
    const rows: Queue['rows'] = [];
    for (let i = 0; i < 4; i++) {
      const m = await newMember(hh.server);
      const name = `会员${i}号`;
      const [a] = await hh.server.deps.db.update(accounts).set({ name }).where(eq(accounts.id, m.id)).returning();
      rows.push({ id: (await askClosing(hh.server, m.token)).body.data.id as number, accountId: m.id, name, phone: a!.phone });
    }
    const staff = await newStaff(hh.server);
    hh.jar.setClientCookie('token', staff.token);
    const ui = await hh.open('/staff/accountClosings');
    await screen.findByText('注销申请');
    for (const r of rows) await expect.poll(() => rowOf(r.id) !== null).toBe(true);
    return { ui, rows, credited: new Set<number>() };
  },

  events: {
    'decision.send': async (w, e) => {
      const id = next(w)!.id;
      w.tapped = id;
      if (e.decision.asks) return w.ui.user.click(confirmOf(id)!);
      const reason = screen.getAllByRole('textbox', { name: '拒绝原因' }).find((t) => rowOf(id)?.contains(t))!;
      if (!(reason as HTMLTextAreaElement).value) await w.ui.user.type(reason, REFUSE_REASON);
      return w.ui.user.click(refuseOf(id)!);
    },
    'confirm.accept': async (w) => w.ui.user.click(await screen.findByRole('button', { name: '确定注销' })),
    'network.retry': async (w) => w.ui.user.click(screen.getByRole('button', { name: '重试' })),
    // not now in the confirm, or close after a decision that did not reach the server
    'confirm.dismiss': async (w) =>
      w.ui.user.click(screen.queryByRole('button', { name: '再想想' }) ?? screen.getByRole('button', { name: '关闭' })),
  },

  states: {
    // every decision still allowed can be tapped; nothing is said at any row; nothing is asked
    idle: async (w) => {
      expect(dialog(), 'no confirm open').toBe(null);
      listedAsDecided(w);
      for (const r of waiting(w)) {
        expect(alertOf(r.id), `nothing said at row ${r.id}`).toBe(null);
        expect(confirmOf(r.id)?.textContent).toBe('确认注销');
        expect(buttonsOf(r.id).every((b) => !b.disabled)).toBe(true);
      }
      await storedAsDecided(w);
    },
    // the confirm says whose account goes and that it cannot be undone; nothing sent; no row can be tapped
    confirming: async (w) => {
      const r = w.rows.find((x) => x.id === w.tapped)!;
      // it asks about a row still waiting: nothing was decided on it, and the queue shows every waiting row
      expect(confirmed(w).has(r.id), 'the row asked about is undecided').toBe(false);
      listedAsDecided(w);
      const asked = dialog();
      expect(asked, 'the confirm is open').not.toBe(null);
      expect(asked!.textContent).toContain(`注销${r.name}（${r.phone}）的账户？`);
      expect(asked!.textContent).toContain('不能撤回');
      expect(screen.getByRole('button', { name: '确定注销' })).toBeTruthy();
      expect(w.held.get('decide') ?? []).toEqual([]);
      for (const x of waiting(w)) expect(buttonsOf(x.id).every((b) => b.disabled)).toBe(true);
      await storedAsDecided(w);
    },
    // the tapped row says its decision is on its way; no other decision can be tapped
    deciding: async (w) => {
      const id = lastRow(w)!;
      expect(id).toBe(w.tapped);
      expect(w.held.get('decide')?.map((r) => (r.body as { id: number }).id)).toEqual([id]);
      expect(dialog(), 'the confirm closed').toBe(null);
      expect(confirmOf(id)?.textContent).toBe('提交中…');
      for (const r of waiting(w)) expect(buttonsOf(r.id).every((b) => b.disabled)).toBe(true);
      await storedAsDecided(w);
    },
    // the refusal is said at its row, which stays on the queue; the next tap is free
    refused: async (w) => {
      const id = lastRow(w)!;
      expect(sentBy(w, 'decide').at(-1)?.answer).toBe(holdsBalance.code);
      expect(alertOf(id)).toBe(BALANCE_MESSAGE);
      listedAsDecided(w);
      for (const r of waiting(w)) {
        if (r.id !== id) expect(alertOf(r.id)).toBe(null);
        expect(buttonsOf(r.id).every((b) => !b.disabled)).toBe(true);
      }
      await storedAsDecided(w);
    },
    // the row offers retry or close; the other rows wait
    unreachable: async (w) => {
      const id = lastRow(w)!;
      expect(sentBy(w, 'decide').at(-1)?.answer).toBe('network');
      expect(alertOf(id)).toContain('网络无法连接');
      expect(screen.getByRole('button', { name: '重试' })).toBeTruthy();
      for (const r of waiting(w)) {
        if (r.id !== id) expect(alertOf(r.id)).toBe(null);
        expect(confirmOf(r.id)?.disabled, 'retry or close first').toBe(true);
      }
      await storedAsDecided(w);
    },
  },

  effects: {
    ...oneKeyPerIntent<Queue>('decide', { intent: 'confirm.accept', retry: 'network.retry' }),
    // a confirm's tap asks and sends nothing; a refusal's tap sends it at once, under a new key
    'decision.send': async (w, e, before) => {
      if (e.decision.asks) {
        expect(sentBy(w, 'decide', before)).toEqual([]);
        expect(dialog(), 'the confirm is open').not.toBe(null);
      } else
        oneKeyPerIntent<Queue>('decide', { intent: 'decision.send', retry: 'network.retry' })['decision.send']!(w, e, before, undefined);
    },
    // confirmed once: one request, then the confirm is gone (a second tap has nothing to press)
    'confirm.accept': async (w, e, before) => {
      oneKeyPerIntent<Queue>('decide', { intent: 'confirm.accept', retry: 'network.retry' })['confirm.accept']!(w, e, before, undefined);
      expect(sentBy(w, 'decide', before)).toHaveLength(1);
      expect(screen.queryByRole('button', { name: '确定注销' })).toBe(null);
    },
    // not now, or closing the network message, sends nothing and leaves nothing to retry
    'confirm.dismiss': async (w, _e, before) => {
      expect(sentBy(w, 'decide', before)).toEqual([]);
      expect(dialog()).toBe(null);
      expect(screen.queryByRole('button', { name: '重试' })).toBe(null);
      expect(w.rows.map((r) => alertOf(r.id)).filter(Boolean)).toEqual([]);
    },
  },
});
