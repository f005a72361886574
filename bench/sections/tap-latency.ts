import type { Page } from 'playwright-core';
import { demoAccounts } from '../../src/server/db/seed/people';
import { COUNT_FETCHES, PHONE, waitHydrated } from '../../test/e2e/support/browser';
import { shanghaiTomorrow } from '../../test/e2e/support/booking';
import { launchChromium } from '../../test/e2e/support/chromium';
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
const ROUNDS = 3;

const OBSERVE = `(() => {
  window.__taps = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.interactionId) window.__taps.push({ id: e.interactionId, name: e.name, duration: e.duration });
  }).observe({ type: 'event', durationThreshold: 16, buffered: true });
})();`;

interface Tap {
  name: string;
  /** where the tap starts (opened and hydrated before it) */
  from: (base: string) => string;
  /** the tap */
  tap: (page: Page) => Promise<void>;
  /** the tap's effect on the screen */
  effect: (page: Page) => Promise<void>;
}

const tomorrow = shanghaiTomorrow();
const TAPS: Tap[] = [
  {
    name: 'Homepage → Book tab',
    from: (b) => `${b}/`,
    tap: (p) => p.locator('[data-tab=book]').tap(),
    effect: (p) => p.waitForURL((u) => u.pathname !== '/'),
  },
  {
    name: 'schedule: another day',
    from: (b) => `${b}/takecourse/takelistm`,
    tap: (p) => p.locator(`[data-day="${tomorrow}"]`).first().tap(),
    effect: (p) => p.locator(`[data-day="${tomorrow}"][aria-current=date]`).first().waitFor(),
  },
  {
    name: 'Mine tab',
    from: (b) => `${b}/`,
    tap: (p) => p.locator('[data-tab=mine]').tap(),
    effect: (p) => p.waitForURL((u) => u.pathname.startsWith('/mine')),
  },
  {
    name: 'my cards → a card',
    from: (b) => `${b}/vipcard`,
    tap: (p) => p.locator('a[href*="carddetail"]').first().tap(),
    effect: (p) => p.waitForURL((u) => u.pathname.toLowerCase().includes('carddetail')),
  },
];

async function lastTapMs(page: Page): Promise<number> {
  // the entries arrive after the next paint: give the browser a moment to report them
  await page.waitForTimeout(250);
  const taps = (await page.evaluate('window.__taps.splice(0)')) as Array<{ id: number; duration: number }>;
  if (taps.length === 0) return 16;
  const last = taps[taps.length - 1]!.id;
  return Math.max(...taps.filter((t) => t.id === last).map((t) => t.duration));
}

export const tapLatency: BenchSection = {
  title: `Tap latency (phone, CPU ${CPU_SLOWDOWN}x slower, Event Timing)`,
  async run({ baseUrl }) {
    const member = demoAccounts.find((a) => a.phone === '13800000001')!;
    const browser = await launchChromium();
    const rows: BenchRow[] = [];
    try {
      const context = await browser.newContext({ ...PHONE, baseURL: baseUrl });
      await context.addInitScript(COUNT_FETCHES);
      await context.addInitScript(OBSERVE);
      const login = await context.request.post('/api/oauth/login', { data: { username: member.phone, password: member.password, loginType: 'password' } });
      if (login.status() !== 200) throw new Error(`log in: HTTP ${login.status()}`);
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
      let worst = 0;
      for (const t of TAPS) {
        const times: number[] = [];
        for (let i = 0; i < ROUNDS; i++) {
          await page.goto(t.from(baseUrl));
          await waitHydrated(page);
          await page.evaluate('window.__taps.splice(0)');
          await t.tap(page);
          await t.effect(page);
          times.push(await lastTapMs(page));
        }
        const max = Math.max(...times);
        worst = Math.max(worst, max);
        const shown = (v: number) => (v <= 16 ? '≤ 16 ms' : ms(v));
        rows.push({ metric: t.name, value: shown(max), note: `worst of ${ROUNDS}: ${times.map(shown).join(', ')}; goal ≤ ${GOAL_MS} ms${max > GOAL_MS ? ' (OVER)' : ''}` });
      }
      rows.push({ metric: 'worst tap', value: worst <= 16 ? '≤ 16 ms' : ms(worst), note: worst > GOAL_MS ? `OVER the ${GOAL_MS} ms goal` : `within the ${GOAL_MS} ms goal` });
    } finally {
      await browser.close();
    }
    return rows;
  },
};
