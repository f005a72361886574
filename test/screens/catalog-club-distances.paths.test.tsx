// @vitest-environment jsdom
import { act } from '@testing-library/react';
import { expect } from 'vitest';
import { catalogClubDistancesMachine } from '../../machines/catalog-club-distances.machine';
import { formatDistance } from '../../src/domain/distance';
import { screen, startScreenHarness } from './support/screen-harness';
import { defineScreenPaths, sentBy, type World } from './support/screen-paths';

/**
 * How far each club is, on /club (spec §2 "clubs with distance"): the list comes at once without
 * distances; a browser that already allowed locating is asked for the position by itself, otherwise
 * the member taps "locate me"; the server counts the metres; a refusal or a failure is said with
 * "locate again". The browser (its Permissions API and geolocation) is the outside party: each path
 * plays it (allowed with a position, not allowed, no position); the distances come from the real
 * server.
 */
const h = await startScreenHarness({ seed: true });

/** People's Square, Shanghai: where the browser places the member. */
const HERE = { lat: 31.2304, lng: 121.4737 };

/** The browser as the page sees it: what it was asked, and the answers it has not given yet. */
interface Browser {
  asked: { permission: number; position: number };
  /** what the browser answered and the member tapped, in order: `permission:granted`, `position`, `position:1`, `tap` */
  said: string[];
  permission?: { resolve: (s: { state: string }) => void; reject: (e: unknown) => void };
  position?: { ok: (p: { coords: { latitude: number; longitude: number } }) => void; fail: (e: { code: number }) => void };
}
interface Page {
  browser: Browser;
}
type W = World<Page>;

function playBrowser(): Browser {
  const b: Browser = { asked: { permission: 0, position: 0 }, said: [] };
  const permissions = {
    query: () => {
      b.asked.permission++;
      return new Promise((resolve, reject) => (b.permission = { resolve, reject }));
    },
  };
  const geolocation = {
    getCurrentPosition: (ok: never, fail: never) => {
      b.asked.position++;
      b.position = { ok, fail };
    },
  };
  Object.defineProperty(navigator, 'permissions', { configurable: true, value: permissions });
  Object.defineProperty(navigator, 'geolocation', { configurable: true, value: geolocation });
  return b;
}

/** Waits for the page to have asked the browser, then gives the browser's answer. */
async function answer<K extends 'permission' | 'position'>(w: W, what: K, said: string, give: (pending: NonNullable<Browser[K]>) => void) {
  for (let i = 0; i < 100 && !w.browser[what]; i++) await act(() => new Promise((r) => setTimeout(r, 10)));
  const pending = w.browser[what];
  if (!pending) throw new Error(`the page never asked the browser for its ${what}`);
  w.browser[what] = undefined;
  w.browser.said.push(said);
  await act(async () => give(pending));
}

const permission = (state: string) => ({
  output: state,
  perform: (w: W) => answer(w, 'permission', `permission:${state}`, (p) => p.resolve({ state })),
});
const positionFails = (code: number) => ({
  error: { code },
  perform: (w: W) => answer(w, 'position', `position:${code}`, (p) => p.fail({ code })),
});
/** what the browser said last (or the member's tap) */
const last = (w: W) => w.browser.said.at(-1);
const positionsGiven = (w: W) => w.browser.said.filter((s) => s === 'position').length;
const tap = async (w: W, name: string) => {
  w.browser.said.push('tap');
  await w.ui.user.click(screen.getByRole('button', { name }));
};

const hint = () => document.querySelector('[data-locate]');
const shownDistances = () => [...document.querySelectorAll('[data-club] [data-distance]')].map((e) => e.textContent);
const noDistances = () =>
  expect(
    shownDistances().every((t) => t === ''),
    'no club shows a distance',
  ).toBe(true);
const fetches = (w: W) => sentBy(w, 'fetchDistances');

defineScreenPaths<Page>(h, {
  machine: catalogClubDistancesMachine,
  screen: '/club',
  cases: {
    'xstate.done.actor.checkPermission': [permission('granted'), permission('prompt'), permission('denied')],
    // a browser whose Permissions API does not know geolocation
    'xstate.error.actor.checkPermission': [
      {
        error: new TypeError('geolocation'),
        perform: (w: W) => answer(w, 'permission', 'permission:error', (p) => p.reject(new TypeError('geolocation'))),
      },
    ],
    'xstate.done.actor.position': [
      {
        output: HERE,
        perform: (w: W) => answer(w, 'position', 'position', (p) => p.ok({ coords: { latitude: HERE.lat, longitude: HERE.lng } })),
      },
    ],
    // 1: the member (or the browser's setting) said no; 2: no position could be had
    'xstate.error.actor.position': [positionFails(1), positionFails(2)],
    'xstate.done.actor.fetchDistances': [
      { output: { code: 200, status: true }, answer: { server: true } },
      // the server could not answer (its database down): a path cannot make that cheaply
      {
        output: { code: 503, status: false },
        answer: { status: 503, body: { code: 503, status: false, data: null, message: 'unavailable' } },
      },
    ],
    'xstate.error.actor.fetchDistances': [{ error: new Error('network') }],
  },
  project: () => null,
  requests: { fetchDistances: { method: 'GET', path: /^\/api\/school\/clubs\/distance$/ } },

  async start(hh) {
    const browser = playBrowser();
    const ui = await hh.open('/club');
    return { ui, browser };
  },

  events: {
    'distances.locate': (w) => tap(w, '定位后显示离你多远'),
    'distances.retry': (w) => tap(w, '重新定位'),
  },

  states: {
    // every club is listed at once, whatever becomes of the position
    checkingPermission: (w) => {
      expect(document.querySelectorAll('[data-club]').length).toBeGreaterThan(1);
      expect(w.browser.asked, 'the page asks the browser whether locating is allowed, nothing more').toEqual({
        permission: 1,
        position: 0,
      });
      expect(w.browser.said, 'the browser has not answered').toEqual([]);
      expect(hint()?.textContent, 'nothing offered yet').toBe('');
      expect(fetches(w)).toEqual([]);
      noDistances();
    },
    // the browser would ask the member first (or cannot say): the page waits for a tap
    idle: (w) => {
      expect(['permission:prompt', 'permission:error']).toContain(last(w));
      expect(screen.getByRole('button', { name: '定位后显示离你多远' })).toBeTruthy();
      expect(w.browser.asked.position, 'the position is asked only on a tap').toBe(0);
      expect(fetches(w)).toEqual([]);
      noDistances();
    },
    // located by itself only when the browser had allowed it; otherwise on the member's tap
    locating: (w) => {
      expect(['permission:granted', 'tap']).toContain(last(w));
      expect(hint()?.textContent).toBe('正在定位…');
      expect(w.browser.position, 'the browser is asked for the position').toBeDefined();
      expect(w.held.get('fetchDistances') ?? []).toEqual([]);
      noDistances();
    },
    fetching: (w) => {
      expect(last(w)).toBe('position');
      expect(hint()?.textContent).toBe('正在定位…');
      const asked = w.held.get('fetchDistances') ?? [];
      expect(asked.length, 'one distance request in flight').toBe(1);
      const q = new URL(asked[0]!.path, 'http://x').searchParams;
      expect([Number(q.get('lat')), Number(q.get('lng'))], 'from where the browser placed the member').toEqual([HERE.lat, HERE.lng]);
      noDistances();
    },
    located: async (w) => {
      expect(last(w)).toBe('position');
      expect(fetches(w).at(-1)?.answer).toBe(200);
      expect(hint(), 'nothing more to ask').toBe(null);
      const counted = (await h.server.call('GET', `/api/school/clubs/distance?lat=${HERE.lat}&lng=${HERE.lng}`)).body.data as Array<{
        id: number;
        distance: number;
      }>;
      const nearestFirst = [...counted].sort((a, b) => a.distance - b.distance);
      const rows = [...document.querySelectorAll<HTMLElement>('[data-club]')].map((e) => Number(e.dataset.club));
      expect(rows, 'the nearest club first').toEqual(nearestFirst.map((c) => c.id));
      expect(shownDistances()).toEqual(nearestFirst.map((c) => formatDistance(c.distance)));
    },
    denied: (w) => {
      expect(['permission:denied', 'position:1'], 'the browser said no').toContain(last(w));
      expect(hint()?.textContent).toBe('未获得定位权限，无法显示距离重新定位');
      expect(w.held.get('fetchDistances') ?? []).toEqual([]);
      noDistances();
    },
    // no position, or the server could not count the distances
    unavailable: (w) => {
      if (last(w) !== 'position:2') {
        expect(last(w)).toBe('position');
        expect(fetches(w).filter((r) => r.answer !== undefined).length, 'the distances were asked for that position').toBe(
          positionsGiven(w),
        );
        expect([503, 'network']).toContain(fetches(w).at(-1)?.answer);
      }
      expect(hint()?.textContent).toBe('暂时无法获取位置重新定位');
      expect(w.held.get('fetchDistances') ?? []).toEqual([]);
      noDistances();
    },
  },

  effects: {
    // a tap asks the browser (not the server) for the position, once
    'distances.locate': (w, _e, before) => {
      expect(w.browser.asked.position).toBe(1);
      expect(sentBy(w, 'fetchDistances', before)).toEqual([]);
    },
    'distances.retry': (w, _e, before) => {
      expect(w.browser.position, 'locating again asks the browser again').toBeDefined();
      expect(sentBy(w, 'fetchDistances', before)).toEqual([]);
    },
  },
});
