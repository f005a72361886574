// @vitest-environment jsdom
import { act, fireEvent } from '@testing-library/react';
import { expect } from 'vitest';
import { cardGiftMachine, type CardGiftContext } from '../../machines/card-gift.machine';
import { cardRow, newCard, newMember } from '../server/booking/support';
import { phoneOf } from '../server/cards/transfer-support';
import { screen, startScreenHarness } from './support/screen-harness';
import { defineScreenPaths, sentBy, type World } from './support/screen-paths';

/**
 * Giving a card as a gift on /mine/carddetail (decision 040): an unused gift card offers
 * "give to a friend"; the member types the friend's phone and confirms; without a phone the form says
 * so and sends nothing; a phone that is no member's is refused by the server (30036) and said in the
 * form; given, the card is the friend's (a gifted card, the giver kept on it) and the page says to
 * whom, masked; a used gift card says why it cannot be given (30058). The gift lost on the network
 * once offers a retry under the same key, or closing.
 */
const h = await startScreenHarness({ seed: true });
const friend = await newMember(h.server);
const FRIEND_PHONE = await phoneOf(h.server, friend.id);
const NO_MEMBER = '13999999999';
const masked = `${FRIEND_PHONE.slice(0, 3)}****${FRIEND_PHONE.slice(-4)}`;

const WORLDS = { 'an unused gift card': 'inactive', 'a used gift card': 'in_use' } as const;

interface Member {
  token: string;
  accountId: number;
  cardId: number;
  /** the phone typed in the open form */
  phone: string;
  /** told a phone is missing */
  missing: boolean;
  /** how many requests had been sent when the form was last opened */
  openedAt: number;
}
type W = World<Member>;

const gave = {
  code: 200,
  status: true,
  data: { cardId: 1, recipientName: '*', recipientPhone: masked, giftedAt: '2026-11-20T00:00:00.000Z' },
};
const noMember = { code: 30036, status: false, data: null };

const button = (action: string) => document.querySelector<HTMLButtonElement>(`[data-action="${action}"]`);
const formOpen = () => document.querySelector('[data-gift-form]') !== null;
const phoneInput = () => document.querySelector<HTMLInputElement>('[data-gift-form] input[name="phone"]');
const alertText = () => screen.queryByRole('alert')?.textContent ?? null;
const given = (w: W) => sentBy(w, 'giveCard').some((r) => r.answer === 200);

/** the card as the server has it: the giver's until a gift was accepted, then the friend's, gifted by the giver */
async function storedAsExpected(w: W) {
  const row = await cardRow(h.server, w.cardId);
  if (given(w)) expect([row.accountId, row.cardType, row.giftedFromAccountId]).toEqual([friend.id, 'gifted', w.accountId]);
  else expect([row.accountId, row.cardType, row.giftedFromAccountId]).toEqual([w.accountId, 'gift', null]);
}

defineScreenPaths<Member>(h, {
  machine: cardGiftMachine,
  screen: '/mine/carddetail',
  inputs: Object.fromEntries(Object.entries(WORLDS).map(([name, status]) => [name, { cardId: 1, offered: status === 'inactive' }])),
  cases: {
    'phone.change': [{ phone: FRIEND_PHONE }, { phone: NO_MEMBER }, { phone: '' }],
    'xstate.done.actor.giveCard': [
      { output: gave, answer: { server: true } },
      { output: noMember, answer: { server: true } },
    ],
    'xstate.error.actor.giveCard': [{ error: new Error('network') }],
  },
  offer: (e, s) => {
    const c = s.context as CardGiftContext;
    // the server's answer to the phone sent: given to the friend, or no such member
    if (e.type === 'xstate.done.actor.giveCard') {
      const out = (e as unknown as { output: { code: number } }).output;
      return out.code === 200 ? c.phone === FRIEND_PHONE : c.phone === NO_MEMBER;
    }
    // the network loses the gift only before any refusal
    if (e.type === 'xstate.error.actor.giveCard') return c.errorCode === undefined;
    // a refusal is read and the form closed
    if (c.errorCode !== undefined && s.matches('asking')) return e.type === 'form.close';
    // each phone typed once, over another
    if (e.type === 'phone.change')
      return (e as unknown as { phone: string }).phone !== c.phone && (c.phone === '' || (e as unknown as { phone: string }).phone === '');
    return true;
  },
  project: (c: CardGiftContext) => ({
    offered: c.offered,
    phone: c.phone,
    missing: c.missing,
    errorCode: c.errorCode ?? null,
    given: c.given !== undefined,
  }),
  requests: { giveCard: { method: 'POST', path: /^\/api\/customers\/cards\/gift$/ } },

  async start(hh, world) {
    const m = await newMember(hh.server);
    const status = WORLDS[world as keyof typeof WORLDS];
    const card = await newCard(hh.server, m.id, {
      cardType: 'gift',
      name: '礼品卡',
      nameEn: 'Gift card',
      status,
      ...(status === 'inactive' ? { validFrom: null, validUntil: null } : {}),
    });
    hh.jar.setClientCookie('token', m.token);
    const ui = await hh.open(`/mine/carddetail?id=${card.id}`);
    return { ui, token: m.token, accountId: m.id, cardId: card.id, phone: '', missing: false, openedAt: 0 };
  },

  events: {
    'gift.open': async (w) => {
      w.phone = '';
      w.missing = false;
      w.openedAt = w.sent.length;
      await w.ui.user.click(button('give-card')!);
    },
    'phone.change': async (w, e) => {
      w.phone = (e as unknown as { phone: string }).phone;
      w.missing = false;
      await act(async () => {
        fireEvent.change(phoneInput()!, { target: { value: w.phone } });
      });
    },
    'gift.submit': async (w) => {
      w.missing = w.phone === '';
      await w.ui.user.click(button('gift-submit')!);
    },
    'form.close': (w) => w.ui.user.click(button('gift-cancel') ?? screen.getByRole('button', { name: '关闭' })),
    'network.retry': (w) => w.ui.user.click(screen.getByRole('button', { name: '重试' })),
  },

  states: {
    // the card page: "give to a friend", or why not; the card still the member's
    idle: async (w) => {
      await storedAsExpected(w);
      expect(formOpen()).toBe(false);
      if ((await cardRow(h.server, w.cardId)).status === 'in_use') {
        expect(button('give-card')).toBe(null);
        expect(document.querySelector('[data-offer-refused="gift"]')?.textContent).toBe('赠送给好友：只有未使用的会员卡可以赠送');
      } else expect(button('give-card')?.textContent).toBe('赠送给好友');
    },
    // the form: the phone typed, what is missing or refused
    asking: async (w) => {
      await storedAsExpected(w);
      expect(phoneInput()?.value).toBe(w.phone);
      expect(button('gift-submit')?.disabled).toBe(false);
      expect(button('gift-submit')?.textContent).toBe('确认赠送');
      const refused = sentBy(w, 'giveCard', w.openedAt).at(-1)?.answer === noMember.code;
      expect(alertText()).toBe(w.missing ? '请输入好友的手机号' : refused ? '没有这个会员' : null);
    },
    giving: async (w) => {
      await storedAsExpected(w);
      expect(button('gift-submit')?.textContent).toBe('正在赠送…');
      expect(button('gift-submit')?.disabled).toBe(true);
      expect(w.held.get('giveCard')?.map((r) => r.body)).toEqual([{ id: w.cardId, phone: w.phone }]);
    },
    // given: the friend's card; the page says to whom (masked) and leads back to my cards
    given: async (w) => {
      await storedAsExpected(w);
      expect(given(w)).toBe(true);
      expect(formOpen()).toBe(false);
      expect(screen.getByRole('status').textContent).toContain(masked);
      expect(button('gift-back')?.getAttribute('href')).toBe('/vipcard?tab=mine');
    },
    unreachable: async (w) => {
      await storedAsExpected(w);
      expect(w.sent.at(-1)?.answer).toBe('network');
      expect(alertText()).toContain('网络无法连接');
      expect(formOpen()).toBe(false);
    },
  },

  effects: {
    // a confirm with a phone is a new intent with a new key; without one nothing is sent and the form says so
    'gift.submit': (w, _e, before) => {
      const [tap] = sentBy(w, 'giveCard', before);
      if (w.missing) {
        expect(formOpen(), 'the form stays open').toBe(true);
        expect(document.querySelector('[data-gift-missing]')).not.toBe(null);
        return expect(tap, 'nothing is sent without a phone').toBeUndefined();
      }
      expect(tap?.key, 'the request carries an Idempotency-Key').toBeDefined();
      expect(
        sentBy(w, 'giveCard')
          .slice(0, -1)
          .map((r) => r.key),
        'a new intent, a new key',
      ).not.toContain(tap!.key);
    },
    // a retry sends the lost gift again under the same key
    'network.retry': (w, _e, before) => {
      const again = w.sent.slice(before);
      expect(again.length, 'a retry sends one request again').toBe(1);
      expect(again[0]!.key, 'the same intent: the same key').toBe(w.sent[before - 1]!.key);
    },
    // a refusal is said in the form, which stays open
    'xstate.done.actor.giveCard': (w) => {
      if (sentBy(w, 'giveCard').at(-1)?.answer !== noMember.code) return;
      expect(formOpen(), 'the form stays open').toBe(true);
      expect(alertText()).toBe('没有这个会员');
    },
    'gift.open': (w, _e, before) => expect(w.sent.slice(before)).toEqual([]),
    'phone.change': (w, _e, before) => expect(w.sent.slice(before)).toEqual([]),
    // closing sends nothing and leaves nothing to read or retry
    'form.close': (w, _e, before) => {
      expect(w.sent.slice(before)).toEqual([]);
      expect(formOpen()).toBe(false);
      expect(alertText()).toBe(null);
    },
  },
});
