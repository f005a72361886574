import { serveStatic } from '@hono/node-server/serve-static';
import { compress } from 'hono/compress';
import { getCookie } from 'hono/cookie';
import { requestId } from 'hono/request-id';
import type { Context } from 'hono';
import { Errors } from '../domain/errors';
import type { AppEnv, Deps } from './env';
import { ApiError } from './http/api-error';
import { catalogChanged, catalogFastPath, FOREVER_CACHE_CONTROL } from './http/catalog-cache';
import { errorResponse } from './http/error-response';
import { serveMessages } from './http/messages-file';
import { refuseNul } from './http/no-nul';
import { limitBodies } from './http/photo-body';
import { createRouter } from './http/router';
import { pickLocale } from './i18n';
import { mountApi } from './routes/index';
import { silentLogin } from './http/silent-login';

/** Renders a page of the app for a non-API path (injected: the built SSR bundle, or Vite in dev). */
export type PageRenderer = (c: Context<AppEnv>) => Promise<Response>;

export interface AppOptions {
  render?: PageRenderer;
  /** the built client (dist/client): hashed assets, cached forever */
  staticRoot?: string;
}

/** The whole product: the API under /api and the app's pages for every other path. */
export function createApp(deps: Deps, opts: AppOptions = {}) {
  const app = createRouter();

  // a request id per request (X-Request-Id: the proxy's, or a new one), in every log line of the request
  app.use('*', requestId());
  // a visitor's catalogue read whose answer is stored is answered at once (decision 043)
  app.use('/api/*', catalogFastPath(deps));
  // the request's deps: the same, but its logger puts the request's id on every line (logger.ts)
  app.use('*', async (c, next) => {
    c.set('deps', { ...deps, log: deps.log.forRequest(c.var.requestId) });
    c.set('locale', pickLocale(getCookie(c, 'lang'), c.req.header('accept-language')));
    await next();
  });
  app.use('/api/*', async (c, next) => {
    const started = performance.now();
    await next();
    c.var.deps.log.info('request', {
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Math.round(performance.now() - started),
    });
  });
  // any write may change the catalogue: its cached answers go when the write has ended (decision 043)
  app.use('/api/*', async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    try {
      await next();
    } finally {
      catalogChanged(deps);
    }
  });
  // answers under 1 kB are sent as they are: the envelope carries its Content-Length (sizedJson), which
  // compress() needs to see them as small (decisions 048, 049)
  app.use('*', compress());
  // a photo upload has its own limit, and is answered "image too large" beyond it (decision 053)
  app.use('/api/*', limitBodies(deps.config.bodyLimitBytes));

  app.use('/api/*', refuseNul);

  app.onError((err, c) => errorResponse(c, err));

  mountApi(app, deps);

  app.all('/api/*', () => {
    throw new ApiError(Errors.notFound);
  });

  if (opts.staticRoot) {
    const root = opts.staticRoot;
    app.use('/assets/*', async (c, next) => {
      await next();
      if (c.res.status === 200) c.header('Cache-Control', FOREVER_CACHE_CONTROL);
    });
    app.use('/assets/*', serveStatic({ root, precompressed: true }));
  }

  // the app's /dev pages (the statecharts at /dev/machines) are for demo mode only
  if (!deps.config.demo) {
    app.get('/dev/*', () => {
      throw new ApiError(Errors.notFound);
    });
  }

  app.get('/i18n/:name', serveMessages);

  if (opts.render) {
    const render = opts.render;
    app.get('/favicon.ico', (c) => c.body(null, 204));
    app.get('*', silentLogin, (c) => render(c));
  }
  app.notFound((c) => errorResponse(c, new ApiError(Errors.notFound)));
  return app;
}

export type App = ReturnType<typeof createApp>;
