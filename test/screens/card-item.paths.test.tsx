// @vitest-environment jsdom
import { expect } from 'vitest';
import { cardItemMachine, type CardItemContext } from '../../machines/card-item.machine';
import { cardRow, newCard, newMember } from '../server/booking/support';
import { screen, startScreenHarness } from './support/screen-harness';
import { askFirst, confirmStepEvents, defineScreenPaths, oneKeyPerIntent, type World } from './support/screen-paths';

/**
 * Activating one of my cards by hand on /mine/carddetail (spec §4 operation activate): offered only
 * for a card not yet in use; a confirm says the validity starts now; the server starts it once; a
 * refusal says why (here: the card was activated on another phone meanwhile); a network failure
 * offers a retry under the same key, or closing.
 */
const h = await startScreenHarness({ seed: true });

interface Member {
  token: string;
  cardId: number;
  /** the card's status when the page opened */
  opened: 'inactive' | 'in_use';
}
type W = World<Member>;

const ok = { code: 200, status: true, data: { status: 'in_use' } };
const forbids = { code: 30001, status: false, data: null };

const activations = (w: W, since = 0) => w.sent.slice(since).filter((r) => r.invoke === 'activateCard');
const activateButton = () => document.querySelector<HTMLButtonElement>('[data-action="activate"]');
const dialogButton = (name: string) => screen.queryByRole('button', { name });
const stored = async (w: W) => (await cardRow(h.server, w.cardId)).status;
const toastText = () => document.querySelector('[data-toast-type]')?.textContent ?? null;

defineScreenPaths<Member>(h, {
  machine: cardItemMachine,
  screen: '/mine/carddetail',
  inputs: { 'a card not activated yet': { cardId: 1, status: 'inactive' }, 'a card in use': { cardId: 1, status: 'in_use' } },
  cases: {
    'xstate.done.actor.activateCard': [
      { output: ok, answer: { server: true } },
      {
        output: forbids,
        // activated on another phone a moment ago
        answer: {
          server: true,
          arrange: (w: W) =>
            h.server.call('POST', '/api/customers/cards/activate', { token: w.token, body: { id: w.cardId } }).then(() => {}),
        },
      },
    ],
    'xstate.error.actor.activateCard': [{ error: new Error('network') }],
  },
  // once activated elsewhere it stays activated: the reloaded page offers nothing more
  offer: (e, s) => {
    const refused = (s.context as CardItemContext).errorCode === forbids.code;
    if (e.type === 'card.activate') return !refused;
    return !(e.type === 'xstate.done.actor.activateCard' && (e.output as typeof ok).code === 200 && refused);
  },
  project: (c: CardItemContext) => ({ status: c.status, errorCode: c.errorCode ?? null }),
  requests: { activateCard: { method: 'POST', path: /^\/api\/customers\/cards\/activate$/ } },

  async start(hh, input) {
    const m = await newMember(hh.server);
    const opened = input === 'a card in use' ? 'in_use' : 'inactive';
    const card = await newCard(hh.server, m.id, opened === 'inactive' ? { status: 'inactive', validFrom: null, validUntil: null } : {});
    hh.jar.setClientCookie('token', m.token);
    const ui = await hh.open(`/mine/carddetail?id=${card.id}`);
    return { ui, token: m.token, cardId: card.id, opened };
  },

  events: {
    'card.activate': (w) => w.ui.user.click(activateButton()!),
    ...confirmStepEvents<Member>('确定激活'),
  },

  states: {
    // the button is there exactly when the server's card can still be activated
    idle: async (w) => {
      const status = await stored(w);
      const elsewhere = activations(w).some((r) => r.answer === forbids.code);
      expect(status, 'nothing here activated it').toBe(w.opened === 'inactive' && !elsewhere ? 'inactive' : 'in_use');
      expect(dialogButton('确定激活')).toBe(null);
      if (status === 'in_use') expect(activateButton(), 'a card in use offers no activation').toBe(null);
      else expect(activateButton()?.textContent).toBe('立即激活');
      // just refused (activated on another phone): the reason is said, and the card is the server's now
      if (activations(w).at(-1)?.answer === forbids.code) expect(toastText()).toBe('会员卡当前状态不能进行此操作');
    },
    'activating.confirming': async (w) => {
      expect(screen.getByText('激活后立即开始计算有效期，确定现在激活吗？')).toBeTruthy();
      expect(dialogButton('确定激活')).toBeTruthy();
      expect(await stored(w)).toBe('inactive');
    },
    'activating.submitting': async (w) => {
      expect(activateButton()?.textContent).toBe('正在激活…');
      expect(activateButton()?.disabled).toBe(true);
      expect(w.held.get('activateCard')?.map((r) => r.body)).toEqual([{ id: w.cardId }]);
    },
    'activating.unreachable': async (w) => {
      expect(activations(w).at(-1)?.answer).toBe('network');
      expect(screen.getByRole('alert').textContent).toContain('网络无法连接');
      expect(await stored(w)).toBe('inactive');
    },
    activated: async (w) => {
      expect(activations(w).at(-1)?.answer).toBe(200);
      expect(toastText()).toBe('会员卡已激活');
      expect(await stored(w)).toBe('in_use');
      // the page reloaded the card: in use, nothing more to activate
      expect(activateButton()).toBe(null);
      expect(screen.getAllByText('使用中').length).toBeGreaterThan(0);
    },
  },

  effects: {
    ...oneKeyPerIntent<Member>('activateCard', { intent: 'confirm.accept', retry: 'network.retry' }),
    ...askFirst<Member>('activateCard', { ask: ['card.activate'], confirmText: '确定激活' }),
  },
});
