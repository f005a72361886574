import type { LinguiConfig } from '@lingui/conf';

/** zh is the source language and the default; en is translated in locales/en/messages.po. */
const config: LinguiConfig = {
  locales: ['zh', 'en'],
  sourceLocale: 'zh',
  fallbackLocales: { default: 'zh' },
  catalogs: [
    {
      path: '<rootDir>/locales/{locale}/messages',
      include: ['<rootDir>/src', '<rootDir>/machines'],
      exclude: ['**/node_modules/**'],
    },
  ],
  format: 'po',
};

export default config;
