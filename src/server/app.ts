import { serveStatic } from '@hono/node-server/serve-static';
import { compress } from 'hono/compress';
import { bodyLimit } from 'hono/body-limit';
import { getCookie } from 'hono/cookie';
import { HTTPException } from 'hono/http-exception';
import type { Context } from 'hono';
import { Errors } from '../domain/errors';
import type { AppEnv, Deps } from './env';
import { ApiError } from './http/api-error';
import { createRouter } from './http/router';
import { FIELD_LABELS } from '../domain/fields';
import { i18nFor, pickLocale, translate, type Locale } from './i18n';
import { mountApi } from './routes/index';

/** Renders a page of the app for a non-API path (injected: the built SSR bundle, or Vite in dev). */
export type PageRenderer = (c: Context<AppEnv>) => Promise<Response>;

export interface AppOptions {
  render?: PageRenderer;
  /** the built client (dist/client): hashed assets, cached forever */
  staticRoot?: string;
}

/** A field's name in the member's language ("username" -> 手机号), or the key as it is. */
function fieldLabel(locale: Locale, field: string): string {
  const key = field.split('.').pop() ?? field;
  const label = FIELD_LABELS[key];
  return label ? translate(locale, label) : field;
}

/** Turns any thrown error into the envelope; unknown errors are logged and answered 500 without detail. */
function errorResponse(c: Context<AppEnv>, err: unknown): Response {
  const locale = c.get('locale') ?? 'zh';
  if (err instanceof ApiError) {
    const { def, options } = err;
    const values = { ...options.values };
    if (typeof values.field === 'string') values.field = fieldLabel(locale, values.field);
    return c.json(
      {
        code: def.code,
        status: false,
        data: options.data ?? null,
        message: translate(locale, def.message, values),
        ...(options.field ? { field: options.field } : {}),
      },
      def.http,
    );
  }
  if (err instanceof HTTPException) {
    const def = err.status === 413 ? Errors.tooLarge : err.status === 404 ? Errors.notFound : Errors.invalidField;
    const field = def === Errors.invalidField ? 'body' : undefined;
    return c.json(
      {
        code: def.code,
        status: false,
        data: null,
        message: translate(locale, def.message, field ? { field: fieldLabel(locale, field) } : {}),
        ...(field ? { field } : {}),
      },
      def.http,
    );
  }
  c.get('deps')?.log.error('unhandled error', { path: c.req.path, error: err instanceof Error ? err.stack : String(err) });
  return c.json({ code: Errors.internal.code, status: false, data: null, message: translate(locale, Errors.internal.message) }, 500);
}

/** The whole product: the API under /api and the app's pages for every other path. */
export function createApp(deps: Deps, opts: AppOptions = {}) {
  const app = createRouter();

  app.use('*', async (c, next) => {
    c.set('deps', deps);
    const locale = pickLocale(getCookie(c, 'lang'), c.req.header('accept-language'));
    c.set('locale', locale);
    c.set('i18n', i18nFor(locale));
    await next();
  });
  app.use('*', compress());
  app.use(
    '/api/*',
    bodyLimit({
      maxSize: deps.config.bodyLimitBytes,
      onError: () => {
        throw new ApiError(Errors.tooLarge);
      },
    }),
  );

  app.onError((err, c) => errorResponse(c, err));

  mountApi(app, deps);

  app.all('/api/*', () => {
    throw new ApiError(Errors.notFound);
  });

  if (opts.staticRoot) {
    const root = opts.staticRoot;
    app.use('/assets/*', async (c, next) => {
      await next();
      if (c.res.status === 200) c.header('Cache-Control', 'public, max-age=31536000, immutable');
    });
    app.use('/assets/*', serveStatic({ root }));
  }

  if (opts.render) {
    const render = opts.render;
    app.get('/favicon.ico', (c) => c.body(null, 204));
    app.get('*', (c) => render(c));
  }
  app.notFound((c) => errorResponse(c, new ApiError(Errors.notFound)));
  return app;
}

export type App = ReturnType<typeof createApp>;
