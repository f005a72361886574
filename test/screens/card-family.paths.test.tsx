// @vitest-environment jsdom
import { act, fireEvent } from '@testing-library/react';
import { and, eq, isNull } from 'drizzle-orm';
import { expect, vi } from 'vitest';
import { cardFamilyMachine, type CardFamilyContext } from '../../machines/card-family.machine';
import { cardFamilyMembers } from '../../src/server/db/schema/index';
import { newCard, newMember } from '../server/booking/support';
import { phoneOf } from '../server/cards/transfer-support';
import { screen, startScreenHarness } from './support/screen-harness';
import { defineScreenPaths, sentBy, type World } from './support/screen-paths';

/**
 * Family sub cards on /mine/carddetail (decision 040): a family main card offers "family
 * sub cards"; opening reads its sharing (two places, the holders masked); the holder types a member's
 * phone and adds them (without a phone the form says so and sends nothing; a phone that is no
 * member's is refused 30036, a holder added twice 30053, said in the form); each holder can be
 * removed; the server stores each change and the card's timeline shows it; a transferred main card
 * says why it cannot be shared (30013). A read or a change lost on the network offers a retry (a
 * change under the same key) or closing.
 */
const h = await startScreenHarness({ seed: true });
const db = h.server.deps.db;
const sub = await newMember(h.server);
const SUB_PHONE = await phoneOf(h.server, sub.id);
const NO_MEMBER = '13999999999';
const maskedSub = `${SUB_PHONE.slice(0, 3)}****${SUB_PHONE.slice(-4)}`;

const WORLDS = { 'a family main card': 'in_use', 'a transferred family main card': 'transferred' } as const;

interface Member {
  token: string;
  accountId: number;
  cardId: number;
  phone: string;
  missing: boolean;
  openedAt: number;
  /** the sub card the member tapped "remove" on */
  removing?: number;
  transferred: boolean;
}
type W = World<Member>;

const member = { id: 0, name: '*', phone: maskedSub, since: '2026-11-20T00:00:00.000Z' };
const EMPTY = { cardId: 1, slots: 2, members: [], canAdd: true };
const ONE = { ...EMPTY, members: [member] };
const ok = (data: typeof EMPTY | typeof ONE) => ({ code: 200, status: true, data });
const refused = (code: number) => ({ code, status: false, data: null });
const SAID: Record<number, string> = {
  30036: '没有这个会员',
  30053: '该会员已是这张会员卡的副卡持有人',
  30055: '这张会员卡没有这位副卡持有人',
};

/** the holder removes the sub card on another phone, before the removal this screen sent arrives */
async function removedElsewhere(w: W) {
  await db
    .update(cardFamilyMembers)
    .set({ removedAt: h.server.clock.now(), removedBy: w.accountId })
    .where(eq(cardFamilyMembers.cardId, w.cardId));
}

const button = (action: string) => document.querySelector<HTMLButtonElement>(`[data-action="${action}"]`);
const formOpen = () => document.querySelector('[data-family-form]') !== null;
const phoneInput = () => document.querySelector<HTMLInputElement>('[data-family-form] input[name="phone"]');
const alertText = () => screen.queryByRole('alert')?.textContent ?? null;
const removeButtons = () => [...document.querySelectorAll<HTMLButtonElement>('[data-action^="family-remove-"]')];

/** the holders the member's steps leave: each add the server accepted, less each removal it accepted or found done elsewhere */
const expectedHolders = (w: W) =>
  sentBy(w, 'addSub').filter((r) => r.answer === 200).length -
  sentBy(w, 'removeSub').filter((r) => r.answer === 200 || r.answer === 30055).length;
async function storedAsExpected(w: W) {
  const live = await db
    .select()
    .from(cardFamilyMembers)
    .where(and(eq(cardFamilyMembers.cardId, w.cardId), isNull(cardFamilyMembers.removedAt)));
  const want = expectedHolders(w);
  expect(
    live.map((m) => m.accountId),
    'the live sub-card holders',
  ).toEqual(want === 1 ? [sub.id] : []);
  return { want, live };
}

defineScreenPaths<Member>(h, {
  machine: cardFamilyMachine,
  screen: '/mine/carddetail',
  inputs: Object.fromEntries(Object.entries(WORLDS).map(([name, status]) => [name, { cardId: 1, offered: status === 'in_use' }])),
  cases: {
    'phone.change': [{ phone: SUB_PHONE }, { phone: NO_MEMBER }],
    'family.remove': [{ subId: 0 }],
    'xstate.done.actor.loadFamily': [
      { output: EMPTY, answer: { server: true } },
      { output: ONE, answer: { server: true } },
    ],
    'xstate.error.actor.loadFamily': [{ error: new Error('network') }],
    'xstate.done.actor.addSub': [
      { output: ok(ONE), answer: { server: true } },
      { output: refused(30036), answer: { server: true } },
      { output: refused(30053), answer: { server: true } },
    ],
    'xstate.error.actor.addSub': [{ error: new Error('network') }],
    'xstate.done.actor.removeSub': [
      { output: ok(EMPTY), answer: { server: true } },
      // the sub-card holder was removed meanwhile (the holder's other phone): 30055
      { output: refused(30055), answer: { server: true, arrange: (w: W) => removedElsewhere(w) } },
    ],
    'xstate.error.actor.removeSub': [{ error: new Error('network') }],
  },
  offer: (e, s) => {
    const c = s.context as CardFamilyContext;
    const holders = c.family?.members.length ?? 0;
    const out = (e as unknown as { output?: { code?: number; members?: unknown[] } }).output;
    // the sharing read is what the member's steps left
    if (e.type === 'xstate.done.actor.loadFamily') return out!.members!.length === holders;
    // the server's answer to the phone sent
    if (e.type === 'xstate.done.actor.addSub') {
      if (out!.code === 200) return c.phone === SUB_PHONE && holders === 0;
      return out!.code === 30036 ? c.phone === NO_MEMBER : c.phone === SUB_PHONE && holders === 1;
    }
    if (e.type === 'xstate.done.actor.removeSub') return holders === 1;
    // the network loses an add or a read while nobody was added yet, a removal once
    if (e.type.startsWith('xstate.error.actor.'))
      return c.errorCode === undefined && (e.type.endsWith('removeSub') ? c.failed === undefined : holders === 0);
    // the sub card removed elsewhere: the page is read again only as it is (the walk ends here)
    if (e.type === 'family.open') return c.errorCode !== 30055;
    // a refusal is read and the form closed
    if (c.errorCode !== undefined && s.matches('managing')) return e.type === 'form.close';
    if (e.type === 'family.remove') return holders === 1;
    // each phone typed once
    if (e.type === 'phone.change') return c.phone === '';
    return true;
  },
  project: (c: CardFamilyContext) => ({
    offered: c.offered,
    holders: c.family?.members.length ?? null,
    phone: c.phone,
    missing: c.missing,
    errorCode: c.errorCode ?? null,
    failed: c.failed ?? null,
  }),
  requests: {
    loadFamily: { method: 'GET', path: /^\/api\/customers\/cards\/family$/ },
    addSub: { method: 'POST', path: /^\/api\/customers\/cards\/family\/add$/ },
    removeSub: { method: 'POST', path: /^\/api\/customers\/cards\/family\/remove$/ },
  },

  async start(hh, world) {
    const m = await newMember(hh.server);
    const card = await newCard(hh.server, m.id, {
      cardType: 'family-main',
      name: '亲情年卡（主卡）',
      status: WORLDS[world as keyof typeof WORLDS],
    });
    hh.jar.setClientCookie('token', m.token);
    const ui = await hh.open(`/mine/carddetail?id=${card.id}`);
    return {
      ui,
      token: m.token,
      accountId: m.id,
      cardId: card.id,
      phone: '',
      missing: false,
      openedAt: 0,
      transferred: world !== 'a family main card',
    };
  },

  events: {
    'family.open': async (w) => {
      w.phone = '';
      w.missing = false;
      w.openedAt = w.sent.length;
      await w.ui.user.click(button('family-open')!);
    },
    'phone.change': async (w, e) => {
      w.phone = (e as unknown as { phone: string }).phone;
      w.missing = false;
      await act(async () => {
        fireEvent.change(phoneInput()!, { target: { value: w.phone } });
      });
    },
    'family.add': async (w) => {
      w.missing = w.phone === '';
      await w.ui.user.click(button('family-submit')!);
    },
    'family.remove': async (w) => {
      const [first] = removeButtons();
      w.removing = Number(first!.getAttribute('data-action')!.replace('family-remove-', ''));
      await w.ui.user.click(first!);
    },
    'form.close': (w) => w.ui.user.click(button('family-cancel') ?? screen.getByRole('button', { name: '关闭' })),
    'network.retry': (w) => w.ui.user.click(screen.getByRole('button', { name: '重试' })),
  },

  states: {
    // the card page: "family sub cards" or why not; each holder added or removed on the timeline
    idle: async (w) => {
      await storedAsExpected(w);
      expect(formOpen()).toBe(false);
      if (w.transferred) {
        expect(button('family-open')).toBe(null);
        expect(document.querySelector('[data-offer-refused="family"]')?.textContent).toBe('亲情卡副卡：会员卡已转让');
      } else expect(button('family-open')?.textContent).toBe('亲情卡副卡');
      expect(document.querySelectorAll('[data-card-history="familyAdded"]').length, 'the adds on the timeline').toBe(
        sentBy(w, 'addSub').filter((r) => r.answer === 200).length,
      );
      expect(document.querySelectorAll('[data-card-history="familyRemoved"]').length, 'the removals on the timeline').toBe(
        sentBy(w, 'removeSub').filter((r) => r.answer === 200).length,
      );
    },
    loading: async (w) => {
      await storedAsExpected(w);
      expect(document.querySelector('[data-family-loading]')?.textContent).toBe('正在加载副卡…');
      expect(w.held.get('loadFamily')?.map((r) => r.path)).toEqual([`/api/customers/cards/family?id=${w.cardId}`]);
    },
    // the holders as the server has them (masked), the places, the phone typed, what is missing or refused
    managing: async (w) => {
      const { want, live } = await storedAsExpected(w);
      const shown = sentBy(w, 'removeSub', w.openedAt).at(-1)?.answer === 30055 ? want + 1 : want;
      expect(document.querySelector('[data-family-places]')?.textContent).toBe(
        `副卡 ${shown}/2：副卡持有人用这张卡预约课程，共用次数和有效期。`,
      );
      // the list is the server's last answer: a holder removed elsewhere stays listed until it is read again
      const elsewhere = sentBy(w, 'removeSub', w.openedAt).at(-1)?.answer === 30055;
      if (!elsewhere) expect(removeButtons().map((b) => b.getAttribute('data-action'))).toEqual(live.map((m) => `family-remove-${m.id}`));
      expect(removeButtons().every((b) => !b.disabled && b.textContent === '解除')).toBe(true);
      if (want === 1) expect(document.querySelector('[data-family-members]')?.textContent).toContain(maskedSub);
      if (elsewhere) expect(removeButtons()).toHaveLength(1);
      expect(phoneInput()?.value).toBe(w.phone);
      expect(button('family-submit')?.disabled).toBe(false);
      const last = w.sent
        .slice(w.openedAt)
        .filter((r) => r.invoke === 'addSub' || r.invoke === 'removeSub')
        .at(-1);
      const code = typeof last?.answer === 'number' && last.answer !== 200 ? last.answer : null;
      expect(alertText()).toBe(w.missing ? '请输入副卡持有人的手机号' : code !== null ? SAID[code]! : null);
    },
    adding: async (w) => {
      await storedAsExpected(w);
      expect(button('family-submit')?.textContent).toBe('正在添加…');
      expect(button('family-submit')?.disabled).toBe(true);
      expect(w.held.get('addSub')?.map((r) => r.body)).toEqual([{ id: w.cardId, phone: w.phone }]);
    },
    removing: async (w) => {
      await storedAsExpected(w);
      expect(button(`family-remove-${w.removing}`)?.textContent).toBe('正在解除…');
      expect(button(`family-remove-${w.removing}`)?.disabled).toBe(true);
      expect(button('family-submit')?.disabled).toBe(true);
      expect(w.held.get('removeSub')?.map((r) => r.body)).toEqual([{ id: w.cardId, subId: w.removing }]);
    },
    unreachable: async (w) => {
      await storedAsExpected(w);
      expect(w.sent.at(-1)?.answer).toBe('network');
      expect(alertText()).toContain('网络无法连接');
      expect(formOpen()).toBe(false);
    },
  },

  effects: {
    'family.add': (w, _e, before) => {
      const [tap] = sentBy(w, 'addSub', before);
      if (w.missing) {
        expect(formOpen(), 'the form stays open').toBe(true);
        expect(document.querySelector('[data-family-missing]')).not.toBe(null);
        return expect(tap, 'nothing is sent without a phone').toBeUndefined();
      }
      expect(tap?.key, 'the request carries an Idempotency-Key').toBeDefined();
      expect(
        w.sent.slice(0, -1).map((r) => r.key),
        'a new intent, a new key',
      ).not.toContain(tap!.key);
    },
    'family.remove': (w, _e, before) => {
      const [tap] = sentBy(w, 'removeSub', before);
      expect(tap?.key, 'the request carries an Idempotency-Key').toBeDefined();
      expect(
        w.sent.slice(0, -1).map((r) => r.key),
        'a new intent, a new key',
      ).not.toContain(tap!.key);
    },
    // a retry sends again what was lost: a change under the same key
    'network.retry': (w, _e, before) => {
      const again = w.sent.slice(before);
      expect(again.length, 'a retry sends one request again').toBe(1);
      const lost = w.sent[before - 1]!;
      expect([again[0]!.invoke, again[0]!.path]).toEqual([lost.invoke, lost.path]);
      if (lost.invoke !== 'loadFamily') expect(again[0]!.key, 'the same intent: the same key').toBe(lost.key);
    },
    'family.open': (w, _e, before) => expect(sentBy(w, 'addSub', before)).toEqual([]),
    // an answer to an add or a removal keeps the form open with the list, and reads nothing again
    'xstate.done.actor.addSub': async (w, _e, before) => {
      expect(formOpen(), 'the form stays open').toBe(true);
      expect(sentBy(w, 'loadFamily', before)).toEqual([]);
      // an add reloads the card page: its timeline shows the add once the reload is in, so a later
      // step's arrangement (a holder removed elsewhere) cannot land inside that reload
      await vi.waitFor(() =>
        expect(document.querySelectorAll('[data-card-history="familyAdded"]').length).toBe(
          sentBy(w, 'addSub').filter((r) => r.answer === 200).length,
        ),
      );
    },
    'xstate.done.actor.removeSub': (w, _e, before) => {
      expect(formOpen(), 'the form stays open').toBe(true);
      expect(sentBy(w, 'loadFamily', before)).toEqual([]);
    },

    'phone.change': (w, _e, before) => expect(w.sent.slice(before)).toEqual([]),
    'form.close': (w, _e, before) => {
      expect(w.sent.slice(before)).toEqual([]);
      expect(formOpen()).toBe(false);
      expect(alertText()).toBe(null);
    },
  },
});
