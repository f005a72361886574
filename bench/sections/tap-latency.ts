import type { Page } from 'playwright-core';
import { demoAccounts } from '../../src/server/db/seed/people';
import { COUNT_FETCHES, PHONE, waitHydrated } from '../../test/e2e/support/browser';
import { shanghaiTomorrow } from '../../test/e2e/support/booking';
import { CHROMIUM, launchChromium } from '../../test/e2e/support/chromium';
import { ms, type BenchSection, type BenchRow } from '../types';

/**
 * Issue 16, "every tap shows its effect within 100 ms": the member's daily taps on a phone-sized
 * Chromium with its CPU slowed 4x (a mid-range phone), measured by the browser's own Event Timing API
 * (the interaction's longest event: input delay + handlers + the next paint, what INP reports).
 * Entries under 16 ms are not reported by the browser: such a tap shows as "≤ 16 ms".
 * A measurement, not a test (the test suite checks the effect shows while the network is held:
 * test/e2e/tap-feedback.test.ts).
 */
const GOAL_MS = 100;
const CPU_SLOWDOWN = 4;
const ROUNDS = Number(process.env.BENCH_TAP_ROUNDS) || 3;
/** a member's glance at a page before the tap; the screens behind its links load ahead meanwhile */
const GLANCE_MS = 2500;

const OBSERVE = `(() => {
  window.__taps = [];
  window.__frames = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.interactionId) window.__taps.push({ id: e.interactionId, name: e.name, start: e.startTime, duration: e.duration, delay: e.processingStart - e.startTime, handlers: e.processingEnd - e.processingStart });
  }).observe({ type: 'event', durationThreshold: 16, buffered: true });
  try {
    new PerformanceObserver((list) => {
      for (const f of list.getEntries()) window.__frames.push({ start: f.startTime, duration: f.duration, scripts: f.scripts.map((s) => ({ at: s.startTime, duration: s.duration, invoker: s.invoker, source: (s.sourceURL || '').split('/').pop() + ':' + s.sourceFunctionName })) });
    }).observe({ type: 'long-animation-frame', buffered: true });
  } catch {}
})();`;

/** BENCH_TAP_FRAMES=1 prints, for each tap, the long animation frames around it and their scripts (where the time went). */
const SHOW_FRAMES = process.env.BENCH_TAP_FRAMES === '1';

interface Tap {
  name: string;
  /** where the tap starts (opened and hydrated before it) */
  from: (base: string) => string;
  /** what is tapped (the first match) */
  target: string;
  /** the tap's effect on the screen */
  effect: (page: Page) => Promise<void>;
  /** what the member does on the page before the tap (not measured) */
  prepare?: (page: Page) => Promise<void>;
}

/**
 * The yardstick: a one-button static page served in the same run, whose tap turns the button's
 * colour. Its latency is the floor of this browser, machine and CPU slowdown (the input's way from
 * the touchscreen to the page, and one paint), the part of every tap no code of ours can remove.
 */
const YARDSTICK_PATH = '/__bench/tap-yardstick';
const YARDSTICK_PAGE = `<!doctype html><html lang="zh" data-hydrated="true"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>tap</title></head><body><button id="b" style="width:200px;height:60px" onclick="this.style.background='teal';this.dataset.tapped='1'">轻点</button></body></html>`;
const YARDSTICK: Tap = {
  name: "yardstick: a static page's button",
  from: (b) => `${b}${YARDSTICK_PATH}`,
  target: '#b',
  effect: (p) => p.locator('#b[data-tapped]').waitFor(),
};

const tomorrow = shanghaiTomorrow();
/** The daily taps; `classId` is a class tomorrow the member can book (its booking page's submit). */
const taps = (classId: number): Tap[] => [
  {
    name: 'Homepage → Book tab',
    from: (b) => `${b}/`,
    target: '[data-tab=book]',
    effect: (p) => p.waitForURL((u) => u.pathname !== '/'),
  },
  {
    name: 'schedule: another day',
    from: (b) => `${b}/takecourse/takelistm`,
    target: `[data-day="${tomorrow}"]`,
    effect: (p) => p.locator(`[data-day="${tomorrow}"][aria-current=date]`).first().waitFor(),
  },
  {
    name: 'Mine tab',
    from: (b) => `${b}/`,
    target: '[data-tab=mine]',
    effect: (p) => p.waitForURL((u) => u.pathname.startsWith('/mine')),
  },
  {
    name: 'my cards → a card',
    from: (b) => `${b}/vipcard`,
    target: 'a[href*="carddetail"]',
    effect: (p) => p.waitForURL((u) => u.pathname.toLowerCase().includes('carddetail')),
  },
  {
    // the issue's own example: the submit waited 0.85 s for its confirm dialog with no sign
    name: 'a class → book (its confirm)',
    from: (b) => `${b}/takecourse/bookcourse/bookcourseconfirm?id=${classId}`,
    prepare: async (p) => {
      await p.locator('[data-card-choice]').first().waitFor();
      if (!(await p.locator('input[name=agreeNotice]').first().isChecked()))
        await p.locator('label:has([name=agreeNotice])').first().click();
    },
    target: '[data-action=submit-booking]',
    effect: (p) => p.locator('[data-confirm-loading], [role=dialog], [role=alertdialog]').first().waitFor(),
  },
];

/**
 * A finger's tap at the middle of the target, sent as the touchscreen's events and nothing else.
 * Playwright's `locator.tap()` first checks the target in the page (visible, stable, not covered)
 * and watches the tap's own events to check what they hit: its injected script ran on the page's
 * main thread during the tap, 20-30 ms of it with the CPU 4x slower, time a member's tap never pays.
 */
async function fingerTap(page: Page, target: string): Promise<void> {
  const box = await page.locator(target).first().boundingBox();
  if (!box) throw new Error(`${target} is not on the screen`);
  await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
}

interface TapEntry {
  id: number;
  name: string;
  start: number;
  duration: number;
  /** input delay: from the touch to its first handler */
  delay: number;
  handlers: number;
}
interface Frame {
  start: number;
  duration: number;
  scripts: Array<{ at: number; duration: number; invoker: string; source: string }>;
}

/** The last tap's longest event (duration, and its input delay and handlers' time), or undefined under 16 ms. */
async function lastTap(page: Page, label: string): Promise<TapEntry | undefined> {
  // the entries arrive after the next paint: give the browser a moment to report them
  await page.waitForTimeout(250);
  const taps = (await page.evaluate('window.__taps.splice(0)')) as TapEntry[];
  const frames = (await page.evaluate('window.__frames.splice(0)')) as Frame[];
  if (taps.length === 0) return undefined;
  const last = taps[taps.length - 1]!.id;
  const tap = taps.filter((t) => t.id === last).reduce((a, b) => (b.duration > a.duration ? b : a));
  if (SHOW_FRAMES) {
    const r = (v: number) => Math.round(v);
    process.stderr.write(`${label}: ${r(tap.duration)} ms (input delay ${r(tap.delay)}, handlers ${r(tap.handlers)}) at ${r(tap.start)}\n`);
    for (const t of taps.filter((t) => t.id === last))
      process.stderr.write(`  ${t.name} ${r(t.duration)} ms, handlers from +${r(t.delay)} for ${r(t.handlers)}\n`);
    for (const f of frames.filter((f) => f.start + f.duration > tap.start - 500 && f.start < tap.start + tap.duration)) {
      process.stderr.write(`  frame at ${r(f.start)} for ${r(f.duration)} ms\n`);
      for (const s of f.scripts) process.stderr.write(`    ${r(s.at)} +${r(s.duration)} ${s.invoker} ${s.source}\n`);
    }
  }
  return tap;
}

export const tapLatency: BenchSection = {
  title: `Tap latency (phone, CPU ${CPU_SLOWDOWN}x slower, Event Timing)`,
  async run({ baseUrl }) {
    const member = demoAccounts.find((a) => a.phone === '13800000001')!;
    const browser = await launchChromium(CHROMIUM);
    const rows: BenchRow[] = [];
    try {
      const context = await browser.newContext({ ...PHONE, baseURL: baseUrl });
      await context.addInitScript(COUNT_FETCHES);
      await context.addInitScript(OBSERVE);
      const login = await context.request.post('/api/oauth/login', {
        data: { username: member.phone, password: member.password, loginType: 'password' },
      });
      if (login.status() !== 200) throw new Error(`log in: HTTP ${login.status()}`);
      const { token } = (await login.json()) as { token: string };
      const schedule = await context.request.get(`/api/customers/classes/schedule?date=${tomorrow}&type=regular`, {
        headers: { 'Authorization-token': token },
      });
      const bookable = ((await schedule.json()) as { data: Array<{ id: number; state: string }> }).data.find((c) => c.state === 'bookable');
      if (!bookable) throw new Error(`no class the member can book on ${tomorrow}`);
      const TAPS = taps(bookable.id);
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
      await page.route(`**${YARDSTICK_PATH}`, (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body: YARDSTICK_PAGE }));
      let worst = 0;
      // each tap twice: at once (the page just answered its requests, warming not begun) and after
      // a member's glance at the page, when the screens behind its links have loaded ahead
      for (const pause of [0, GLANCE_MS]) {
        for (const t of pause === 0 ? [...TAPS, YARDSTICK] : TAPS) {
          const times: number[] = [];
          const delays: number[] = [];
          for (let i = 0; i < ROUNDS; i++) {
            await page.goto(t.from(baseUrl));
            await waitHydrated(page);
            await t.prepare?.(page);
            if (pause) await page.waitForTimeout(pause);
            await page.evaluate('window.__taps.splice(0)');
            await fingerTap(page, t.target);
            await t.effect(page);
            const tap = await lastTap(page, `${t.name}${pause ? ' later' : ''} #${i + 1}`);
            times.push(tap?.duration ?? 16);
            delays.push(tap?.delay ?? 0);
          }
          const max = Math.max(...times);
          if (t !== YARDSTICK) worst = Math.max(worst, max);
          const shown = (v: number) => (v <= 16 ? '≤ 16 ms' : ms(v));
          const goal = t === YARDSTICK ? 'the floor, not ours' : `goal ≤ ${GOAL_MS} ms${max > GOAL_MS ? ' (OVER)' : ''}`;
          rows.push({
            metric: `${t.name}${t === YARDSTICK ? '' : pause ? `, after ${pause / 1000} s` : ', at once'}`,
            value: shown(max),
            note: `worst of ${ROUNDS}: ${times.map(shown).join(', ')} (input delay ${delays.map((d) => ms(d)).join(', ')}); ${goal}`,
          });
        }
      }
      rows.push({
        metric: 'worst tap',
        value: worst <= 16 ? '≤ 16 ms' : ms(worst),
        note: worst > GOAL_MS ? `OVER the ${GOAL_MS} ms goal` : `within the ${GOAL_MS} ms goal`,
      });
    } finally {
      await browser.close();
    }
    return rows;
  },
};
