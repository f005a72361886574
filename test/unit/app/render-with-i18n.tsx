import { setupI18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';

/** Renders a piece of the app with an active Chinese (source) catalog, as the app does. */
export function renderWithI18n(ui: ReactElement) {
  const i18n = setupI18n();
  i18n.load('zh', {});
  i18n.activate('zh');
  return render(<I18nProvider i18n={i18n}>{ui}</I18nProvider>);
}
