import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { MEMBER } from './support/checkout';
import { baseUrl, gotoHydrated, useBrowser } from './support/browser';

/**
 * Touch and sight: the five screens a member opens most (Homepage, log in, the schedule,
 * the card shop and Mine) pass WCAG 2 A and AA as axe-core checks them: colour contrast, names of
 * controls, labels, landmarks, languages, and axe's best practices. axe-core is the engine of
 * Lighthouse's accessibility category (which scored 96 on every page, for contrast, and on log in
 * for the agreement sheet's missing name): a page axe passes scores 100 there (`npm run bench`
 * records the Lighthouse figure for each screen). Before the fix: 219 contrast failures on the five.
 */
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

interface Violation {
  id: string;
  nodes: Array<{ target: string[]; failureSummary?: string }>;
}

/** axe-core's WCAG 2 A/AA violations on the page as it is now, one line each node. */
async function violations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  const found = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: Violation[] }> } }).axe;
    // best practices too (a dialog's name was one Lighthouse counted); not "one h1 a page", which
    // Lighthouse leaves out: the screens are titled by the document title and their own headings
    const r = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      rules: { 'page-has-heading-one': { enabled: false } },
      resultTypes: ['violations'],
    });
    return r.violations.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })) }));
  });
  return found.flatMap((v) =>
    v.nodes.map((n) => `${v.id} ${n.target.join(' ')}: ${(n.failureSummary ?? '').split('\n').slice(1, 2).join(' ').trim()}`),
  );
}

const SCREENS = ['/', '/takecourse/bookcourse', '/vipcard', '/mine'];

describe('the five screens pass WCAG 2 AA (axe-core, as Lighthouse checks them)', { timeout: 120_000 }, () => {
  const browser = useBrowser();

  it('as a visitor: the Homepage, log in, the schedule and the card shop', async () => {
    const { page } = await browser.newPage();
    const found: string[] = [];
    for (const url of ['/', '/login', '/takecourse/bookcourse', '/vipcard']) {
      await gotoHydrated(page, `${baseUrl()}${url}`);
      found.push(...(await violations(page)).map((v) => `${url} ${v}`));
    }
    expect(found).toEqual([]);
  });

  it('as a member: the same screens and Mine', async () => {
    const { page } = await browser.newPage();
    await page.goto(`${baseUrl()}/login`);
    const r = await page
      .context()
      .request.post('/api/oauth/login', { data: { username: MEMBER.phone, password: MEMBER.password, loginType: 'password' } });
    expect(r.status()).toBe(200);
    const found: string[] = [];
    for (const url of SCREENS) {
      await gotoHydrated(page, `${baseUrl()}${url}`);
      found.push(...(await violations(page)).map((v) => `${url} ${v}`));
    }
    expect(found).toEqual([]);
  });
});
