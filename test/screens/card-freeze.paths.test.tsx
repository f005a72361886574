// @vitest-environment jsdom
import { act, fireEvent, waitFor } from '@testing-library/react';
import { expect } from 'vitest';
import { cardFreezeMachine, type CardFreezeContext } from '../../machines/card-freeze.machine';
import { daysBetween, MAX_FREEZE_DAYS } from '../../src/domain/card-rules';
import { addDays, shanghaiDate } from '../../src/domain/time';
import { book, cardRow, DAY, newCard, newClass, newMember, sh } from '../server/booking/support';
import { screen, startScreenHarness } from './support/screen-harness';
import { defineScreenPaths, sentBy, type World } from './support/screen-paths';

/**
 * Freezing and unfreezing one of my cards on /mine/carddetail (spec §4 freeze and unfreeze, §5
 * "freeze end not before start", §8 cards; decision 024): a card in use offers "freeze", a form with
 * the first and the last frozen day (today by default) that says how far the end date moves and
 * refuses an end before the start; from today the card is frozen, from a later day the freeze is
 * planned; the end date moves later by the days asked for. A frozen card offers "unfreeze" and a
 * planned freeze "call off", after a confirm: the days not frozen come off the end date. Refusals
 * come from the real server (a class booked during the freeze on another phone: 30005; unfrozen on
 * another phone: 30017); a network failure offers a retry under the same key, or closing.
 */
const h = await startScreenHarness({ seed: true });
const TODAY = shanghaiDate(h.server.clock.now());
/** a freeze planned from tomorrow for three days; dates in the wrong order */
const PLANNED = { from: addDays(TODAY, 1), until: addDays(TODAY, 3) };
const REVERSED = { from: addDays(TODAY, 2), until: addDays(TODAY, 1) };
/** 87 days, beyond the longest freeze: typed past the picker's bound (a browser without date pickers) */
const TOO_LONG = { from: TODAY, until: addDays(TODAY, 86) };
/** the freeze the frozen world's card has (from today, five days) */
const RUNNING = { from: TODAY, until: addDays(TODAY, 4) };

interface Member {
  token: string;
  cardId: number;
  /** the card's end date when the page opened (ms), and its freeze then */
  openedUntil: number;
  opened: { from: string; until: string } | null;
  /** the dates the member typed last (since the form was opened) */
  typed?: { from: string; until: string };
  /** how many requests had been sent when the member last closed the form */
  closedAt?: number;
}
type W = World<Member>;

/** the server's answers, as far as the chart reads them (the card's status and freeze) */
const frozen = { code: 200, status: true, data: { status: 'frozen', frozenFrom: TODAY } };
const planned = { code: 200, status: true, data: { status: 'in_use', frozenFrom: PLANNED.from } };
const unfrozen = { code: 200, status: true, data: { status: 'in_use', frozenFrom: null } };
const bookedDuring = { code: 30005, status: false, data: null };
const notFrozen = { code: 30017, status: false, data: null };

const button = (action: string) => document.querySelector<HTMLButtonElement>(`[data-action="${action}"]`);
const formOpen = () => document.querySelector('[data-freeze-form]') !== null;
const input = (name: string) => document.querySelector<HTMLInputElement>(`[data-freeze-form] input[name="${name}"]`);
const toastText = () => document.querySelector('[data-toast-type]')?.textContent ?? null;
const alertText = () => screen.queryByRole('alert')?.textContent ?? null;
const confirmButton = () => screen.queryByRole('button', { name: /^确定(解冻|取消冻结)$/ });
const frozenDatesText = () => document.querySelector('[data-card-frozen-dates]')?.textContent ?? null;

/**
 * The card as the member's steps leave it on the server (spec §5, decision 024), from the requests
 * the screen sent and their answers: a freeze accepted stores its dates (frozen from today, else
 * planned) and moves the end later by its days; an unfreeze accepted, or refused because the card
 * was unfrozen on another phone, leaves it in use with no freeze and the days not frozen taken back
 * (all of them: no day has passed in a path).
 */
function expected(w: W): { status: 'in_use' | 'frozen'; freeze: { from: string; until: string } | null; until: number } {
  let freeze = w.opened;
  let until = w.openedUntil;
  for (const r of w.sent) {
    if (r.invoke === 'freezeCard' && r.answer === 200) {
      const b = r.body as { from: string; until: string };
      freeze = { from: b.from, until: b.until };
      until += daysBetween(b.from, b.until) * DAY;
    }
    if (r.invoke === 'unfreezeCard' && (r.answer === 200 || r.answer === notFrozen.code)) {
      until -= daysBetween(freeze!.from, freeze!.until) * DAY;
      freeze = null;
    }
  }
  return { status: freeze && freeze.from === TODAY ? 'frozen' : 'in_use', freeze, until };
}

/** the server's card is what the member's steps give */
async function storedAsExpected(w: W) {
  const row = await cardRow(h.server, w.cardId);
  const e = expected(w);
  expect({
    status: row.status,
    freeze: row.frozenFrom ? { from: row.frozenFrom, until: row.frozenUntil } : null,
    until: row.validUntil!.getTime(),
  }).toEqual(e);
  return e;
}

defineScreenPaths<Member>(h, {
  machine: cardFreezeMachine,
  screen: '/mine/carddetail',
  inputs: {
    'a card in use': { cardId: 1, today: TODAY, status: 'in_use', freezePlanned: false, validUntil: null },
    'a frozen card': { cardId: 1, today: TODAY, status: 'frozen', freezePlanned: false, validUntil: null },
  },
  cases: {
    'dates.change': [PLANNED, REVERSED, TOO_LONG],
    'xstate.done.actor.freezeCard': [
      { output: frozen, answer: { server: true } },
      { output: planned, answer: { server: true } },
      {
        output: bookedDuring,
        // a class on the freeze's first day booked with the card on another phone a moment ago
        answer: {
          server: true,
          arrange: async (w: W) => {
            const cls = await newClass(h.server, { startsAt: sh(`${input('from')!.value} 19:00`) });
            expect((await book(h.server, w.token, cls.id, w.cardId)).body.code).toBe(200);
          },
        },
      },
    ],
    'xstate.error.actor.freezeCard': [{ error: new Error('network') }],
    'xstate.done.actor.unfreezeCard': [
      { output: unfrozen, answer: { server: true } },
      {
        output: notFrozen,
        // unfrozen on another phone a moment ago
        answer: {
          server: true,
          arrange: (w: W) =>
            h.server.call('POST', '/api/customers/cards/unfreeze', { token: w.token, body: { id: w.cardId } }).then(() => {}),
        },
      },
    ],
    'xstate.error.actor.unfreezeCard': [{ error: new Error('network') }],
  },
  offer: (e, s) => {
    const c = s.context as CardFreezeContext;
    // after a refusal the page has the card as it is now: the path ends there
    if (c.errorCode !== undefined && s.matches('idle')) return false;
    // the server freezes from today, and plans a freeze from a later day
    if (e.type === 'xstate.done.actor.freezeCard' && (e.output as typeof frozen).code === 200)
      return (e.output as typeof frozen).data.status === (c.from === c.today ? 'frozen' : 'in_use');
    // the member types the dates once, into a fresh form
    if (e.type === 'dates.change') return c.from === c.today && c.until === c.today && c.errorCode === undefined;
    // a refused freeze: the member reads why and closes the form
    if (c.errorCode !== undefined && s.matches('editing')) return e.type === 'form.close';
    return true;
  },
  project: (c: CardFreezeContext) => ({
    status: c.status,
    planned: c.freezePlanned,
    from: c.from,
    until: c.until,
    errorCode: c.errorCode ?? null,
  }),
  requests: {
    freezeCard: { method: 'POST', path: /^\/api\/customers\/cards\/freeze$/ },
    unfreezeCard: { method: 'POST', path: /^\/api\/customers\/cards\/unfreeze$/ },
  },

  async start(hh, world) {
    const m = await newMember(hh.server);
    const card = await newCard(hh.server, m.id);
    let opened: Member['opened'] = null;
    if (world === 'a frozen card') {
      expect(
        (await hh.server.call('POST', '/api/customers/cards/freeze', { token: m.token, body: { id: card.id, ...RUNNING } })).body.code,
      ).toBe(200);
      opened = RUNNING;
    }
    hh.jar.setClientCookie('token', m.token);
    const ui = await hh.open(`/mine/carddetail?id=${card.id}`);
    return { ui, token: m.token, cardId: card.id, openedUntil: (await cardRow(hh.server, card.id)).validUntil!.getTime(), opened };
  },

  events: {
    'freeze.open': async (w) => {
      w.typed = undefined;
      await w.ui.user.click(button('freeze')!);
    },
    'dates.change': async (w, e) => {
      const { from, until } = e as unknown as { from: string; until: string };
      w.typed = { from, until };
      await act(async () => {
        fireEvent.change(input('from')!, { target: { value: from } });
      });
      await act(async () => {
        fireEvent.change(input('until')!, { target: { value: until } });
      });
    },
    'freeze.submit': (w) => w.ui.user.click(button('freeze-submit')!),
    'form.close': async (w) => {
      w.closedAt = w.sent.length;
      await w.ui.user.click(button('freeze-cancel')!);
    },
    'unfreeze.ask': (w) => w.ui.user.click(button('unfreeze')!),
    'confirm.accept': async (w) => w.ui.user.click((await screen.findByRole('button', { name: /^确定(解冻|取消冻结)$/ }))!),
    'confirm.dismiss': async (w) => {
      const close = screen.queryByRole('button', { name: '再想想' }) ?? screen.queryByRole('button', { name: '关闭' });
      if (close) await w.ui.user.click(close);
    },
    'network.retry': (w) => w.ui.user.click(screen.getByRole('button', { name: '重试' })),
  },

  states: {
    // the card page: freeze offered for a card in use without a freeze; unfreeze (or call off) with
    // the dates for a frozen or planned one; the end date the server has
    idle: async (w) => {
      const e = await storedAsExpected(w);
      expect(formOpen()).toBe(false);
      expect(confirmButton()).toBe(null);
      // the page reloads the card after an answer: wait for it (a loaded CI run read the old end once)
      await waitFor(() =>
        expect(document.querySelector('[data-card-valid-until]')?.textContent, 'the last valid day').toBe(
          shanghaiDate(new Date(e.until - 1)),
        ),
      );
      if (!e.freeze) {
        expect(button('freeze')?.textContent).toBe('冻结会员卡');
        expect(button('unfreeze')).toBe(null);
        expect(frozenDatesText()).toBe(null);
      } else {
        expect(button('freeze'), 'no second freeze').toBe(null);
        expect(button('unfreeze')?.textContent).toBe(e.status === 'frozen' ? '解冻' : '取消冻结');
        expect(button('unfreeze')?.disabled).toBe(false);
        expect(frozenDatesText()).toBe(`${e.status === 'frozen' ? '冻结中' : '已安排冻结'}：${e.freeze.from} 至 ${e.freeze.until}`);
      }
      // what the last answer said
      const last = w.sent.filter((r) => r.invoke).at(-1);
      if (last?.invoke === 'freezeCard' && last.answer === 200)
        expect(toastText()).toBe(expected(w).status === 'frozen' ? '会员卡已冻结' : '冻结已安排');
      if (last?.invoke === 'unfreezeCard' && last.answer === 200) expect(toastText()).toMatch(/^(会员卡已解冻|冻结已取消)$/);
      if (last?.invoke === 'unfreezeCard' && last.answer === notFrozen.code) expect(toastText()).toBe('会员卡没有冻结');
      // a refused freeze is said in the form until the member closes it
      if (last?.invoke === 'freezeCard' && last.answer === bookedDuring.code)
        expect(w.closedAt ?? -1, 'the member closed the form after the refusal').toBeGreaterThan(w.sent.lastIndexOf(last));
    },
    // the form: the dates typed (today by default), how far the end moves, or why they cannot be sent
    editing: async (w) => {
      await storedAsExpected(w);
      const dates = w.typed ?? { from: TODAY, until: TODAY };
      expect([input('from')?.value, input('until')?.value]).toEqual([dates.from, dates.until]);
      expect(document.querySelector('[data-freeze-rule]')?.textContent).toBe('最长冻结30天，冻结期间不能预约。');
      // the pickers offer only what the rule allows: from today, the last day at most the longest freeze after the first
      expect(input('from')?.min).toBe(TODAY);
      expect(input('until')?.min).toBe(dates.from);
      expect(input('until')?.max).toBe(addDays(dates.from, MAX_FREEZE_DAYS - 1));
      // what breaks the rule is said at the end date, before anything is sent
      const untilField = input('until')!.closest('li')!;
      if (dates.until < dates.from) {
        expect(untilField.querySelector('[data-freeze-dates-wrong]')?.textContent).toBe('结束日期不能早于开始日期');
        expect(button('freeze-submit')?.disabled, 'an end before the start cannot be sent').toBe(true);
      } else if (daysBetween(dates.from, dates.until) > MAX_FREEZE_DAYS) {
        expect(untilField.querySelector('[data-freeze-dates-wrong]')?.textContent).toBe('冻结时间超过了允许的最长天数');
        expect(document.querySelector('[data-freeze-days]'), 'no "87 days frozen"').toBe(null);
        expect(button('freeze-submit')?.disabled, 'a freeze longer than the rule cannot be sent').toBe(true);
      } else {
        const n = daysBetween(dates.from, dates.until);
        expect(document.querySelector('[data-freeze-days]')?.textContent).toBe(`共冻结${n}天，到期日期将顺延${n}天。`);
        expect(document.querySelector('[data-freeze-dates-wrong]')).toBe(null);
        expect(button('freeze-submit')?.disabled).toBe(false);
      }
      expect(button('freeze-submit')?.textContent).toBe('确认冻结');
      const refused = sentBy(w, 'freezeCard').at(-1)?.answer === bookedDuring.code;
      expect(alertText()).toBe(refused ? '冻结期间有已预约或正在上的课程，请先取消预约' : null);
    },
    freezing: async (w) => {
      await storedAsExpected(w);
      expect(button('freeze-submit')?.textContent).toBe('正在冻结…');
      expect(button('freeze-submit')?.disabled).toBe(true);
      const dates = w.typed ?? { from: TODAY, until: TODAY };
      expect(w.held.get('freezeCard')?.map((r) => r.body)).toEqual([{ id: w.cardId, ...dates }]);
    },
    freezeUnreachable: async (w) => {
      await storedAsExpected(w);
      expect(sentBy(w, 'freezeCard').at(-1)?.answer).toBe('network');
      expect(alertText()).toContain('网络无法连接');
      expect(formOpen()).toBe(false);
    },
    confirmingUnfreeze: async (w) => {
      const e = await storedAsExpected(w);
      expect(
        screen.getByText(
          e.status === 'frozen' ? '确定现在解冻吗？未冻结的天数将从到期日期中扣回。' : '确定取消已安排的冻结吗？到期日期将恢复。',
        ),
      ).toBeTruthy();
      expect(confirmButton()).not.toBe(null);
      expect(w.held.get('unfreezeCard') ?? []).toEqual([]);
    },
    unfreezing: async (w) => {
      await storedAsExpected(w);
      expect(confirmButton()).toBe(null);
      expect(button('unfreeze')?.textContent).toBe('正在处理…');
      expect(button('unfreeze')?.disabled).toBe(true);
      expect(w.held.get('unfreezeCard')?.map((r) => r.body)).toEqual([{ id: w.cardId }]);
    },
    unfreezeUnreachable: async (w) => {
      const e = await storedAsExpected(w);
      expect(e.freeze, 'still frozen or planned').not.toBe(null);
      expect(sentBy(w, 'unfreezeCard').at(-1)?.answer).toBe('network');
      expect(alertText()).toContain('网络无法连接');
    },
  },

  effects: {
    // one key per intent: a submit or a confirm is a new one; a retry sends the same request again
    'freeze.submit': (w, _e, before) => {
      const [tap] = sentBy(w, 'freezeCard', before);
      expect(tap?.key, 'the request carries an Idempotency-Key').toBeDefined();
      expect(
        sentBy(w, 'freezeCard')
          .slice(0, -1)
          .map((r) => r.key),
      ).not.toContain(tap!.key);
    },
    'confirm.accept': (w, _e, before) => {
      const [tap] = sentBy(w, 'unfreezeCard', before);
      expect(tap?.key).toBeDefined();
      expect(
        sentBy(w, 'unfreezeCard')
          .slice(0, -1)
          .map((r) => r.key),
      ).not.toContain(tap!.key);
    },
    'network.retry': (w, _e, before) => {
      const again = w.sent.slice(before).find((r) => r.invoke);
      expect(again, 'a retry sends the request again').toBeDefined();
      expect(again!.key, 'the same intent: the same key').toBe(sentBy(w, again!.invoke!).at(-2)?.key);
    },
    // closing the form, saying not now, or closing what a failure said: nothing sent, nothing left to read
    'form.close': (w, _e, before) => {
      expect(w.sent.slice(before).filter((r) => r.invoke)).toEqual([]);
      expect(formOpen()).toBe(false);
      expect(alertText()).toBe(null);
    },
    'confirm.dismiss': (w, _e, before) => {
      expect(w.sent.slice(before).filter((r) => r.invoke)).toEqual([]);
      expect(confirmButton()).toBe(null);
      expect(formOpen()).toBe(false);
      expect(alertText()).toBe(null);
    },
    // opening the form, typing and asking send nothing
    'freeze.open': (w, _e, before) => expect(w.sent.slice(before).filter((r) => r.invoke)).toEqual([]),
    'dates.change': (w, _e, before) => expect(w.sent.slice(before).filter((r) => r.invoke)).toEqual([]),
    'unfreeze.ask': (w, _e, before) => expect(w.sent.slice(before).filter((r) => r.invoke)).toEqual([]),
  },
});
