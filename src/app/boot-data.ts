import type { Messages } from '@lingui/core';

/** What the server inlines into the page so the browser hydrates without another request. */
export interface BootData {
  locale: 'zh' | 'en';
  messages: Messages;
  /** the request carried a token the server no longer accepts: the page was rendered for a visitor */
  expired?: boolean;
  /** the server's clock when it rendered the page (ISO): the app's clock follows it (app-clock.ts) */
  now?: string;
}

export const BOOT_GLOBAL = '__APP_BOOT__';
