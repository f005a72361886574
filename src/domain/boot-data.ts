import type { ZoneSpan } from './time';

/** What the server inlines into the page. */
export interface BootData {
  locale: 'zh' | 'en';
  /**
   * The address of the language's catalog (JSON, named by its content, cached for good): fetched
   * beside the app's modules, not inlined, so a page's HTML does not carry 32 kB the first screen
   * does not show and a phone downloads it once (src/server/http/messages-file.ts).
   */
  messages: string;
  /** the request carried a token the server no longer accepts: the page was rendered for a visitor */
  expired?: boolean;
  /** the server's clock when it rendered the page (ISO): the app's clock follows it (app-clock.ts) */
  now?: string;
  /** Shanghai's offsets from UTC around `now` (time.ts): the app needs no time-zone data of its own to hydrate */
  zone?: ZoneSpan[];
}

export const BOOT_GLOBAL = '__APP_BOOT__';

/** The id of the whole stylesheet's <link>, added after the first paint; the app hydrates once it has loaded. */
export const STYLESHEET_ID = 'app-css';
