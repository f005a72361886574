import { useLingui } from '@lingui/react';
import { App as KonstaApp } from 'konsta/react';
import { useEffect, useState } from 'react';
import { Outlet, ScrollRestoration, useLocation, useNavigation } from 'react-router-dom';
import { FooterBar } from './footer-bar';
import { PageTitleContext, type TitleOverride } from './page-title';
import { PRODUCT_TITLE } from './product-title';
import { ScreenSkeleton } from './screen-skeleton';
import { useNavigationEffects, useReloadOnBackForwardRestore } from './use-navigation-effects';
import { useRouteHandle } from './use-route-handle';

/**
 * The root layout of spec §2: page title (the route's, or the screen's own: usePageTitle), the screen (a skeleton while a navigation to another page
 * loads), the footer when the route shows it, scroll restored for kept pages, the navigation
 * effects (booked count, page view) and the reload after a back/forward-cache restore.
 */
export function RootLayout() {
  const { i18n } = useLingui();
  const handle = useRouteHandle();
  const navigation = useNavigation();
  const { pathname } = useLocation();
  // a screen's own title for this page (usePageTitle), else the route's
  const [own, setOwn] = useState<TitleOverride | null>(null);
  const title = own?.path === pathname ? own.title : i18n._(handle.title ?? PRODUCT_TITLE);
  const loadingOtherPage = navigation.state === 'loading' && navigation.location.pathname !== pathname;

  useEffect(() => {
    document.title = title;
  }, [title]);
  useNavigationEffects();
  useReloadOnBackForwardRestore();

  return (
    <PageTitleContext.Provider value={setOwn}>
      <KonstaApp theme="ios" safeAreas className="min-h-screen bg-neutral-100">
        {/* the footer is fixed to the bottom, and comes first in the HTML: a phone that paints the
          page while its HTML is still arriving draws the whole footer at once, not its first tabs
          and then the rest (a layout shift, decision 052) */}
        {handle.showFooter && <FooterBar />}
        <main className={`flow-root ${handle.showFooter ? 'pb-[calc(64px+env(safe-area-inset-bottom))]' : ''}`}>
          {loadingOtherPage ? <ScreenSkeleton /> : <Outlet />}
        </main>
        <ScrollRestoration />
      </KonstaApp>
    </PageTitleContext.Provider>
  );
}
