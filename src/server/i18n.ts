import { setupI18n, type I18n, type MessageDescriptor } from '@lingui/core';
import { messages as zh } from '../../locales/zh/messages.po';
import { messages as en } from '../../locales/en/messages.po';

export type Locale = 'zh' | 'en';
export const LOCALES: readonly Locale[] = ['zh', 'en'];
const catalogs = { zh, en };

/** The catalogs, for the page renderer to inline (so hydration needs no catalog request). */
export function catalogFor(locale: Locale) {
  return catalogs[locale];
}

/** An i18n of one language (the API's messages share one per language: translate below). */
function i18nFor(locale: Locale): I18n {
  const i18n = setupI18n();
  i18n.load(locale, catalogs[locale]);
  i18n.activate(locale);
  return i18n;
}

/** Language of a request: the `lang` cookie, then Accept-Language, then zh (DESIGN.md §4). */
export function pickLocale(cookieLang: string | undefined, acceptLanguage: string | undefined): Locale {
  if (cookieLang === 'zh' || cookieLang === 'en') return cookieLang;
  if (acceptLanguage) {
    const ranked = acceptLanguage
      .split(',')
      .map((part) => {
        const [tag, ...params] = part.trim().split(';');
        const q = params.find((p) => p.trim().startsWith('q='));
        return { tag: (tag ?? '').toLowerCase(), q: q ? Number(q.trim().slice(2)) : 1 };
      })
      .sort((a, b) => b.q - a.q);
    for (const { tag } of ranked) {
      if (tag.startsWith('zh')) return 'zh';
      if (tag.startsWith('en')) return 'en';
    }
  }
  return 'zh';
}

const shared: Partial<Record<Locale, I18n>> = {};

/** Translates a descriptor in the given language (API messages; one i18n per locale is enough here). */
export function translate(locale: Locale, d: MessageDescriptor, values?: Record<string, unknown>): string {
  const inst = (shared[locale] ??= i18nFor(locale));
  return inst._(d.id ?? '', { ...d.values, ...values }, { message: d.message });
}
