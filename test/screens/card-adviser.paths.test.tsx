// @vitest-environment jsdom
import { act, fireEvent } from '@testing-library/react';
import { asc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { cardAdviserMachine, type CardAdviserContext } from '../../machines/card-adviser.machine';
import { advisers, cardAdviserChanges, clubs } from '../../src/server/db/schema/index';
import { cardRow, newCard, newMember } from '../server/booking/support';
import { screen, startScreenHarness } from './support/screen-harness';
import { defineScreenPaths, sentBy, type World } from './support/screen-paths';

/**
 * Changing a card's adviser on /mine/carddetail (spec §4 "change adviser", §5 "adviser change needs
 * club and adviser"; decision 034): the page says who advises the card (none at first); "change
 * adviser" reads the clubs, the member chooses a club (its advisers are read) and then one of them;
 * confirming without a club, or without an adviser, says which is missing and sends nothing; the
 * server stores the change (who, from, to, when), the page shows the new adviser and the card's
 * timeline the change; choosing the card's adviser again is refused by the server (30049) and said in
 * the form; a transferred card refuses (30013) and says why. Each read or the change lost on the
 * network once offers a retry (the change under the same key) or closing.
 */
const h = await startScreenHarness({ seed: true });
const db = h.server.deps.db;
/** the seeded clubs and their advisers, as the server lists them (zh) */
const CLUBS = (await db.select({ id: clubs.id, name: clubs.name }).from(clubs).orderBy(asc(clubs.sort), asc(clubs.id))).map((c) => ({
  id: c.id,
  name: c.name,
}));
const CLUB_NAME = new Map(CLUBS.map((c) => [c.id, c.name]));
const adviserRows = await db.select().from(advisers).orderBy(asc(advisers.sort), asc(advisers.id));
const ADVISERS_OF = (clubId: number) =>
  adviserRows.filter((a) => a.clubId === clubId).map((a) => ({ id: a.id, name: a.name, clubId, clubName: CLUB_NAME.get(clubId)! }));
/** the two clubs a member chooses, and the first adviser of each */
const [CLUB_A, CLUB_B] = [CLUBS[0]!.id, CLUBS[1]!.id];
const [ADVISER_A, ADVISER_B] = [ADVISERS_OF(CLUB_A)[0]!, ADVISERS_OF(CLUB_B)[0]!];
const adviserById = new Map(
  adviserRows.map((a) => [a.id, { id: a.id, name: a.name, clubId: a.clubId, clubName: CLUB_NAME.get(a.clubId)! }]),
);

const WORLDS = { 'a card in use': 'in_use', 'a transferred card': 'transferred' } as const;

interface Member {
  token: string;
  accountId: number;
  cardId: number;
  /** the club and adviser the member chose in the open form */
  club?: number;
  pick?: number;
  /** the field the member was told is missing */
  missing?: 'clubId' | 'adviserId';
  /** how many requests had been sent when the form was last opened */
  openedAt: number;
}
type W = World<Member>;

const changed = (adviserId: number) => ({ code: 200, status: true, data: { status: 'in_use', adviser: adviserById.get(adviserId)! } });
const unchanged = { code: 30049, status: false, data: null };

const button = (action: string) => document.querySelector<HTMLButtonElement>(`[data-action="${action}"]`);
const formOpen = () => document.querySelector('[data-adviser-form]') !== null;
const select = (name: string) => document.querySelector<HTMLSelectElement>(`[data-adviser-form] select[name="${name}"]`);
const options = (name: string) => [...(select(name)?.options ?? [])].map((o) => o.textContent);
const toastText = () => document.querySelector('[data-toast-type]')?.textContent ?? null;
const alertText = () => screen.queryByRole('alert')?.textContent ?? null;

/** the card's adviser by the member's steps: the adviser of the last change the server accepted */
function expectedAdviser(w: W): number | null {
  const done = sentBy(w, 'changeAdviser').filter((r) => r.answer === 200);
  return (done.at(-1)?.body as { adviserId: number } | undefined)?.adviserId ?? null;
}
/** the card as the server has it: its adviser and one stored change for each change accepted */
async function storedAsExpected(w: W) {
  const want = expectedAdviser(w);
  expect((await cardRow(h.server, w.cardId)).adviserId, 'the stored adviser').toBe(want);
  const changes = await db
    .select()
    .from(cardAdviserChanges)
    .where(eq(cardAdviserChanges.cardId, w.cardId))
    .orderBy(asc(cardAdviserChanges.id));
  const accepted = sentBy(w, 'changeAdviser').filter((r) => r.answer === 200);
  // who changed it, from whom, to whom: each accepted change once
  expect(changes.map((c) => [c.changedBy, c.fromAdviserId, c.toAdviserId])).toEqual(
    accepted.map((r, i) => [
      w.accountId,
      i === 0 ? null : (accepted[i - 1]!.body as { adviserId: number }).adviserId,
      (r.body as { adviserId: number }).adviserId,
    ]),
  );
  return want;
}

defineScreenPaths<Member>(h, {
  machine: cardAdviserMachine,
  screen: '/mine/carddetail',
  inputs: Object.fromEntries(Object.entries(WORLDS).map(([name, status]) => [name, { cardId: 1, status, adviser: null }])),
  cases: {
    'club.choose': [{ clubId: CLUB_A }, { clubId: CLUB_B }],
    'adviser.choose': [{ adviserId: ADVISER_A.id }, { adviserId: ADVISER_B.id }],
    'xstate.done.actor.loadClubs': [{ output: CLUBS, answer: { server: true } }],
    'xstate.error.actor.loadClubs': [{ error: new Error('network') }],
    'xstate.done.actor.loadAdvisers': [CLUB_A, CLUB_B].map((id) => ({ output: ADVISERS_OF(id), answer: { server: true } })),
    'xstate.error.actor.loadAdvisers': [{ error: new Error('network') }],
    'xstate.done.actor.changeAdviser': [
      { output: changed(ADVISER_A.id), answer: { server: true } },
      { output: changed(ADVISER_B.id), answer: { server: true } },
      { output: unchanged, answer: { server: true } },
    ],
    'xstate.error.actor.changeAdviser': [{ error: new Error('network') }],
  },
  offer: (e, s) => {
    const c = s.context as CardAdviserContext;
    const first = c.adviser === null;
    // the network loses each request only before the first change
    if (e.type.startsWith('xstate.error.actor.')) return first;
    // the advisers read are the chosen club's
    if (e.type === 'xstate.done.actor.loadAdvisers')
      return (e as unknown as { output: { clubId: number }[] }).output[0]!.clubId === c.clubId;
    // the server's answer to the adviser sent: changed to it, or refused when it is the card's already
    if (e.type === 'xstate.done.actor.changeAdviser') {
      const out = (e as unknown as { output: ReturnType<typeof changed> | typeof unchanged }).output;
      return out.code === 200
        ? c.adviser?.id !== c.adviserId && (out as ReturnType<typeof changed>).data.adviser.id === c.adviserId
        : c.adviser?.id === c.adviserId;
    }
    // a refusal is read and the form closed
    if (c.errorCode !== undefined && s.matches('choosing')) return e.type === 'form.close';
    // a club once per form; an adviser once, of the club chosen (the list offers only those)
    if (e.type === 'club.choose') return c.clubId === undefined;
    if (e.type === 'adviser.choose')
      return c.adviserId === undefined && c.advisers.some((a) => a.id === (e as unknown as { adviserId: number }).adviserId);
    // the member changes it at most twice: to the first club's adviser (again: refused), then to the second's
    if (e.type === 'adviser.open') return c.adviser?.id !== ADVISER_B.id;
    return true;
  },
  project: (c: CardAdviserContext) => ({
    status: c.status,
    adviser: c.adviser?.id ?? null,
    clubId: c.clubId ?? null,
    adviserId: c.adviserId ?? null,
    advisers: c.advisers.map((a) => a.id),
    clubs: c.clubs.length,
    missing: c.missing ?? null,
    errorCode: c.errorCode ?? null,
    failed: c.failed ?? null,
  }),
  requests: {
    loadClubs: { method: 'GET', path: /^\/api\/school\/clubs$/ },
    loadAdvisers: { method: 'GET', path: /^\/api\/customers\/cards\/advisers$/ },
    changeAdviser: { method: 'POST', path: /^\/api\/customers\/cards\/adviser$/ },
  },

  async start(hh, world) {
    const m = await newMember(hh.server);
    const card = await newCard(hh.server, m.id, { status: WORLDS[world as keyof typeof WORLDS] });
    hh.jar.setClientCookie('token', m.token);
    const ui = await hh.open(`/mine/carddetail?id=${card.id}`);
    return { ui, token: m.token, accountId: m.id, cardId: card.id, openedAt: 0 };
  },

  events: {
    'adviser.open': async (w) => {
      w.club = w.pick = w.missing = undefined;
      w.openedAt = w.sent.length;
      await w.ui.user.click(button('change-adviser')!);
    },
    'club.choose': async (w, e) => {
      w.club = (e as unknown as { clubId: number }).clubId;
      w.pick = w.missing = undefined;
      await act(async () => {
        fireEvent.change(select('clubId')!, { target: { value: String(w.club) } });
      });
    },
    'adviser.choose': async (w, e) => {
      w.pick = (e as unknown as { adviserId: number }).adviserId;
      w.missing = undefined;
      await act(async () => {
        fireEvent.change(select('adviserId')!, { target: { value: String(w.pick) } });
      });
    },
    'adviser.submit': async (w) => {
      w.missing = w.club === undefined ? 'clubId' : w.pick === undefined ? 'adviserId' : undefined;
      await w.ui.user.click(button('adviser-submit')!);
    },
    'form.close': (w) => w.ui.user.click(button('adviser-cancel') ?? screen.getByRole('button', { name: '关闭' })),
    'network.retry': (w) => w.ui.user.click(screen.getByRole('button', { name: '重试' })),
  },

  states: {
    // the card page: who advises the card (as the server has it), "change adviser" or why not, and
    // each change on the card's timeline
    idle: async (w) => {
      const want = await storedAsExpected(w);
      expect(formOpen()).toBe(false);
      const a = want === null ? null : adviserById.get(want)!;
      expect(document.querySelector('[data-card-adviser]')?.textContent).toBe(a ? `顾问：${a.name}（${a.clubName}）` : '顾问：未选择');
      const changes = sentBy(w, 'changeAdviser').filter((r) => r.answer === 200).length;
      expect(document.querySelectorAll('[data-card-history="adviser"]').length, 'the changes on the timeline').toBe(changes);
      if ((await cardRow(h.server, w.cardId)).status === 'transferred') {
        expect(button('change-adviser')).toBe(null);
        expect(document.querySelector('[data-offer-refused="changeAdviser"]')?.textContent).toBe('更换顾问：会员卡已转让');
      } else expect(button('change-adviser')?.textContent).toBe('更换顾问');
      const last = sentBy(w, 'changeAdviser').at(-1);
      if (last?.answer === 200) expect(toastText()).toBe('顾问已更换');
    },
    loadingClubs: async (w) => {
      await storedAsExpected(w);
      expect(document.querySelector('[data-adviser-loading]')?.textContent).toBe('正在加载门店…');
      expect(w.held.get('loadClubs')?.length).toBe(1);
      expect(formOpen()).toBe(false);
    },
    // the form: every club to choose from, the chosen club's advisers, what is missing or refused
    choosing: async (w) => {
      await storedAsExpected(w);
      expect(options('clubId')).toEqual(['请选择门店', ...CLUBS.map((c) => c.name)]);
      expect(select('clubId')?.value).toBe(w.club === undefined ? '' : String(w.club));
      expect(options('adviserId')).toEqual(['请选择顾问', ...(w.club === undefined ? [] : ADVISERS_OF(w.club).map((a) => a.name))]);
      expect(select('adviserId')?.disabled, 'an adviser is chosen after a club').toBe(w.club === undefined);
      expect(select('adviserId')?.value).toBe(w.pick === undefined ? '' : String(w.pick));
      expect(button('adviser-submit')?.disabled).toBe(false);
      const refused = sentBy(w, 'changeAdviser', w.openedAt).at(-1)?.answer === unchanged.code;
      const said =
        w.missing === 'clubId' ? '请选择门店' : w.missing === 'adviserId' ? '请选择顾问' : refused ? '这位顾问已是这张会员卡的顾问' : null;
      expect(alertText()).toBe(said);
      if (w.missing) expect(document.querySelector('[data-adviser-missing]')?.getAttribute('data-adviser-missing')).toBe(w.missing);
    },
    loadingAdvisers: async (w) => {
      await storedAsExpected(w);
      expect(options('adviserId')).toEqual(['正在加载顾问…']);
      expect(button('adviser-submit')?.disabled, 'nothing is confirmed while the advisers load').toBe(true);
      expect(w.held.get('loadAdvisers')?.map((r) => r.path)).toEqual([`/api/customers/cards/advisers?clubId=${w.club}`]);
    },
    changing: async (w) => {
      await storedAsExpected(w);
      expect(button('adviser-submit')?.textContent).toBe('正在更换…');
      expect(button('adviser-submit')?.disabled).toBe(true);
      expect(w.held.get('changeAdviser')?.map((r) => r.body)).toEqual([{ id: w.cardId, clubId: w.club, adviserId: w.pick }]);
    },
    unreachable: async (w) => {
      await storedAsExpected(w);
      expect(w.sent.at(-1)?.answer).toBe('network');
      expect(alertText()).toContain('网络无法连接');
      expect(formOpen()).toBe(false);
    },
  },

  effects: {
    // a confirm with both chosen is a new intent with a new key; with one missing it sends nothing and
    // the form stays open saying which field is missing
    'adviser.submit': (w, _e, before) => {
      const [tap] = sentBy(w, 'changeAdviser', before);
      if (w.missing) {
        expect(formOpen(), 'the form stays open').toBe(true);
        expect(document.querySelector('[data-adviser-missing]')?.getAttribute('data-adviser-missing')).toBe(w.missing);
        return expect(tap, 'nothing is sent while a field is missing').toBeUndefined();
      }
      expect(tap?.key, 'the request carries an Idempotency-Key').toBeDefined();
      expect(
        sentBy(w, 'changeAdviser')
          .slice(0, -1)
          .map((r) => r.key),
        'a new intent, a new key',
      ).not.toContain(tap!.key);
    },
    // a retry sends again what was lost: the change under the same key
    'network.retry': (w, _e, before) => {
      const again = w.sent.slice(before);
      expect(again.length, 'a retry sends one request again').toBe(1);
      const lost = w.sent[before - 1]!;
      expect([again[0]!.invoke, again[0]!.path]).toEqual([lost.invoke, lost.path]);
      if (lost.invoke === 'changeAdviser') expect(again[0]!.key, 'the same intent: the same key').toBe(lost.key);
    },
    // the chosen club's advisers are offered in the open form once read
    'xstate.done.actor.loadAdvisers': (w) => {
      expect(formOpen(), 'the form is open').toBe(true);
      expect(options('adviserId')).toEqual(['请选择顾问', ...ADVISERS_OF(w.club!).map((a) => a.name)]);
    },
    // a refusal is said in the form, which stays open to choose again
    'xstate.done.actor.changeAdviser': (w) => {
      if (sentBy(w, 'changeAdviser').at(-1)?.answer !== unchanged.code) return;
      expect(formOpen(), 'the form stays open').toBe(true);
      expect(alertText()).toBe('这位顾问已是这张会员卡的顾问');
    },
    'adviser.open': (w, _e, before) => expect(sentBy(w, 'changeAdviser', before)).toEqual([]),
    'club.choose': (w, _e, before) => expect(sentBy(w, 'changeAdviser', before)).toEqual([]),
    'adviser.choose': (w, _e, before) => expect(w.sent.slice(before)).toEqual([]),
    // closing sends nothing and leaves nothing to read or retry
    'form.close': (w, _e, before) => {
      expect(w.sent.slice(before)).toEqual([]);
      expect(formOpen()).toBe(false);
      expect(alertText()).toBe(null);
    },
  },
});
