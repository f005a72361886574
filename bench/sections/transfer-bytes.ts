import type { Request } from 'playwright-core';
import { CHROMIUM, launchChromium } from '../../test/e2e/support/chromium';
import { MOBILE_CHROME_UA } from '../../test/e2e/support/browser';
import { WARM_MARK } from '../../src/app/layout/warm-linked-screens';
import { kB, type BenchRow, type BenchSection } from '../types';

/** Budget of issue 2: at most 150 kB of compressed JavaScript on a first visit of `/`. */
const JS_BUDGET_ROOT = 150_000;

interface Tally {
  js: number;
  css: number;
  html: number;
  other: number;
  jsRaw: number;
  requests: number;
  /** screens' code loaded ahead once the page settled (src/app/layout/warm-linked-screens.ts), not the first load */
  warmed: number;
  warmedRequests: number;
}

/** Bytes on the wire (compressed bodies) for a first visit of a path, with an empty cache, until the network is idle. */
async function firstVisit(baseUrl: string, path: string): Promise<Tally> {
  const browser = await launchChromium(CHROMIUM);
  try {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 3,
      isMobile: true,
      hasTouch: true,
      userAgent: MOBILE_CHROME_UA,
      locale: 'zh-CN',
    });
    const page = await context.newPage();
    const tally: Tally = { js: 0, css: 0, html: 0, other: 0, jsRaw: 0, requests: 0, warmed: 0, warmedRequests: 0 };
    const pending: Promise<void>[] = [];
    const scripts: string[] = [];
    const seen: Array<{ req: Request; body: number }> = [];
    const count = async (req: Request) => {
      const sizes = await req.sizes();
      seen.push({ req, body: sizes.responseBodySize }); // encoded (compressed) body bytes as received
    };
    const tallyOf = (req: Request, body: number, warmed: Set<string>) => {
      const type = req.resourceType();
      if (type === 'script' && warmed.has(req.url())) {
        tally.warmed += body;
        tally.warmedRequests += 1;
        return;
      }
      tally.requests += 1;
      if (type === 'script') {
        tally.js += body;
        scripts.push(req.url());
      } else if (type === 'stylesheet') tally.css += body;
      else if (type === 'document') tally.html += body;
      else tally.other += body;
    };
    page.on('requestfinished', (req) => pending.push(count(req)));
    await page.goto(new URL(path, baseUrl).toString(), { waitUntil: 'networkidle' });
    // the app adds its module script after the first paint: give late requests a moment, then settle
    await page.waitForTimeout(1500);
    await page.waitForLoadState('networkidle');
    await Promise.all(pending);
    // scripts the page started after it marked loading screens ahead are not the first load
    const warmed = new Set(
      (await page.evaluate(`(() => {
        const mark = performance.getEntriesByName(${JSON.stringify(WARM_MARK)})[0];
        if (!mark) return [];
        return performance.getEntriesByType('resource').filter((e) => e.initiatorType !== 'navigation' && e.startTime >= mark.startTime).map((e) => e.name);
      })()`)) as string[],
    );
    for (const { req, body } of seen) tallyOf(req, body, warmed);
    await context.close();
    // uncompressed size for reference: the same scripts fetched again without compression
    for (const url of scripts) {
      const res = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
      tally.jsRaw += (await res.arrayBuffer()).byteLength;
    }
    return tally;
  } finally {
    await browser.close();
  }
}

/** JS and CSS the browser fetches on a first visit of `/` and `/login` (compressed transfer size: brotli for assets, gzip for HTML). */
export const transferBytes: BenchSection = {
  title: 'First-visit bytes',
  async run({ baseUrl }) {
    const rows: BenchRow[] = [];
    for (const path of ['/', '/login']) {
      const t = await firstVisit(baseUrl, path);
      const budget = path === '/' ? (t.js <= JS_BUDGET_ROOT ? 'PASS: ≤150 kB JS for /' : 'FAIL: budget ≤150 kB JS for /') : '';
      rows.push({
        metric: `${path} JS (compressed)`,
        value: kB(t.js),
        note: [budget, `${kB(t.jsRaw)} uncompressed`].filter(Boolean).join('; '),
      });
      rows.push({ metric: `${path} CSS (compressed)`, value: kB(t.css), note: 'CSS inlined in the HTML counts under HTML' });
      rows.push({
        metric: `${path} HTML (compressed)`,
        value: kB(t.html),
        note: `${t.requests} requests, ${kB(t.other)} other; empty cache, until network idle`,
      });
      rows.push({
        metric: `${path} screens loaded ahead (compressed JS)`,
        value: kB(t.warmed),
        note: `${t.warmedRequests} scripts fetched once the page settled, for the screens its links lead to (not counted above)`,
      });
    }
    return rows;
  },
};
