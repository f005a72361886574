// @vitest-environment jsdom
import { expect } from 'vitest';
import { pagerMachine, type PagerContext } from '../../machines/pager.machine';
import { CATALOGUE_PAGE_SIZE } from '../../src/app/screens/catalog/courses/catalogue-view';
import { newGoods } from '../server/orders/support';
import { screen, startScreenHarness } from './support/screen-harness';
import { defineScreenPaths, sentBy, type World } from './support/screen-paths';

/**
 * A list that pages as the member scrolls (DESIGN.md §5), walked on the open classes' catalogue
 * (/commonClass, spec §2 "Class types"): the first page comes with the screen; "load more" (or the
 * list's end scrolling into view, which jsdom cannot do) asks the server for the next page; a page
 * that does not come says so and offers a retry for that same page; the list ends when every class
 * on the shelf is shown. The worlds: 25 open classes on the shelf, 10 a page (pages 0, 1 and 2);
 * the seed's workshops, all on the first page.
 */
const h = await startScreenHarness({ seed: true });

const TOTAL = 25;
const PAGE = CATALOGUE_PAGE_SIZE;
const listOf = (kind: string, pagesize: number) =>
  h.server.call('GET', `/api/product/goods/goodList?kind=${kind}&pagenum=0&pagesize=${pagesize}`);
const seeded = (await listOf('open', 1)).body.data.total as number;
for (let i = seeded; i < TOTAL; i++)
  await newGoods(h.server, { kind: 'open', name: `公开课 ${i + 1}`, cardType: null, uses: null, validityDays: null });
/** the classes on each shelf in the server's order: 25 open classes; the seed's workshops fit on one page */
const shelves = {
  open: ((await listOf('open', TOTAL)).body.data.list as Array<{ id: number }>).map((g) => g.id),
  workshop: ((await listOf('workshop', PAGE)).body.data.list as Array<{ id: number }>).map((g) => g.id),
};
const screens = { open: '/commonClass', workshop: '/greatworkshop' };
const kindOf = { '25 open classes': 'open', 'the workshops, one page': 'workshop' } as const;

interface Shelf {
  kind: 'open' | 'workshop';
  shelf: number[];
  /** the member's taps on "load more" and on retry */
  taps: number;
}
type W = World<Shelf>;

const page = (rows: number) => ({
  code: 200,
  status: true,
  data: { list: Array.from({ length: rows }, (_, i) => i), total: TOTAL, pagenum: 0, pagesize: PAGE },
});

const shown = () =>
  [...document.querySelectorAll<HTMLElement>('[data-list^="catalogue-"] [data-goods]')].map((e) => Number(e.dataset.goods));
const moreButton = () => document.querySelector<HTMLButtonElement>('[data-more]');
const pagesAsked = (w: W) => sentBy(w, 'fetchPage').map((r) => Number(new URL(r.path, 'http://x').searchParams.get('pagenum')));
/** the pages the server gave (its first page came with the screen) */
const pagesGiven = (w: W) => 1 + sentBy(w, 'fetchPage').filter((r) => r.answer === 200).length;
/** a page is asked only when the member asks (jsdom scrolls nothing into view): one request a tap */
const askedOnlyByTaps = (w: W) => expect(sentBy(w, 'fetchPage').length, 'one page asked per tap, none by itself').toBe(w.taps);
const tap = async (w: W, name: string) => {
  const button = screen.getByRole('button', { name });
  w.taps++;
  await w.ui.user.click(button);
};
const showsPagesGiven = (w: W) =>
  expect(shown(), 'the classes of the pages given, in the shelf order, each once').toEqual(
    w.shelf.slice(0, Math.min(TOTAL, PAGE * pagesGiven(w))),
  );

defineScreenPaths<Shelf>(h, {
  machine: pagerMachine,
  screen: '/commonClass',
  // the first page as the screen's loader reads it
  inputs: {
    '25 open classes': { first: page(PAGE).data },
    'the workshops, one page': { first: { list: shelves.workshop, total: shelves.workshop.length, pagenum: 0, pagesize: PAGE } },
  },
  cases: {
    'xstate.done.actor.fetchPage': [
      { output: page(PAGE), answer: { server: true } },
      { output: page(TOTAL - 2 * PAGE), answer: { server: true } },
      // the server could not answer (its database down): a path cannot make that cheaply
      {
        output: { code: 503, status: false },
        answer: { status: 503, body: { code: 503, status: false, data: null, message: 'unavailable' } },
      },
    ],
    'xstate.error.actor.fetchPage': [{ error: new Error('network') }],
  },
  // the server gives a full page while more than a page is left, then the rest
  offer: (e, s) => {
    if (e.type !== 'xstate.done.actor.fetchPage') return true;
    const rows = ((e as unknown as { output: { data?: { list: unknown[] } } }).output.data?.list ?? []).length;
    return rows === 0 || rows === Math.min(PAGE, TOTAL - (s.context as PagerContext).loaded);
  },
  project: (c: PagerContext) => c.loaded,
  // the screen's loader reads the first page with the same request
  requests: { fetchPage: { method: 'GET', path: /^\/api\/product\/goods\/goodList$/, shared: true } },

  async start(hh, input) {
    const kind = kindOf[input as keyof typeof kindOf];
    const ui = await hh.open(screens[kind]);
    return { ui, kind, shelf: shelves[kind], taps: 0 };
  },

  events: {
    'pager.load': (w) => tap(w, '加载更多'),
    'pager.retry': (w) => tap(w, '加载失败，点击重试'),
  },

  states: {
    more: (w) => {
      askedOnlyByTaps(w);
      // a page that did not come is said, never passed over as "load more"
      expect(sentBy(w, 'fetchPage').at(-1)?.answer ?? 200, 'the last page asked came').toBe(200);
      showsPagesGiven(w);
      expect(shown().length).toBeLessThan(TOTAL);
      expect(moreButton()?.textContent).toBe('加载更多');
      expect(moreButton()?.disabled).toBe(false);
      expect(w.held.get('fetchPage') ?? [], 'nothing in flight').toEqual([]);
    },
    loading: (w) => {
      askedOnlyByTaps(w);
      showsPagesGiven(w);
      expect(moreButton()?.textContent).toBe('加载中');
      expect(moreButton()?.disabled).toBe(true);
      const held = w.held.get('fetchPage') ?? [];
      expect(held.length, 'one page in flight').toBe(1);
      const q = new URL(held[0]!.path, 'http://x').searchParams;
      expect([q.get('kind'), Number(q.get('pagenum')), Number(q.get('pagesize'))], 'the page after those given').toEqual([
        w.kind,
        pagesGiven(w),
        PAGE,
      ]);
    },
    failed: (w) => {
      askedOnlyByTaps(w);
      expect(sentBy(w, 'fetchPage').at(-1)?.answer).not.toBe(200);
      showsPagesGiven(w);
      expect(moreButton()?.textContent).toBe('加载失败，点击重试');
      expect(moreButton()?.disabled).toBe(false);
      expect(w.held.get('fetchPage') ?? []).toEqual([]);
    },
    exhausted: (w) => {
      askedOnlyByTaps(w);
      expect(shown(), 'every class on the shelf, once, in order').toEqual(w.shelf);
      expect(w.shelf.length).toBeGreaterThan(0);
      expect(moreButton(), 'nothing more to load').toBe(null);
      // each later page asked once it was given: none when the first page held them all
      const given = pagesAsked(w).filter((_, i) => sentBy(w, 'fetchPage')[i]!.answer === 200);
      expect(given).toEqual(w.kind === 'open' ? [1, 2] : []);
    },
  },

  effects: {
    // a tap asks for the next page once; a retry asks for the page that failed again
    'pager.load': (w, _e, before) => {
      expect(sentBy(w, 'fetchPage', before).length).toBe(1);
    },
    'pager.retry': (w, _e, before) => {
      const [again] = sentBy(w, 'fetchPage', before);
      expect(again, 'a retry asks again').toBeDefined();
      expect(again!.path, 'the same page').toBe(sentBy(w, 'fetchPage').at(-2)?.path);
    },
  },
});
