import type { Page } from 'playwright-core';
import { matchPath } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { screens } from '../../src/app/routes';
import { MEMBER } from './support/checkout';
import { baseUrl, waitHydrated, useBrowser } from './support/browser';

/**
 * Touch and sight: every tappable thing is at least 44 x 44 CSS px on a phone (390 px
 * wide), measured in Chromium on every route of the route table: bare routes opened directly, and
 * each route with parameters through the first link a crawled page offers to it. Buttons, links,
 * inputs, selects, text areas and ARIA buttons, tabs, radios, checkboxes and switches count; a
 * control drawn by its label (a hidden radio inside a label) is measured by that label, and the
 * target is the box a tap lands in (its border box, padding included).
 *
 * Left out, as WCAG 2.5.8 leaves them out: a link inside a sentence (inline, with text of its
 * parent's around it), whose size the line of text sets; and what is not shown (no box, hidden,
 * or outside the page).
 */
const MIN = 44;
/** pages that are not the member's product (the machine viewer is a developer page) */
const SKIP = new Set(['dev/machines', '*']);
const PATTERNS = screens.map((s) => `/${s.path}`).filter((p) => !SKIP.has(p.slice(1)));

interface Small {
  what: string;
  width: number;
  height: number;
}

/** Runs in the page: the tappable things smaller than `min`, each described. */
function smallTargets(min: number): Small[] {
  const SELECTOR =
    'a[href], button, input:not([type=hidden]), select, textarea, [role=button], [role=tab], [role=radio], [role=checkbox], [role=switch], [role=link], [tabindex="0"]';
  const out: Small[] = [];
  const seen = new Set<Element>();
  for (const el of document.querySelectorAll(SELECTOR)) {
    // a control inside a label is tapped through its label; a control inside another target, through that
    const target = (el.closest('label') as Element | null) ?? el;
    const outer = target.parentElement?.closest(SELECTOR.replace(/input[^,]*, /, ''));
    if (outer && outer !== target && outer.contains(target)) continue;
    if (seen.has(target)) continue;
    seen.add(target);
    const style = getComputedStyle(target);
    if (style.visibility === 'hidden' || style.display === 'none') continue;
    const r = target.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if (r.bottom < 0 || r.right < 0 || r.left >= window.innerWidth) continue;
    // a link in a sentence: inline, with its parent's own text around it
    if (style.display === 'inline' && target.tagName === 'A') {
      const parent = target.parentElement;
      const text = parent
        ? [...parent.childNodes].some((n) => n !== target && n.nodeType === 3 && (n.textContent ?? '').trim() !== '')
        : false;
      if (text) continue;
    }
    if (r.width >= min - 0.5 && r.height >= min - 0.5) continue;
    const label = (target.getAttribute('aria-label') ?? target.textContent ?? (target as HTMLInputElement).placeholder ?? '')
      .trim()
      .replace(/\s+/g, ' ')
      .slice(0, 24);
    const cls = (typeof target.className === 'string' ? target.className : '').split(/\s+/).slice(0, 3).join('.');
    out.push({
      what: `${target.tagName.toLowerCase()}${cls ? `.${cls}` : ''} "${label}"`,
      width: Math.round(r.width),
      height: Math.round(r.height),
    });
  }
  return out;
}

/**
 * Runs in the page: the multi-column grids off spec §9's layout grid (12 columns, gutter 8; the
 * `grid-12` rule in styles.css, decision 046), each described. A grid marked data-grid-exempt (with
 * its reason) is left out.
 */
function offGrid(): string[] {
  const out: string[] = [];
  for (const el of document.querySelectorAll('body *')) {
    const style = getComputedStyle(el);
    if (style.display !== 'grid' && style.display !== 'inline-grid') continue;
    const tracks = style.gridTemplateColumns.split(' ').filter(Boolean).length;
    if (tracks <= 1 || el.closest('[data-grid-exempt]')) continue;
    if (tracks === 12 && style.columnGap === '8px') continue;
    const cls = (typeof el.className === 'string' ? el.className : '').split(/\s+/).slice(0, 4).join('.');
    out.push(`${el.tagName.toLowerCase()}.${cls}: ${tracks} columns, gap ${style.columnGap}`);
  }
  return out;
}

/**
 * Runs in the page: the headings whose words something is painted over, each described. Konsta's
 * block title pulls the next block up under it, counting on that block's own top margin; a block
 * with a smaller one draws its background over the title's lower half. Each heading is scrolled into
 * view and its text's last line probed just above its bottom: the element on top there, or one of
 * its ancestors below the heading's, paints a background.
 */
function coveredHeadings(): string[] {
  const painted = (el: Element) => {
    const st = getComputedStyle(el);
    return st.backgroundImage !== 'none' || !/rgba\(0, 0, 0, 0\)|transparent/.test(st.backgroundColor);
  };
  const out: string[] = [];
  for (const h of document.querySelectorAll('h1, h2, h3, h4, [role=heading], .k-block-title')) {
    const box = h.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    h.scrollIntoView({ block: 'center' });
    const range = document.createRange();
    range.selectNodeContents(h);
    const lines = [...range.getClientRects()].filter((r) => r.width > 0);
    const last = lines.sort((a, b) => b.bottom - a.bottom)[0];
    if (!last) continue;
    const y = last.bottom - 2;
    for (const x of [last.left + 2, (last.left + last.right) / 2, last.right - 2]) {
      const top = document.elementFromPoint(x, y);
      if (!top || h.contains(top)) continue;
      let cover: Element | null = null;
      for (let el: Element | null = top; el && !el.contains(h); el = el.parentElement) if (painted(el)) cover = el;
      if (!cover) continue;
      const cls = (typeof cover.className === 'string' ? cover.className : '').split(/\s+/).slice(0, 3).join('.');
      out.push(`"${(h.textContent ?? '').trim().slice(0, 24)}" under ${cover.tagName.toLowerCase()}${cls ? `.${cls}` : ''}`);
      break;
    }
  }
  window.scrollTo(0, 0);
  return out;
}

/** Runs in the page before its scripts: when the DOM last changed (window.__lastChange, performance.now()). */
const TRACK_CHANGES = `(() => {
  window.__lastChange = 0;
  new MutationObserver(() => { window.__lastChange = performance.now(); })
    .observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
})();`;

/** How long the DOM stays unchanged, with no request in flight, before a screen counts as shown. */
const QUIET_MS = 150;

/**
 * Opens `url` as a tap on a link does: a client-side navigation of the app's router (a history entry
 * and its popstate, which React Router's browser history follows), then waits until the page changed,
 * no screen is loading (the root layout's skeleton) and no request is in flight, for QUIET_MS. The
 * same screens as a full page load, without loading, parsing and hydrating the app again for each
 * (which took most of this file's time).
 */
async function navigate(page: Page, url: string): Promise<void> {
  const since = await page.evaluate((to) => {
    const at = performance.now();
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
    return at;
  }, url);
  await page.waitForFunction(
    ({ since, quiet }) => {
      const w = window as unknown as { __lastChange: number; __fetchesInFlight: number };
      return (
        w.__lastChange > since &&
        performance.now() - w.__lastChange > quiet &&
        w.__fetchesInFlight === 0 &&
        !document.querySelector('[data-skeleton]')
      );
    },
    { since, quiet: QUIET_MS },
    { polling: 50 },
  );
}

/** The route pattern a path of this app is on, if any. */
const patternOf = (pathname: string) => PATTERNS.find((p) => matchPath(p.replace(/\/$/, '') || '/', pathname));

/**
 * Opens the bare routes and then one page per route pattern its links lead to (the first by loading
 * it, the rest by client-side navigation); records each page's small targets by pattern. `only`
 * limits the crawl to patterns it accepts.
 */
async function crawl(
  page: Page,
  only: (pattern: string) => boolean,
): Promise<{ visited: string[]; small: string[]; grids: string[]; headings: string[] }> {
  const queue = PATTERNS.filter((p) => !p.includes(':') && only(p));
  const done = new Set<string>();
  const small: string[] = [];
  const grids: string[] = [];
  const headings: string[] = [];
  const visited: string[] = [];
  let loaded = false;
  while (queue.length > 0) {
    const url = queue.shift()!;
    const pattern = patternOf(new URL(url, 'http://x').pathname);
    if (!pattern || done.has(pattern)) continue;
    done.add(pattern);
    if (!loaded) {
      loaded = true;
      await page.addInitScript(TRACK_CHANGES);
      await page.goto(url);
      await waitHydrated(page);
    } else {
      await navigate(page, url);
    }
    const landed = new URL(page.url()).pathname;
    // a page that sent us elsewhere (a login wall, a redirect) is measured where it landed, once
    const at = patternOf(landed) ?? pattern;
    if (at !== pattern && done.has(at)) continue;
    done.add(at);
    visited.push(landed);
    for (const s of await page.evaluate(smallTargets, MIN)) small.push(`${at}: ${s.what} ${s.width}x${s.height}`);
    for (const g of await page.evaluate(offGrid)) grids.push(`${at}: ${g}`);
    for (const o of await page.evaluate(coveredHeadings)) headings.push(`${at}: ${o}`);
    const links = await page.evaluate(() =>
      [...document.querySelectorAll('a[href]')].map((a) => a.getAttribute('href')!).filter((h) => h.startsWith('/')),
    );
    for (const href of links) {
      const p = patternOf(new URL(href, 'http://x').pathname);
      if (p && !done.has(p) && only(p)) queue.push(href);
    }
  }
  return { visited, small: [...new Set(small)], grids: [...new Set(grids)], headings: [...new Set(headings)] };
}

describe('every tappable thing is at least 44 x 44 px on a phone, layouts sit on the 12-column grid, and no heading is covered', {
  timeout: 240_000,
}, () => {
  const browser = useBrowser();

  it('as a member: every route and the pages its links lead to', async () => {
    const { page, allowError } = await browser.newPage();
    // a route that needs an id, opened bare, answers "not found" (or "not yours", "bad request")
    allowError(/status of (400|403|404)/);
    await page.goto(`${baseUrl()}/login`);
    const r = await page
      .context()
      .request.post('/api/oauth/login', { data: { username: MEMBER.phone, password: MEMBER.password, loginType: 'password' } });
    expect(r.status()).toBe(200);
    const { visited, small, grids, headings } = await crawl(page, (p) => !p.startsWith('/staff') && !p.startsWith('/login'));
    expect(visited.length, 'pages measured').toBeGreaterThan(50);
    expect(small, `${small.length} small targets`).toEqual([]);
    expect(grids, 'multi-column layouts off the 12-column grid').toEqual([]);
    expect(headings, 'headings the next element covers').toEqual([]);
  });

  it('as a visitor: log in, forgotten password, new password', async () => {
    const { page } = await browser.newPage();
    const { small, grids, headings } = await crawl(page, (p) => p.startsWith('/login'));
    expect(small, `${small.length} small targets`).toEqual([]);
    expect(grids, 'multi-column layouts off the 12-column grid').toEqual([]);
    expect(headings, 'headings the next element covers').toEqual([]);
  });

  it('as staff: the staff console', async () => {
    const { page } = await browser.newPage();
    await page.goto(`${baseUrl()}/login`);
    const r = await page
      .context()
      .request.post('/api/oauth/login', { data: { username: '13800000005', password: 'staff1234', loginType: 'password' } });
    expect(r.status()).toBe(200);
    const { visited, small, grids, headings } = await crawl(page, (p) => p.startsWith('/staff'));
    expect(visited.length, 'pages measured').toBeGreaterThan(8);
    expect(small, `${small.length} small targets`).toEqual([]);
    expect(grids, 'multi-column layouts off the 12-column grid').toEqual([]);
    expect(headings, 'headings the next element covers').toEqual([]);
  });
});
