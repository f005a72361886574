import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Messages } from '@lingui/core';
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import type { PageRenderer } from './app';
import { BOOT_GLOBAL, STYLESHEET_ID, type BootData } from '../domain/boot-data';
import { NEW_PASSWORD_PAGE, newPasswordFirstPath } from '../domain/initial-password';
import { SESSION_COOKIE_NAMES } from '../domain/session-cookies';
import { shanghaiZoneSpans } from '../domain/time';
import type { AppEnv } from './env';
import { callerForToken } from './http/auth';
import { clearSessionCookies } from './http/session-cookies';
import { criticalCss, splitStylesheet, type SplitStylesheet } from './critical-css';
import { messagesFile } from './http/messages-file';
import { catalogFor, type Locale } from './i18n';

/** The app's server entry, as src/app/entry-server.tsx exports it (loaded at run time, never imported). */
export interface SsrModule {
  render(input: {
    request: Request;
    locale: 'zh' | 'en';
    messages: Messages;
    cookies: Record<string, string>;
    apiFetch: typeof globalThis.fetch;
    apiBase: string;
    nonce: string;
    /** the server's injected clock at this request (ISO): loaders and the app take today from it */
    now: string;
  }): Promise<{ kind: 'redirect'; response: Response } | { kind: 'page'; status: number; html: string; title: string }>;
}

/** Escapes JSON for an inline <script> (no "</script>", no U+2028). */
export function inlineJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export interface Template {
  /** index.html with the module scripts taken out and `<!--app-css-->` where each stylesheet was */
  html: string;
  /** the module entry, added after the first paint */
  scripts: string[];
  /** the chunks the entry imports (the build's modulepreload links), fetched beside it after the first paint */
  preloads: string[];
  /** the stylesheets: each page inlines its critical part, the whole is loaded after the first paint */
  styles: { href: string; sheet: SplitStylesheet | null; whole: string }[];
}

/**
 * Prepares the built index.html once: takes out the stylesheets (each page inlines the part it uses,
 * render below; a stylesheet would block the first paint) and the module script, added after the
 * first paint (STACK-NOTES: LCP 1.30x of static).
 */
export function prepareTemplate(indexHtml: string, readAsset: (href: string) => string): Template {
  const scripts: string[] = [];
  const preloads: string[] = [];
  const styles: Template['styles'] = [];
  let html = indexHtml.replace(/<script type="module"[^>]*src="([^"]+)"[^>]*><\/script>\s*/g, (_m, src: string) => {
    scripts.push(src);
    return '';
  });
  html = html.replace(/<link rel="modulepreload"[^>]*href="([^"]+)"[^>]*>\s*/g, (_m, href: string) => {
    preloads.push(href);
    return '';
  });
  html = html.replace(/<link rel="stylesheet"[^>]*href="([^"]+)"[^>]*>/g, (_m, href: string) => {
    const whole = readAsset(href);
    styles.push({ href, whole, sheet: splitStylesheet(whole) });
    return '<!--app-css-->';
  });
  return { html, scripts, preloads, styles };
}

/** The page's <style>: the stylesheets' rules its HTML uses (critical-css.ts). */
function inlineStyles(template: Template, html: string, nonce: string): string {
  return template.styles.map((s) => `<style nonce="${nonce}">${s.sheet ? criticalCss(s.sheet, html) : s.whole}</style>`).join('');
}

/** After the first paint: the whole stylesheets, the language's catalog (messages-file.ts) and the app's modules. */
function lateLoads(template: Template, locale: Locale): string {
  const add = (tag: string, props: Record<string, string>) =>
    `e=document.createElement(${JSON.stringify(tag)});${Object.entries(props)
      .map(([k, v]) => `e.${k}=${JSON.stringify(v)};`)
      .join('')}`;
  const styles = template.styles
    .filter((s) => s.sheet)
    .map(
      (s, i) =>
        `${add('link', { rel: 'stylesheet', href: s.href, ...(i === 0 ? { id: STYLESHEET_ID } : {}) })}document.head.appendChild(e);`,
    );
  // fetch()'s own mode and credentials, so the app's fetch of the catalog takes this download
  const preload = `${add('link', { rel: 'preload', as: 'fetch', crossOrigin: 'anonymous', href: messagesFile(locale).path })}document.head.appendChild(e);`;
  const modules = template.scripts.map((src) => `${add('script', { type: 'module', src })}document.body.appendChild(e);`);
  // the entry's own imports start with it, not one round trip later when the entry has arrived
  const imports = template.preloads.map((href) => `${add('link', { rel: 'modulepreload', href })}document.head.appendChild(e);`);
  return `var e;${[...styles, preload, ...modules, ...imports].join('')}`;
}

/**
 * Runs `code` once the browser has painted the page's content: on its first-contentful-paint entry,
 * not at the first animation frame. Chromium ran a frame callback (and the task after it) before it
 * painted the server's HTML, so the app's module, stylesheet and catalog downloads began before the
 * first paint, and Lighthouse's simulated slow 4G counted them (150 kB) into the first paint: FCP
 * 1.2 s against 0.3 s observed. Without paint timing (older WebViews), after the next frame; and in
 * any case within 2 s (a page opened in the background paints only when shown).
 */
function afterFirstPaint(code: string): string {
  return (
    '(function(){var done=0;function go(){if(done)return;done=1;setTimeout(function(){' +
    code +
    "},0)}var P=window.PerformanceObserver;if(P&&P.supportedEntryTypes&&P.supportedEntryTypes.indexOf('paint')>=0){" +
    "new P(function(l){if(l.getEntriesByName('first-contentful-paint').length)go()}).observe({type:'paint',buffered:true})}" +
    'else requestAnimationFrame(function(){setTimeout(go,0)});setTimeout(go,2000)})();'
  );
}

/**
 * The page renderer for a built app (dist/client + dist/server). `apiFetch` answers the loaders' API
 * calls in-process (no network hop), with the page request's connection, so per-network caps see the
 * member's address.
 */
export function createPageRenderer(opts: {
  template: Template;
  ssr: SsrModule;
  apiFetch: (req: Request, env: unknown) => Promise<Response>;
}): PageRenderer {
  const { template, ssr } = opts;
  return async (c: Context<AppEnv>) => {
    const nonce = randomBytes(16).toString('base64');
    const locale = c.get('locale');
    const origin = new URL(c.req.url).origin;
    const now = c.var.deps.clock.now().toISOString();
    // a dead token (revoked, expired, banned) is dropped here, so the page renders as a visitor on both
    // sides and the app tells the member (spec §7) instead of finding out half-way through hydrating
    let cookies = getCookie(c);
    const caller = cookies.token ? await callerForToken(c.var.deps, cookies.token) : undefined;
    const expired = !!cookies.token && !caller;
    // a session opened with an initial password sees no page but the one that sets a new password (decision 054)
    const here = new URL(c.req.url);
    if (caller?.passwordChangeOnly && here.pathname !== NEW_PASSWORD_PAGE)
      return c.redirect(newPasswordFirstPath(here.pathname + here.search), 302);
    if (expired) {
      cookies = Object.fromEntries(Object.entries(cookies).filter(([k]) => !(SESSION_COOKIE_NAMES as readonly string[]).includes(k)));
      clearSessionCookies(c);
    }
    const result = await ssr.render({
      request: c.req.raw,
      locale,
      messages: catalogFor(locale),
      cookies,
      apiFetch: ((input: RequestInfo | URL, init?: RequestInit) => {
        const req = new Request(input, init);
        const xff = c.req.header('x-forwarded-for');
        if (xff) req.headers.set('x-forwarded-for', xff);
        return opts.apiFetch(req, c.env);
      }) as typeof fetch,
      apiBase: `${origin}/api`,
      nonce,
      now,
    });
    if (result.kind === 'redirect') {
      if (!expired) return result.response;
      const headers = new Headers(result.response.headers);
      for (const cookie of c.res.headers.getSetCookie()) headers.append('set-cookie', cookie);
      return new Response(null, { status: result.response.status, headers });
    }
    const boot = `<script nonce="${nonce}">window.${BOOT_GLOBAL}=${inlineJson({ locale, messages: messagesFile(locale).path, now, zone: shanghaiZoneSpans(c.var.deps.clock.now()), ...(expired ? { expired } : {}) } satisfies BootData)};</script>`;
    const late = `<script nonce="${nonce}">${afterFirstPaint(lateLoads(template, locale))}</script>`;
    const page = template.html
      .replaceAll('__NONCE__', nonce)
      .replace('<!--app-css-->', () => inlineStyles(template, result.html, nonce))
      .replaceAll('<!--app-css-->', '')
      .replace('<html lang="zh">', `<html lang="${locale === 'zh' ? 'zh-CN' : 'en'}">`)
      .replace('<!--app-title-->', () => escapeHtml(result.title))
      .replace('<!--app-html-->', () => result.html)
      .replace('</body>', () => `${boot}${late}</body>`);
    c.header('Content-Security-Policy', contentSecurityPolicy(nonce));
    c.header('Cache-Control', 'no-store');
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'same-origin');
    return c.html(page, result.status as 200);
  };
}

/** A strict CSP (DESIGN.md §5): only our nonced scripts and what they load may run. */
export function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'nonce-${nonce}' 'strict-dynamic' 'self'`,
    "style-src 'self' 'unsafe-inline'",
    // Tencent Captcha's widget (the security check): its frame, pictures and calls (decision 056)
    "img-src 'self' data: blob: https://turing.captcha.qcloud.com https://turing.captcha.gtimg.com",
    "connect-src 'self' https://turing.captcha.qcloud.com",
    'frame-src https://turing.captcha.qcloud.com',
    "font-src 'self' data:",
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join('; ');
}

/** The packages the server entry imports that pick their development or production build from NODE_ENV when loaded. */
const REACT_BUILDS = ['react', 'react/jsx-runtime', 'react-dom', 'react-dom/server'];

/**
 * Loads React's production builds, whatever NODE_ENV says. React reads NODE_ENV once, when first
 * loaded, and demo mode (`npm start`, the browser tests' and the bench's servers) leaves it unset: the
 * built app was rendered with React's development build, a fifth to a third more server CPU per page
 * (26 against 19-22 ms for the Homepage, the clubs, /vipcard and the schedule). Loaded synchronously with
 * NODE_ENV set for that moment only; the entry's imports then find them in the module cache.
 */
export function loadProductionReact(require: (name: string) => unknown): void {
  const saved = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    for (const name of REACT_BUILDS) require(name);
  } finally {
    if (saved === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = saved;
  }
}

/** Loads the built app from dist/ (production and `npm start`). */
export async function loadBuiltApp(root: string): Promise<{ template: Template; ssr: SsrModule }> {
  const clientDir = join(root, 'dist/client');
  const indexHtml = readFileSync(join(clientDir, 'index.html'), 'utf8');
  const template = prepareTemplate(indexHtml, (href) => readFileSync(join(clientDir, href), 'utf8'));
  const { pathToFileURL } = await import('node:url');
  const { createRequire } = await import('node:module');
  loadProductionReact(createRequire(join(root, 'package.json')));
  const ssr = (await import(/* @vite-ignore */ pathToFileURL(join(root, 'dist/server/entry-server.js')).href)) as SsrModule;
  return { template, ssr };
}
