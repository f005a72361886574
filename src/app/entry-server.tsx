import { setupI18n, type Messages } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { StrictMode } from 'react';
import { renderToReadableStream } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom';
import { createApi } from '../api/index';
import type { Clock } from '../domain/clock';
import { AppProviders } from './providers';
import { PRODUCT_TITLE, routeObjects, type RouteHandle } from './routes';
import type { RequestSession } from './session/request-session';
import { sessionInputFromCookies } from './session/session-cookies';

export interface RenderInput {
  request: Request;
  locale: 'zh' | 'en';
  messages: Messages;
  /** the request's cookies (token, lang, …) */
  cookies: Record<string, string>;
  /** in-process fetch to the API (no network hop) and its base URL */
  apiFetch: typeof globalThis.fetch;
  apiBase: string;
  nonce: string;
  /** the server's clock at this request (ISO) */
  now: string;
}

export type RenderResult = { kind: 'redirect'; response: Response } | { kind: 'page'; status: number; html: string; title: string };

const handler = createStaticHandler(routeObjects());

/** Renders one page on the server: runs the loaders, waits for lazy screens, returns the HTML. */
export async function render(input: RenderInput): Promise<RenderResult> {
  const i18n = setupI18n();
  i18n.load(input.locale, input.messages);
  i18n.activate(input.locale);

  const token = input.cookies.token || undefined;
  const api = createApi({
    baseURL: input.apiBase,
    fetch: input.apiFetch,
    getToken: () => token,
    headers: () => ({ cookie: `lang=${input.locale}` }),
  });

  // loaders see the API bound to the member's token and the session from the request's cookies
  const requestSession: RequestSession = { session: sessionInputFromCookies(input.cookies), cookies: input.cookies };
  const clock: Clock = { now: () => new Date(input.now) };
  const context = await handler.query(input.request, { requestContext: { api, clock, ...requestSession } as never });
  if (context instanceof Response) return { kind: 'redirect', response: context };

  const router = createStaticRouter(handler.dataRoutes, context);
  const last = context.matches[context.matches.length - 1];
  const handle = last?.route.handle as RouteHandle | undefined;
  const notFound = last?.route.path === '*';
  const title = i18n._(handle?.title ?? PRODUCT_TITLE);

  const stream = await renderToReadableStream(
    <StrictMode>
      <I18nProvider i18n={i18n}>
        <AppProviders api={api} cookies={input.cookies}>
          <StaticRouterProvider router={router} context={context} nonce={input.nonce} />
        </AppProviders>
      </I18nProvider>
    </StrictMode>,
    { nonce: input.nonce },
  );
  await stream.allReady;
  const html = await new Response(stream).text();
  return { kind: 'page', status: notFound ? 404 : context.statusCode, html, title };
}
