import type { Messages } from '@lingui/core';

/** What the server inlines into the page so the browser hydrates without another request. */
export interface BootData {
  locale: 'zh' | 'en';
  messages: Messages;
}

export const BOOT_GLOBAL = '__APP_BOOT__';
