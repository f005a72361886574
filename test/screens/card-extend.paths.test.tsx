// @vitest-environment jsdom
import { act, fireEvent } from '@testing-library/react';
import { expect } from 'vitest';
import { cardExtendMachine, type CardExtendContext } from '../../machines/card-extend.machine';
import { daysBetween, extendedValidUntil } from '../../src/domain/card-rules';
import { lastValidDay, addDays, shanghaiDate } from '../../src/domain/time';
import { CARD_TYPE_RULES } from '../../src/server/db/seed/card-rules';
import { cardRow, DAY, newCard, newMember } from '../server/booking/support';
import { screen, startScreenHarness } from './support/screen-harness';
import { defineScreenPaths, sentBy, type World } from './support/screen-paths';

/**
 * Extending one of my cards on /mine/carddetail (spec §4 extend "only when in use or expired", §5
 * "extension date later than end"; decision 024): a count card (seeded rule: twice, up to 30 days
 * each, free) offers "extend"; the form proposes the most the type allows and refuses a day not
 * later than the current end; the server moves the end to the end of that day, counts the
 * extension, and puts an expired card back in use; more days than the type allows are refused by
 * the server (30023); a network failure offers a retry under the same key, or closing.
 */
const h = await startScreenHarness({ seed: true });
const NOW = h.server.clock.now().getTime();
const RULE = CARD_TYPE_RULES.count;
const TODAY = shanghaiDate(new Date(NOW));
/** the worlds' cards: in use for 170 more days; expired 5 days ago; frozen (not extended, spec §5) */
const WORLDS = {
  'a card in use': { status: 'in_use' as const, validUntil: new Date(NOW + 170 * DAY) },
  'an expired card': { status: 'expired' as const, validUntil: new Date(NOW - 5 * DAY) },
  'a frozen card': { status: 'frozen' as const, validUntil: new Date(NOW + 170 * DAY) },
};
const ends = [...new Set(Object.values(WORLDS).map((w) => lastValidDay(w.validUntil)))];
/** the days a member types, after the current end: ten, none (not later), one more than the type allows */
const TYPED = [10, 0, RULE.maxExtensionDays + 1];

interface Member {
  token: string;
  cardId: number;
  openedUntil: number;
  opened: 'in_use' | 'expired' | 'frozen';
  typed?: string;
  /** how many requests had been sent when the member last closed the form */
  closedAt?: number;
}
type W = World<Member>;

const extended = (until: string) => ({
  code: 200,
  status: true,
  data: { status: 'in_use', validUntil: extendedValidUntil(until).toISOString() },
});
const tooLong = { code: 30023, status: false, data: null };
/**
 * The form sends only a day within the type's rule, so the server refuses one as too long only when
 * the rule was lowered after the page opened: answered per path, since the seeded rule is every path's.
 */
const tooLongNow = { status: 400, body: tooLong };

const button = (action: string) => document.querySelector<HTMLButtonElement>(`[data-action="${action}"]`);
const formOpen = () => document.querySelector('[data-extend-form]') !== null;
const dateInput = () => document.querySelector<HTMLInputElement>('[data-extend-form] input[name="until"]');
const toastText = () => document.querySelector('[data-toast-type]')?.textContent ?? null;
const alertText = () => screen.queryByRole('alert')?.textContent ?? null;

/** the card as the member's steps leave it on the server: each extension accepted ends it on the day sent and counts once */
function expected(w: W) {
  const done = sentBy(w, 'extendCard').filter((r) => r.answer === 200);
  const last = done.at(-1)?.body as { until: string } | undefined;
  return {
    status: last ? 'in_use' : w.opened,
    until: last ? extendedValidUntil(last.until).getTime() : w.openedUntil,
    extensions: done.length,
  };
}
async function storedAsExpected(w: W) {
  const row = await cardRow(h.server, w.cardId);
  const e = expected(w);
  expect({ status: row.status, until: row.validUntil!.getTime(), extensions: row.extensionCount }).toEqual(e);
  return e;
}
/** the day the form proposes and sends unless the member typed another: the most the type allows */
const proposed = (w: W) => w.typed ?? addDays(lastValidDay(new Date(expected(w).until)), RULE.maxExtensionDays);

defineScreenPaths<Member>(h, {
  machine: cardExtendMachine,
  screen: '/mine/carddetail',
  inputs: Object.fromEntries(
    Object.entries(WORLDS).map(([name, c]) => [
      name,
      { cardId: 1, status: c.status, currentEnd: lastValidDay(c.validUntil), maxDays: RULE.maxExtensionDays, today: TODAY },
    ]),
  ),
  cases: {
    'date.change': ends.flatMap((end) => TYPED.map((n) => ({ until: addDays(end, n) }))),
    'xstate.done.actor.extendCard': [
      ...ends.flatMap((end) => [10, RULE.maxExtensionDays].map((n) => ({ output: extended(addDays(end, n)), answer: { server: true } }))),
      { output: tooLong, answer: tooLongNow },
    ],
    'xstate.error.actor.extendCard': [{ error: new Error('network') }],
  },
  offer: (e, s) => {
    const c = s.context as CardExtendContext;
    // the member types a day once, into a fresh form, counted from the end the form shows
    if (e.type === 'date.change') {
      const typed = (e as unknown as { until: string }).until;
      return (
        c.errorCode === undefined && c.until === addDays(c.currentEnd, c.maxDays) && TYPED.includes(daysBetween(c.currentEnd, typed) - 1)
      );
    }
    // the server's answer to the day sent: extended to it, or refused when it is beyond the type's days
    if (e.type === 'xstate.done.actor.extendCard') {
      const out = (e as unknown as { output: ReturnType<typeof extended> | typeof tooLong }).output;
      const beyond = daysBetween(c.currentEnd, c.until) - 1 > c.maxDays;
      return out.code === 200
        ? !beyond && (out as ReturnType<typeof extended>).data.validUntil === extendedValidUntil(c.until).toISOString()
        : !beyond && c.until === addDays(c.currentEnd, 10);
    }
    // one extension per path; a refusal is read and the form closed
    if (e.type === 'extend.open') return !ends.every((end) => end !== c.currentEnd) && c.errorCode === undefined;
    if (c.errorCode !== undefined && s.matches('editing')) return e.type === 'form.close';
    return true;
  },
  project: (c: CardExtendContext) => ({ status: c.status, end: c.currentEnd, until: c.until, errorCode: c.errorCode ?? null }),
  requests: { extendCard: { method: 'POST', path: /^\/api\/customers\/cards\/extend$/ } },

  async start(hh, world) {
    const m = await newMember(hh.server);
    const c = WORLDS[world as keyof typeof WORLDS];
    const card = await newCard(hh.server, m.id, { status: c.status, validUntil: c.validUntil });
    hh.jar.setClientCookie('token', m.token);
    const ui = await hh.open(`/mine/carddetail?id=${card.id}`);
    return { ui, token: m.token, cardId: card.id, openedUntil: c.validUntil.getTime(), opened: c.status };
  },

  events: {
    'extend.open': async (w) => {
      w.typed = undefined;
      await w.ui.user.click(button('extend')!);
    },
    'date.change': async (w, e) => {
      w.typed = (e as unknown as { until: string }).until;
      await act(async () => {
        fireEvent.change(dateInput()!, { target: { value: w.typed } });
      });
    },
    'extend.submit': (w) => w.ui.user.click(button('extend-submit')!),
    'form.close': async (w) => {
      w.closedAt = w.sent.length;
      await w.ui.user.click(button('extend-cancel') ?? screen.getByRole('button', { name: '关闭' }));
    },
    'network.retry': (w) => w.ui.user.click(screen.getByRole('button', { name: '重试' })),
  },

  states: {
    // the card page: its status, end date and extension count as the server has them; "extend"
    // offered while the type allows more (twice for a count card)
    idle: async (w) => {
      const e = await storedAsExpected(w);
      expect(formOpen()).toBe(false);
      expect(document.querySelector('[data-card-valid-until]')?.textContent, 'the last valid day').toBe(
        shanghaiDate(new Date(e.until - 1)),
      );
      expect(document.querySelector('[data-card-extensions]')?.textContent).toBe(String(e.extensions));
      expect(screen.getAllByText({ in_use: '使用中', expired: '已过期', frozen: '已冻结' }[e.status]).length).toBeGreaterThan(0);
      if (e.status === 'frozen') {
        // spec §5: only a card in use or expired is extended; the reason is said instead
        expect(button('extend')).toBe(null);
        expect(document.querySelector('[data-offer-refused="extend"]')?.textContent).toBe('延期：会员卡已冻结');
      } else expect(button('extend')?.textContent).toBe('延期');
      const last = w.sent.findLastIndex((r) => r.invoke === 'extendCard');
      if (w.sent[last]?.answer === 200) expect(toastText()).toBe('会员卡已延期');
      // a refusal is said in the form until the member closes it
      if (last >= 0 && w.sent[last]!.answer === tooLong.code)
        expect(w.closedAt ?? -1, 'the member closed the form after the refusal').toBeGreaterThan(last);
    },
    // the form: the day proposed or typed, the rule, and whether it can be sent
    editing: async (w) => {
      const e = await storedAsExpected(w);
      const end = lastValidDay(new Date(e.until));
      expect(dateInput()?.value).toBe(proposed(w));
      expect(document.querySelector('[data-extend-rule]')?.textContent).toBe(
        `当前到期日期 ${end}；每次最多延期${RULE.maxExtensionDays}天，共可延期${RULE.maxExtensions}次，免费。`,
      );
      // the picker offers only the days the type's rule allows: later than the end (not before today), at most its days after it
      expect(dateInput()?.min).toBe(addDays(end, 1) < TODAY ? TODAY : addDays(end, 1));
      expect(dateInput()?.max).toBe(addDays(end, RULE.maxExtensionDays));
      // a day the rule refuses is said at the date and cannot be sent
      const days = daysBetween(end, proposed(w)) - 1;
      const wrong = days <= 0 ? '延期日期须晚于当前到期日期' : days > RULE.maxExtensionDays ? '延期天数超过了该卡种允许的上限' : null;
      const field = dateInput()!.closest('li')!;
      expect(field.querySelector('[data-extend-date-wrong]')?.textContent ?? null).toBe(wrong);
      expect(button('extend-submit')?.disabled, 'a day the rule refuses cannot be sent').toBe(wrong !== null);
      const refused = sentBy(w, 'extendCard').at(-1)?.answer === tooLong.code;
      expect(alertText()).toBe(refused ? '延期天数超过了该卡种允许的上限' : null);
    },
    extending: async (w) => {
      await storedAsExpected(w);
      expect(button('extend-submit')?.textContent).toBe('正在延期…');
      expect(button('extend-submit')?.disabled).toBe(true);
      expect(w.held.get('extendCard')?.map((r) => r.body)).toEqual([{ id: w.cardId, until: proposed(w) }]);
    },
    unreachable: async (w) => {
      await storedAsExpected(w);
      expect(sentBy(w, 'extendCard').at(-1)?.answer).toBe('network');
      expect(alertText()).toContain('网络无法连接');
      expect(formOpen()).toBe(false);
    },
  },

  effects: {
    'extend.submit': (w, _e, before) => {
      const [tap] = sentBy(w, 'extendCard', before);
      expect(tap?.key, 'the request carries an Idempotency-Key').toBeDefined();
      expect(
        sentBy(w, 'extendCard')
          .slice(0, -1)
          .map((r) => r.key),
        'a new intent, a new key',
      ).not.toContain(tap!.key);
    },
    'network.retry': (w, _e, before) => {
      const [again] = sentBy(w, 'extendCard', before);
      expect(again, 'a retry sends the request again').toBeDefined();
      expect(again!.key, 'the same intent: the same key').toBe(sentBy(w, 'extendCard').at(-2)?.key);
    },
    'extend.open': (w, _e, before) => expect(sentBy(w, 'extendCard', before)).toEqual([]),
    // closing (the form, or what a failure said) sends nothing and leaves nothing to read or retry
    'form.close': (w, _e, before) => {
      expect(sentBy(w, 'extendCard', before)).toEqual([]);
      expect(formOpen()).toBe(false);
      expect(alertText()).toBe(null);
    },
    'date.change': (w, _e, before) => expect(sentBy(w, 'extendCard', before)).toEqual([]),
  },
});
