import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { logInPage } from './support/checkout';
import { baseUrl, useBrowser } from './support/browser';

/**
 * Send what the first screen shows: a page inlines only the utility rules its HTML uses
 * (src/server/critical-css.ts) and loads the whole stylesheet after the first paint. The first paint
 * must be the page the whole stylesheet draws: with scripts off (so only the inlined CSS applies),
 * every element of the server's HTML, and its ::before and ::after, has the same computed style
 * before and after the whole stylesheet is added.
 */

/**
 * In the page: every element's computed style (and its pseudo-elements'), then the whole stylesheet
 * added as text (with scripts off, a <link>'s load event never reaches Playwright), then what
 * differs, one line per element and property. Custom properties show only through the properties
 * that read them (critical-css.ts drops the ones nothing reads).
 */
function differencesInPage(page: Page, wholeCss: string): Promise<string[]> {
  return page.evaluate((css) => {
    const snapshot = () => {
      const out = new Map<string, Map<string, string>>();
      const pathOf = (el: Element): string => {
        const parts: string[] = [];
        for (let e: Element | null = el; e && e !== document.documentElement; e = e.parentElement) {
          parts.unshift(`${e.tagName.toLowerCase()}:${Array.prototype.indexOf.call(e.parentElement?.children ?? [], e)}`);
        }
        return parts.join('>');
      };
      for (const el of Array.from(document.querySelectorAll('body, body *'))) {
        for (const pseudo of [null, '::before', '::after']) {
          const cs = getComputedStyle(el, pseudo);
          const values = new Map<string, string>();
          // a pseudo-element without content is not drawn: its content is all there is to compare
          if (pseudo && (cs.content === 'none' || cs.content === 'normal')) {
            out.set(`${pathOf(el)}${pseudo} .${el.getAttribute('class') ?? ''}`, new Map([['content', cs.content]]));
            continue;
          }
          for (let i = 0; i < cs.length; i++) {
            const prop = cs.item(i);
            if (!prop.startsWith('--')) values.set(prop, cs.getPropertyValue(prop));
          }
          out.set(`${pathOf(el)}${pseudo ?? ''} .${el.getAttribute('class') ?? ''}`, values);
        }
      }
      return out;
    };
    const first = snapshot();
    const style = document.createElement('style');
    style.textContent = css;
    document.head.appendChild(style);
    const found: string[] = [];
    for (const [key, values] of snapshot()) {
      const before = first.get(key);
      for (const [prop, value] of values) if (before?.get(prop) !== value) found.push(`${key} ${prop}: ${before?.get(prop)} → ${value}`);
    }
    return found;
  }, wholeCss);
}

/** The first paint's styles against the whole stylesheet's, on a page opened with scripts off. */
async function firstPaintDifferences(page: Page, url: string): Promise<string[]> {
  const res = await page.goto(`${baseUrl()}${url}`);
  expect(res?.status(), url).toBe(200);
  const href = /"(\/assets\/[^"]+\.css)"/.exec(await page.content())?.[1];
  expect(href, `${url} loads the whole stylesheet after the first paint`).toBeTruthy();
  const css = await (await page.request.get(`${baseUrl()}${href!}`)).text();
  return (await differencesInPage(page, css)).map((d) => `${url} ${d}`);
}

describe('the first paint is styled as the whole stylesheet styles it', { timeout: 120_000 }, () => {
  const browser = useBrowser();

  it('as a visitor: the Homepage, log in, the schedule and the card shop', async () => {
    const { page } = await browser.newPage({ javaScriptEnabled: false });
    const found: string[] = [];
    for (const url of ['/', '/login', '/takecourse/bookcourse', '/vipcard']) found.push(...(await firstPaintDifferences(page, url)));
    expect(found.slice(0, 20)).toEqual([]);
  });

  it('as a member: the Homepage, the card shop and Mine', async () => {
    const { page } = await browser.newPage({ javaScriptEnabled: false });
    await logInPage(page);
    const found: string[] = [];
    for (const url of ['/', '/vipcard', '/mine']) found.push(...(await firstPaintDifferences(page, url)));
    expect(found.slice(0, 20)).toEqual([]);
  });

  it('the root font is 32px per 750px of viewport, capped at 64px, from the first paint with scripts off (spec §9)', async () => {
    const { page } = await browser.newPage({ javaScriptEnabled: false, viewport: { width: 412, height: 823 } });
    await page.goto(`${baseUrl()}/`);
    const rootFont = () => page.evaluate(() => parseFloat(getComputedStyle(document.documentElement).fontSize));
    expect(await rootFont()).toBeCloseTo((32 * 412) / 750, 2);
    for (const [width, px] of [
      [375, 16],
      [750, 32],
      [1500, 64],
      [2400, 64],
    ] as const) {
      await page.setViewportSize({ width, height: 800 });
      expect(await rootFont(), `${width}px wide`).toBeCloseTo(px, 2);
    }
  });

  it("the footer's tabs are drawn where they end up however many have arrived (no shift when the HTML comes in pieces)", async () => {
    const { page } = await browser.newPage({ javaScriptEnabled: false, viewport: { width: 412, height: 823 } });
    await page.goto(`${baseUrl()}/`);
    const boxes = () =>
      page.evaluate(() =>
        [...document.querySelectorAll('nav [data-tab]')].map((a) => {
          const r = a.getBoundingClientRect();
          return `${a.getAttribute('data-tab')} ${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}x${Math.round(r.height)}`;
        }),
      );
    const whole = await boxes();
    expect(whole).toHaveLength(5);
    // what a paint between two pieces of the HTML shows: the first tabs, the rest not parsed yet
    for (const parsed of [4, 3, 2, 1]) {
      await page.evaluate((n) => [...document.querySelectorAll('nav [data-tab]')].slice(n).forEach((a) => a.remove()), parsed);
      expect(await boxes(), `${parsed} tabs parsed`).toEqual(whole.slice(0, parsed));
    }
  });

  it("a page inlines its part of the stylesheet, and names its language's catalog, which a phone keeps for good", async () => {
    const { page } = await browser.newPage({ javaScriptEnabled: false });
    // the purchase agreement's text: in the catalog, not on the Homepage
    const agreement = {
      zh: '会员卡、课程与优惠券的使用、冻结、转让、延期与退款，按购买时的协议与门店政策办理。',
      en: "Using, freezing, transferring, extending and refunding cards, courses and coupons follow the agreement at purchase and the club's policy.",
    };
    for (const lang of ['zh', 'en'] as const) {
      const want = agreement[lang];
      await page.context().addCookies([{ name: 'lang', value: lang, url: baseUrl() }]);
      const html = await (await page.request.get(`${baseUrl()}/`)).text();
      const inlined = /<style[^>]*>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';
      const href = /"(\/assets\/[^"]+\.css)"/.exec(html)![1]!;
      const whole = await (await page.request.get(`${baseUrl()}${href}`)).text();
      expect(inlined.length, 'the first screen carries part of the stylesheet, not all of it').toBeLessThan(whole.length / 2);
      const boot = JSON.parse(/__APP_BOOT__=(\{.*?\});<\/script>/.exec(html)![1]!) as { locale: string; messages: string };
      expect(boot.locale).toBe(lang);
      expect(boot.messages).toMatch(new RegExp(`^/i18n/${lang}\\.[\\w-]+\\.json$`));
      const res = await page.request.get(`${baseUrl()}${boot.messages}`);
      expect(res.status()).toBe(200);
      expect(res.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(Object.values((await res.json()) as Record<string, unknown>).flat()).toContain(want);
      // the page itself no longer carries the catalog
      expect(html).not.toContain(want.slice(0, 20));
    }
    const stale = await page.request.get(`${baseUrl()}/i18n/zh.old.json`);
    expect(stale.status()).toBe(404);
    expect(((await stale.json()) as { code: number }).code).toBe(70004);
  });
});
