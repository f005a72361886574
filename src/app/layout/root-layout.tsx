import { useLingui } from '@lingui/react';
import { App as KonstaApp } from 'konsta/react';
import { useEffect } from 'react';
import { Outlet } from 'react-router-dom';
import { PRODUCT_TITLE } from '../routes';
import { useRouteHandle } from './use-route-handle';

/** The root layout of spec §2: page title, the screen, the footer when the route shows it. */
export function RootLayout() {
  const { i18n } = useLingui();
  const handle = useRouteHandle();
  const title = i18n._(handle.title ?? PRODUCT_TITLE);

  useEffect(() => {
    document.title = title;
  }, [title]);

  return (
    <KonstaApp theme="ios" safeAreas className="min-h-screen">
      <main className={handle.showFooter ? 'pb-16' : undefined}>
        <Outlet />
      </main>
    </KonstaApp>
  );
}
