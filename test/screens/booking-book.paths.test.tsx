// @vitest-environment jsdom
import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { bookingBookMachine, type BookClassContext } from '../../machines/booking-book.machine';
import { bookings } from '../../src/server/db/schema/index';
import { book, cardRow, newCard, newClass, newMember } from '../server/booking/support';
import { screen, startScreenHarness } from './support/screen-harness';
import { defineScreenPaths, oneKeyPerIntent, type Sent, type World } from './support/screen-paths';

/**
 * Booking a class (/takecourse/bookcourse/bookcourseconfirm?id=, spec §5): the member's
 * cards for the class are loaded (none usable: sent to buy one); a card and the member notice are
 * required; a confirm names the card; the server answers with a seat, a queue place or a refusal
 * (here: booked on another phone meanwhile); a lost answer is retried under the same key.
 *
 * Worlds, told apart by the class id the walk starts with: 1, a class with room and a member with
 * two cards that fit and one that does not; 2, a member with no card that fits; 3, a full class.
 */
const h = await startScreenHarness({ seed: true });

const ROOM = 1;
const NO_CARD = 2;
const FULL = 3;
const USES = 10;

interface Member {
  token: string;
  accountId: number;
  classId: number;
  /** the walk's card ids (1, 2 fit; 3 does not) to the real ones */
  cards: Record<number, { id: number; name: string }>;
  chosen?: number;
  agreed: boolean;
  /** the member's last tap: "please agree first" answers a tap on submit, never the cards' arrival */
  last?: 'card' | 'notice' | 'submit' | 'confirm' | 'back' | 'retry';
}
type W = World<Member>;

const card = (id: number, usable: boolean) => ({ id, usable, code: usable ? null : 20010, message: null, reminders: [] });
const loaded = (classId: number) => ({
  code: 200,
  status: true,
  data: classId === NO_CARD ? [card(3, false)] : classId === FULL ? [card(1, true)] : [card(1, true), card(2, true), card(3, false)],
});
const seat = { code: 200, status: true, data: { bookingId: 1, state: 'booked' } };
const queue = { code: 200, status: true, data: { bookingId: 1, state: 'queued', position: 1 } };
const already = { code: 20006, status: false, data: null };

const requests = (w: W, invoke: string, since = 0): Sent[] => w.sent.slice(since).filter((r) => r.invoke === invoke);
const alertText = () => document.querySelector('[data-book-feedback]')?.textContent || null;
const submitButton = () => document.querySelector<HTMLButtonElement>('[data-action="submit-booking"]');
const dialog = (name: string) => screen.queryByRole('button', { name });
const chosenOnScreen = () => document.querySelector<HTMLInputElement>('input[name="card"]:checked')?.value ?? null;

async function myBookings(w: W) {
  return h.server.deps.db
    .select()
    .from(bookings)
    .where(and(eq(bookings.accountId, w.accountId), eq(bookings.classId, w.classId)));
}
/** on the form: the choice and the notice as the member left them, nothing booked */
async function form(w: W, feedback: string | null) {
  expect(chosenOnScreen()).toBe(w.chosen ? String(w.cards[w.chosen]!.id) : null);
  expect(document.querySelector<HTMLInputElement>('input[name="agreeNotice"]')?.checked ?? w.agreed).toBe(w.agreed);
  expect(alertText()).toBe(feedback);
  expect(submitButton()?.disabled).toBe(false);
  const elsewhere = requests(w, 'book').some((r) => r.answer === already.code);
  expect((await myBookings(w)).length, 'nothing booked from this screen').toBe(elsewhere ? 1 : 0);
}

defineScreenPaths<Member>(h, {
  machine: bookingBookMachine,
  screen: '/takecourse/bookcourse/bookcourseconfirm',
  inputs: {
    'a class with room': { classId: ROOM },
    'a member with no card that fits': { classId: NO_CARD },
    'a full class': { classId: FULL },
  },
  cases: {
    'card.choose': [{ cardId: 1 }, { cardId: 2 }, { cardId: 3 }],
    'xstate.done.actor.loadCards': [
      { output: loaded(ROOM), answer: { server: true } },
      { output: loaded(NO_CARD), answer: { server: true } },
      { output: loaded(FULL), answer: { server: true } },
      // the class was withdrawn after the page opened: an answer the path cannot make cheaply
      {
        output: { code: 70004, status: false, data: null },
        answer: { status: 404, body: { code: 70004, status: false, data: null, msg: 'not found' } },
      },
    ],
    'xstate.error.actor.loadCards': [{ error: new Error('network') }],
    'xstate.done.actor.book': [
      { output: seat, answer: { server: true } },
      { output: queue, answer: { server: true } },
      {
        output: already,
        // booked on another phone a moment ago
        answer: { server: true, arrange: (w: W) => book(h.server, w.token, w.classId, w.cards[w.chosen!]!.id).then(() => {}) },
      },
    ],
    'xstate.error.actor.book': [{ error: new Error('network') }],
  },
  offer: (e, s) => {
    const c = s.context as BookClassContext;
    const world = c.classId;
    const output = (e as { output?: { code: number; data: unknown } }).output;
    switch (e.type) {
      // the server answers for this world's member and class
      case 'xstate.done.actor.loadCards':
        return output!.code === 70004 ? world === ROOM : JSON.stringify(output) === JSON.stringify(loaded(world));
      case 'xstate.done.actor.book':
        if (c.errorCode === already.code) return output!.code === already.code;
        return output === (world === FULL ? queue : seat) || output!.code === already.code;
      case 'card.choose':
        // one change of mind from the card chosen for the member, or after trying the unfit one
        return (
          world === ROOM && e.cardId !== c.cardId && (c.cardId === 1 || c.errorCode === 20010) && !(c.errorCode === 20010 && e.cardId === 3)
        );
      case 'notice.toggle':
        return !c.agreed;
      default:
        return true;
    }
  },
  project: (c: BookClassContext) => ({
    cards: c.cards.length,
    cardId: c.cardId ?? null,
    agreed: c.agreed,
    errorCode: c.errorCode ?? null,
  }),
  requests: {
    loadCards: { method: 'GET', path: /^\/api\/customers\/classes\/cards$/ },
    book: { method: 'POST', path: /^\/api\/customers\/classes\/book$/ },
  },

  async start(hh, input) {
    const m = await newMember(hh.server);
    const cards: Member['cards'] = {};
    // card 1 ends 70 days before card 2: the one lost first, listed and chosen first
    const fits = async (n: number) => {
      const c = await newCard(hh.server, m.id, {
        name: `测试次卡${n}`,
        ...(n === 1 ? { validUntil: new Date(hh.server.clock.now().getTime() + 100 * 86_400_000) } : {}),
      });
      cards[n] = { id: c.id, name: c.name };
    };
    // a card for small-group classes only does not fit a regular class (20010)
    const unfit = async () => {
      const c = await newCard(hh.server, m.id, { name: '小班卡', allowedClassTypes: ['small-group'] });
      cards[3] = { id: c.id, name: c.name };
    };
    let cls;
    if (input === 'a class with room') {
      await fits(1);
      await fits(2);
      await unfit();
      cls = await newClass(hh.server);
    } else if (input === 'a member with no card that fits') {
      await unfit();
      cls = await newClass(hh.server);
    } else {
      await fits(1);
      cls = await newClass(hh.server, { capacity: 1 });
      const other = await newMember(hh.server);
      await book(hh.server, other.token, cls.id, (await newCard(hh.server, other.id)).id);
    }
    hh.jar.setClientCookie('token', m.token);
    const ui = await hh.open(`/takecourse/bookcourse/bookcourseconfirm?id=${cls.id}`);
    // the best card that fits is chosen for the member: card 1 (it ends first)
    const best = input === 'a member with no card that fits' ? undefined : 1;
    return { ui, token: m.token, accountId: m.id, classId: cls.id, cards, chosen: best, agreed: false };
  },

  events: {
    'card.choose': async (w, e) => {
      const sym = e.cardId as number;
      w.last = 'card';
      // an unfit card cannot be taken: the choice stays
      if (sym !== 3) w.chosen = sym;
      await w.ui.user.click(document.querySelector(`[data-card="${w.cards[sym]!.id}"] input`)!);
    },
    'notice.toggle': async (w) => {
      w.last = 'notice';
      w.agreed = !w.agreed;
      await w.ui.user.click(screen.getByText('我已阅读并同意'));
    },
    'booking.submit': (w) => {
      w.last = 'submit';
      return w.ui.user.click(submitButton()!);
    },
    'booking.confirm': async (w) => {
      w.last = 'confirm';
      await w.ui.user.click((await screen.findByRole('button', { name: '确定' })) as HTMLElement);
    },
    'booking.back': async (w) => {
      w.last = 'back';
      await w.ui.user.click((await screen.findByRole('button', { name: '返回' })) as HTMLElement);
    },
    'booking.retry': async (w) => {
      w.last = 'retry';
      await w.ui.user.click(screen.getByRole('button', { name: '重试' }));
    },
  },

  states: {
    loadingCards: (w) => {
      expect(document.querySelector('[data-skeleton]')).not.toBe(null);
      expect(w.held.get('loadCards')?.map((r) => r.path)).toEqual([`/api/customers/classes/cards?classId=${w.classId}`]);
    },
    cardsUnreachable: (w) => {
      expect(requests(w, 'loadCards').at(-1)?.answer).toBe('network');
      expect(screen.getByRole('alert').textContent).toContain('网络无法连接');
    },
    unavailable: (w) => {
      expect(requests(w, 'loadCards').at(-1)?.answer).toBe(70004);
      expect(screen.getByText('这节课不能预约')).toBeTruthy();
    },
    needsCard: (w) => {
      // only where the server has no card that fits
      expect(Object.keys(w.cards)).toEqual(['3']);
      // the member's cards are listed, each refused, above the way to buy one
      expect(screen.getByText('您的会员卡都不能预约这节课')).toBeTruthy();
      const shown = [...document.querySelectorAll<HTMLElement>('[data-cards-not-usable] [data-card]')].map((el) => el.dataset.card);
      expect(shown).toEqual([String(w.cards['3']!.id)]);
      expect(screen.getByText('去购买会员卡').closest('a')?.getAttribute('href')).toBe('/vipcard?tab=shop');
    },
    // the cards the server says, with the unfit one marked
    // the cards the server says, best first (the one ending first), the unfit one last
    choosing: (w) => {
      const shown = [...document.querySelectorAll<HTMLElement>('[data-card]')].map((el) => [el.dataset.card, el.dataset.usable]);
      const want = Object.entries(w.cards).map(([sym, c]) => [String(c.id), String(sym !== '3')]);
      expect(shown).toEqual(want);
    },
    'choosing.editing': (w) => form(w, null),
    'choosing.noticeMissing': async (w) => {
      expect(w.last, 'said after a tap on submit').toBe('submit');
      await form(w, '请先阅读并同意会员须知');
      expect(w.chosen).toBeDefined();
      expect(w.agreed).toBe(false);
    },
    'choosing.cardUnusable': (w) => form(w, '超出会员卡权益范围'),
    'choosing.refused': async (w) => {
      expect(requests(w, 'book').at(-1)?.answer).toBe(already.code);
      await form(w, '您已预约过该课程');
    },
    confirming: (w) => {
      expect(screen.getByText(`使用：${w.cards[w.chosen!]!.name}`)).toBeTruthy();
      expect(dialog('确定')).not.toBe(null);
    },
    submitting: (w) => {
      expect(submitButton()?.textContent).toBe('提交中…');
      expect(submitButton()?.disabled).toBe(true);
      expect(w.held.get('book')?.map((r) => r.body)).toEqual([{ classId: w.classId, cardId: w.cards[w.chosen!]!.id, agreeNotice: true }]);
    },
    unreachable: async (w) => {
      expect(requests(w, 'book').at(-1)?.answer).toBe('network');
      expect(alertText()).toBe('网络无法连接');
      expect(submitButton()?.textContent).toBe('重试');
      expect(await myBookings(w)).toEqual([]);
    },
    booked: async (w) => {
      expect(screen.getByText('预约成功')).toBeTruthy();
      const [b] = await myBookings(w);
      expect([b?.state, b?.cardId]).toEqual(['booked', w.cards[w.chosen!]!.id]);
      expect((await cardRow(h.server, w.cards[w.chosen!]!.id)).usesLeft).toBe(USES - 1);
    },
    queued: async (w) => {
      expect(screen.getByText('已加入排队，当前第1位')).toBeTruthy();
      const [b] = await myBookings(w);
      expect(b?.state).toBe('queued');
    },
  },

  effects: {
    ...oneKeyPerIntent<Member>('book', { intent: 'booking.confirm', retry: 'booking.retry' }),
    // retry repeats what failed: the booking after a lost answer, else loading the cards
    'booking.retry': (w, _e, before) => {
      const failed = w.sent
        .slice(0, before)
        .filter((r) => r.answer === 'network')
        .at(-1);
      const [again, ...more] = w.sent.slice(before).filter((r) => r.invoke);
      expect(more, 'one request').toEqual([]);
      expect(again?.invoke, 'the retry repeats what failed').toBe(failed?.invoke);
      if (again?.invoke === 'book') expect(again.key, 'a retry is the same intent: the same key').toBe(failed?.key);
    },
    // choosing and ticking send nothing
    'card.choose': (w, _e, before) => expect(w.sent.slice(before).filter((r) => r.invoke)).toEqual([]),
    'notice.toggle': (w, _e, before) => expect(w.sent.slice(before).filter((r) => r.invoke)).toEqual([]),
    // back from the confirm: the form again, nothing sent
    'booking.back': (w, _e, before) => {
      expect(w.sent.slice(before).filter((r) => r.invoke)).toEqual([]);
      expect(submitButton()?.disabled, 'the form is back').toBe(false);
    },
  },
});
