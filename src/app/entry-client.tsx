import { setupI18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, matchRoutes, RouterProvider, type RouteObject } from 'react-router-dom';
import Cookies from 'universal-cookie';
import { createApi } from '../api/index';
import { setBrowserApi } from './api-context';
import { BOOT_GLOBAL, type BootData } from './boot-data';
import { AppProviders } from './providers';
import { routeObjects } from './routes';
import './styles.css';

/** Resolves the lazy screens of the first URL before hydrating, so the first render matches the server's. */
async function resolveLazy(routes: RouteObject[]) {
  const matches = matchRoutes(routes, window.location) ?? [];
  await Promise.all(
    matches
      .filter((m) => m.route.lazy)
      .map(async (m) => {
        const mod = await (m.route.lazy as () => Promise<Partial<RouteObject>>)();
        Object.assign(m.route, { ...mod, lazy: undefined });
      }),
  );
}

async function start() {
  const boot = (window as unknown as Record<string, BootData>)[BOOT_GLOBAL]!;
  const i18n = setupI18n();
  i18n.load(boot.locale, boot.messages);
  i18n.activate(boot.locale);

  const cookies = new Cookies();
  const api = createApi({ baseURL: '/api', getToken: () => cookies.get('token') || undefined });
  setBrowserApi(api);

  const routes = routeObjects();
  await resolveLazy(routes);
  const router = createBrowserRouter(routes);

  hydrateRoot(
    document.getElementById('root')!,
    <StrictMode>
      <I18nProvider i18n={i18n}>
        <AppProviders api={api} cookies={cookies.getAll() as Record<string, string>}>
          <RouterProvider router={router} />
        </AppProviders>
      </I18nProvider>
    </StrictMode>,
    {
      onRecoverableError(error) {
        console.error('hydration', error);
      },
    },
  );
}

void start();
