// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { screens } from '../../src/app/routes';
import { startScreenHarness, type ScreenHarness } from './support/screen-harness';

/**
 * Both languages complete in meaning: every route rendered in English shows no Chinese
 * glyph or full-width punctuation outside data. Data is what the server sent (club, class and card
 * names are Chinese in the seed): every string of every API answer the screens loaded is taken out
 * of the page's text before the check. The routes are the route table's, opened bare and then
 * through the links each page offers (one page per route pattern), as a member and as staff.
 */
const h = await startScreenHarness({ seed: true });

const CJK = /[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]/;
const ATTRS = ['placeholder', 'aria-label', 'title', 'alt'];
/** pages that are not the member's product (the machine viewer is a developer page) */
const SKIP = new Set(['dev/machines', '*']);

const ROUTES = new Set(screens.map((s) => s.path));

/** Every string value in a JSON answer: what the server sent is data, whatever its language. */
function strings(value: unknown, out: Set<string>): void {
  if (typeof value === 'string') {
    if (value.trim()) out.add(value);
  } else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) strings(v, out);
}

function recordData(harness: ScreenHarness): Set<string> {
  const data = new Set<string>();
  harness.intercept(async (_req, forward) => {
    const res = await forward();
    if ((res.headers.get('content-type') ?? '').includes('json')) {
      try {
        strings(await res.clone().json(), data);
      } catch {
        // not JSON after all: nothing to record
      }
    }
    return res;
  });
  return data;
}

/** The Chinese left on the page once the data is taken out: `where: text` for each. */
function chineseOnPage(data: Set<string>): string[] {
  const known = [...data].filter((d) => CJK.test(d)).sort((a, b) => b.length - a.length);
  const strip = (text: string) => known.reduce((t, d) => (t.includes(d) ? t.split(d).join(' ') : t), text);
  const found: string[] = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    // a language named in itself (the language switch's 中文) is marked lang="zh…"
    const marked = n.parentElement?.closest('body [lang]');
    if (marked?.getAttribute('lang')!.startsWith('zh')) continue;
    const text = n.textContent ?? '';
    // strip (a pass over every data string seen) only what has Chinese to begin with
    if (CJK.test(text) && CJK.test(strip(text))) found.push(`text: ${text.trim()}`);
  }
  for (const el of document.body.querySelectorAll('*')) {
    for (const a of ATTRS) {
      const v = el.getAttribute(a);
      if (v && CJK.test(v) && CJK.test(strip(v))) found.push(`${a}: ${v}`);
    }
  }
  return found;
}

/** Tags laid out inline unless a class says otherwise: their text shares a line with what is around it. */
const INLINE = new Set([
  'SPAN',
  'A',
  'STRONG',
  'EM',
  'B',
  'I',
  'SMALL',
  'TIME',
  'LABEL',
  'ABBR',
  'BDI',
  'MARK',
  'SUB',
  'SUP',
  'U',
  'S',
  'Q',
]);
const BOX_CLASS = /(^|\s)(block|inline-block|flex|inline-flex|grid|inline-grid|table|hidden|sr-only)(\s|$)/;
const LAYS_OUT_CHILDREN = /(^|\s)(flex|inline-flex|grid|inline-grid)(\s|$)/;

/** The element whose line a text node's words sit on: up through inline elements, stopping where a box begins. */
function lineOf(node: Node): Element {
  let el = node.parentElement!;
  while (el.parentElement && INLINE.has(el.tagName) && !BOX_CLASS.test(el.className) && !LAYS_OUT_CHILDREN.test(el.parentElement.className))
    el = el.parentElement;
  return el;
}

/**
 * English run together: two phrases of the interface on one line with nothing between them but a
 * space ("96 uses left Valid until …"), which reads as one broken sentence. Chinese separates such
 * facts by the space alone; English needs a line, a separator or punctuation. Data is left out.
 */
function runTogetherOnPage(data: Set<string>): string[] {
  const found: string[] = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let prev: { text: string; line: Element } | undefined;
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = (n.textContent ?? '').trim();
    if (!text) continue;
    if (n.parentElement?.closest('.sr-only, [hidden], script, style, [lang^="zh"]')) {
      prev = undefined;
      continue;
    }
    const line = lineOf(n);
    const isData = data.has(text) || data.has(n.textContent ?? '');
    if (prev && !isData && prev.line === line && /[a-z0-9]$/.test(prev.text) && /^[A-Z]/.test(text)) found.push(`${prev.text} ${text}`);
    prev = isData ? undefined : { text, line };
  }
  return found;
}

/**
 * Fields without a name a screen reader (or a test, finding it by its label) could use: an input,
 * select or text area with no <label>, aria-label or aria-labelledby. A placeholder is not a name:
 * it is gone once the member types.
 */
function unnamedFields(): string[] {
  const found: string[] = [];
  for (const el of document.body.querySelectorAll<HTMLInputElement>('input:not([type=hidden]), select, textarea')) {
    if (el.closest('[hidden]') || el.labels?.length || el.getAttribute('aria-label') || el.getAttribute('aria-labelledby')) continue;
    found.push(`unnamed field: ${el.tagName.toLowerCase()}[name=${el.getAttribute('name') ?? ''}]`);
  }
  return found;
}

/** The route pattern a path belongs to (so each pattern is crawled once). */
function patternOf(pathname: string): string {
  const path = pathname.replace(/^\//, '');
  const exact = screens.find((s) => s.path === path);
  if (exact) return exact.path;
  const param = screens.find(
    (s) => s.path.includes(':') && new RegExp(`^${s.path.replace(/\/:[^/]+\?/g, '(?:/[^/]+)?').replace(/:[^/]+/g, '[^/]+')}$`).test(path),
  );
  return param?.path ?? path;
}

/** Opens each route bare, then what its links lead to; returns the Chinese found per URL. */
async function crawl(start: string[], follow = true): Promise<{ problems: Map<string, string[]>; pages: number }> {
  const problems = new Map<string, string[]>();
  const seen = new Set<string>();
  const queue = [...start];
  const data = recordData(h);
  try {
    while (queue.length) {
      const url = queue.shift()!;
      const pattern = patternOf(new URL(url, 'http://app.test').pathname);
      const key = `${pattern}${new URL(url, 'http://app.test').search ? '?' : ''}`;
      if (seen.has(key) || SKIP.has(pattern)) continue;
      if (process.env.DEBUG_CRAWL) console.log('crawl', key, url);
      seen.add(key);
      const ui = await h.open(url, { locale: 'en' });
      const found = [...chineseOnPage(data), ...runTogetherOnPage(data).map((t) => `run together: ${t}`), ...unnamedFields()];
      if (found.length) problems.set(url, found);
      // the app's own pages (an href to the API, e.g. the OAuth start, is not a screen)
      if (follow)
        for (const a of document.querySelectorAll<HTMLAnchorElement>('a[href^="/"]')) {
          const href = a.getAttribute('href')!;
          if (ROUTES.has(patternOf(new URL(href, 'http://app.test').pathname))) queue.push(href);
        }
      ui.unmount();
    }
  } finally {
    h.intercept(undefined);
  }
  return { problems, pages: seen.size };
}

/**
 * The detail and booking pages of a class the member can book today: the crawl opens the first link
 * of each pattern, and the schedule's first class is usually over, whose page offers no booking.
 */
async function bookablePages(phone: string, password: string): Promise<string[]> {
  const login = await h.server.call('POST', '/api/oauth/login', { body: { username: phone, password, loginType: 'password' } });
  const token = login.body.token as string;
  const schedule = await h.server.call('GET', '/api/customers/classes/schedule', { token });
  const open = (schedule.body.data as { id: number; state: string }[]).find((c) => c.state === 'bookable');
  if (!open) throw new Error('the seed has no class the demo member can book today');
  return [`/takecourse/bookcourse/bookcoursedetail?id=${open.id}`, `/takecourse/bookcourse/bookcourseconfirm?id=${open.id}`];
}

const bare = (s: { path: string }) => `/${s.path.replace(/\/:[^/]+\?/g, '').replace(/:[^/]+/g, '1')}`;

describe('English screens carry no Chinese outside data, no phrases run together, no unnamed fields', () => {
  it('as a visitor and as the demo member, on every route and the pages its links open', async () => {
    // a visitor's versions of the routes (login prompts); the detail pages behind them are the member's too
    const visitor = await crawl(screens.filter((s) => !s.requiresLogin && !s.path.startsWith('staff')).map(bare), false);
    await h.logIn('13800000001', 'yoga1234');
    const member = await crawl([
      ...(await bookablePages('13800000001', 'yoga1234')),
      ...screens.filter((s) => !s.path.startsWith('staff')).map(bare),
    ]);
    expect({ visitor: Object.fromEntries(visitor.problems), member: Object.fromEntries(member.problems) }).toEqual({
      visitor: {},
      member: {},
    });
    // the crawl saw the product, not a login wall: most routes, and detail pages reached by their links
    expect(visitor.pages).toBeGreaterThan(25);
    expect(member.pages).toBeGreaterThan(60);
  }, 600_000);

  it('as staff, on every page of the staff console', async () => {
    await h.logIn('13800000005', 'staff1234');
    const staff = await crawl(screens.filter((s) => s.path.startsWith('staff') || s.path.startsWith('bindPage')).map(bare));
    expect(Object.fromEntries(staff.problems)).toEqual({});
    expect(staff.pages).toBeGreaterThan(12);
  }, 300_000);
});
